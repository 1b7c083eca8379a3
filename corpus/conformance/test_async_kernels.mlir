// Asynchronous kernels (work enqueued on the host): results resolve before
// the function's results are printed, and dependent kernels wait for them.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'async_add_chain':
func.func @async_add_chain() -> i32 {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 41
  %c = "tfrt_test.async_add.i32"(%a, %b) : (i32, i32) -> i32
  %d = "tfrt_test.async_add.i32"(%c, %c) : (i32, i32) -> i32
  %e = tfrt.add.i32 %d, %a
  // CHECK-NEXT: 'async_add_chain' returned 85
  tfrt.return %e : i32
}

// CHECK-LABEL: --- Running 'async_constant_and_copy':
func.func @async_constant_and_copy() -> (i32, i32, !tfrt.chain) {
  %a = "tfrt_test.async_constant.i32"() { value = 7 : i32 } : () -> i32
  %b = "tfrt_test.async_copy.i32"(%a) : (i32) -> i32
  %ch0 = tfrt.new.chain
  // CHECK-NEXT: int32 = 7
  %ch1 = tfrt.print.i32 %b, %ch0
  // CHECK-NEXT: 'async_constant_and_copy' returned 7,7,!tfrt.chain value
  tfrt.return %a, %b, %ch1 : i32, i32, !tfrt.chain
}

// CHECK-LABEL: --- Running 'copy_with_delay':
func.func @copy_with_delay() -> (i32, i64) {
  %a = tfrt.constant.i32 5
  %b = tfrt.constant.i64 6
  %c = "tfrt_test.copy.with_delay.i32"(%a) : (i32) -> i32
  %d = "tfrt_test.copy.with_delay.i64"(%b) : (i64) -> i64
  // CHECK-NEXT: 'copy_with_delay' returned 5,6
  tfrt.return %c, %d : i32, i64
}
