// Native functions are declared with tfrt.native and provided by the host;
// they are called like BEF functions, also with inputs not yet available.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func private @native_add(%a: i32, %b: i32) -> i32 attributes {tfrt.native}
func.func private @native_async_add(%a: i32, %b: i32) -> i32 attributes {tfrt.native}

// CHECK-LABEL: --- Running 'call_native_add':
func.func @call_native_add() -> i32 {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  %r = tfrt.call @native_add(%a, %b) : (i32, i32) -> i32
  tfrt.return %r : i32
}
// CHECK-NEXT: 'call_native_add' returned 3

// CHECK-LABEL: --- Running 'call_native_async_add':
func.func @call_native_async_add() -> i32 {
  %a = tfrt.constant.i32 10
  %b = tfrt.constant.i32 20
  %r = tfrt.call @native_async_add(%a, %b) : (i32, i32) -> i32
  tfrt.return %r : i32
}
// CHECK-NEXT: 'call_native_async_add' returned 30

// CHECK-LABEL: --- Running 'native_with_unavailable_input':
func.func @native_with_unavailable_input() -> i32 {
  %a = tfrt.constant.i32 1
  %c = "tfrt_test.async_add.i32"(%a, %a) : (i32, i32) -> i32
  %r = tfrt.call @native_add(%a, %c) : (i32, i32) -> i32
  tfrt.return %r : i32
}
// CHECK-NEXT: 'native_with_unavailable_input' returned 3
