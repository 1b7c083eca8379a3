// An expectation that no error meets fails the run with exit status 1.
// RUN: not bef run --verify-diagnostics %s 2>&1 | FileCheck %s

// CHECK-LABEL: --- Running 'no_error_here':
func.func @no_error_here() -> i32 {
  %x = tfrt.constant.i32 1 // expected-error {{this never happens}}
  tfrt.return %x : i32
}
// CHECK: 'no_error_here' returned 1
// CHECK: verify_diagnostics_unmet.mlir:[[@LINE-4]]: error: expected error "this never happens" was not produced
