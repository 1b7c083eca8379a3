// Errors reported asynchronously, into concrete and indirect results.
// RUN: bef run --verify-diagnostics --work-queue s %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'concrete_success':
func.func @concrete_success() -> i32 {
  %in = tfrt.constant.i32 0
  %x = "tfrt_test.report_error_concrete_async"(%in) : (i32) -> i32
  tfrt.return %x : i32
}
// CHECK-NEXT: 'concrete_success' returned 0

// CHECK-LABEL: --- Running 'concrete_fail':
func.func @concrete_fail() -> i32 {
  %in = tfrt.constant.i32 1
  %x = "tfrt_test.report_error_concrete_async"(%in) : (i32) -> i32 // expected-error {{something bad happened asynchronously}}
  tfrt.return %x : i32
}
// CHECK-NEXT: 'concrete_fail' returned <<error: something bad happened asynchronously>>

// CHECK-LABEL: --- Running 'indirect_success':
func.func @indirect_success() -> i32 {
  %in = tfrt.constant.i32 0
  %x = "tfrt_test.report_error_indirect_async"(%in) : (i32) -> i32
  tfrt.return %x : i32
}
// CHECK-NEXT: 'indirect_success' returned 0

// CHECK-LABEL: --- Running 'indirect_fail':
func.func @indirect_fail() -> i32 {
  %in = tfrt.constant.i32 3
  %x = "tfrt_test.report_error_indirect_async"(%in) : (i32) -> i32 // expected-error {{something bad happened asynchronously}}
  tfrt.return %x : i32
}
// CHECK-NEXT: 'indirect_fail' returned <<error: something bad happened asynchronously>>

// CHECK-LABEL: --- Running 'async_error_unused':
func.func @async_error_unused() -> i32 {
  %x = tfrt.constant.i32 123
  %y = "tfrt_test.report_error_async"() : () -> i32 // expected-error {{something bad happened asynchronously}}
  tfrt.return %x : i32
}
// CHECK-NEXT: 'async_error_unused' returned 123
