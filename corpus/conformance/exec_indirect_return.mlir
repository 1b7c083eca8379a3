// A function returning a value that is not yet available hands back an
// indirect value; it resolves later, also when the caller ignores it.
// RUN: bef run --work-queue s %s | FileCheck %s --implicit-check-not=leaked --implicit-check-not=alive
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s --implicit-check-not=leaked --implicit-check-not=alive

func.func @indirect_async_return(%c: i32) -> i32 {
  %v2 = "tfrt_test.async_add.i32"(%c, %c) : (i32, i32) -> i32
  %v3 = "tfrt_test.async_add.i32"(%v2, %v2) : (i32, i32) -> i32
  tfrt.return %v3 : i32
}

// CHECK-LABEL: --- Running 'unused_indirect_return':
func.func @unused_indirect_return() {
  %c1 = tfrt.constant.i32 1
  tfrt.call @indirect_async_return(%c1) : (i32) -> i32
  tfrt.return
}

// CHECK-LABEL: --- Running 'used_indirect_return':
func.func @used_indirect_return() -> i32 {
  %c3 = tfrt.constant.i32 3
  %r = tfrt.call @indirect_async_return(%c3) : (i32) -> i32
  tfrt.return %r : i32
}
// CHECK-NEXT: 'used_indirect_return' returned 12

// CHECK-LABEL: --- Running 'argument_returned':
func.func @pass_through(%x: i32) -> i32 {
  tfrt.return %x : i32
}
func.func @argument_returned() -> i32 {
  %a = "tfrt_test.async_constant.i32"() { value = 6 : i32 } : () -> i32
  %r = tfrt.call @pass_through(%a) : (i32) -> i32
  tfrt.return %r : i32
}
// CHECK: 'argument_returned' returned 6
