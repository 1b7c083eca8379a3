// tfrt_test.fail produces an error value; an unused error does not stop the
// function, a returned one is printed as an error.
// RUN: bef run --verify-diagnostics --work-queue s %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'returned_error':
func.func @returned_error() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  tfrt.return %x : i32
}
// CHECK-NEXT: 'returned_error' returned <<error: something bad happened>>

// CHECK-LABEL: --- Running 'ignored_error':
func.func @ignored_error() -> i32 {
  "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  %x = tfrt.constant.i32 1
  tfrt.return %x : i32
}
// CHECK-NEXT: 'ignored_error' returned 1

// CHECK-LABEL: --- Running 'partial_fail':
func.func @partial_fail() -> (i32, !tfrt.chain) {
  // The first result is 1, the second an error.
  %x, %y = "tfrt_test.partial_fail"() : () -> (i32, i32) // expected-error {{something bad happened}}
  %ch0 = tfrt.new.chain
  // CHECK-NEXT: int32 = 1
  %ch1 = tfrt.print.i32 %x, %ch0
  // Not run: its input is an error, which flows to its result.
  %ch2 = tfrt.print.i32 %y, %ch1
  tfrt.return %x, %ch2 : i32, !tfrt.chain
}
// CHECK-NEXT: 'partial_fail' returned 1,<<error: something bad happened>>
