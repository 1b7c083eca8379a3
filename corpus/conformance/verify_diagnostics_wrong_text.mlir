// An error on the annotated line whose text does not match is both
// unexpected and leaves the expectation unmet.
// RUN: not bef run --verify-diagnostics %s 2>&1 | FileCheck %s

// CHECK-LABEL: --- Running 'mismatch':
func.func @mismatch() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32 // expected-error {{something good happened}}
  tfrt.return %x : i32
}
// CHECK-DAG: verify_diagnostics_wrong_text.mlir:[[@LINE-3]]:8: error: unexpected error: runtime error: something bad happened
// CHECK-DAG: verify_diagnostics_wrong_text.mlir:[[@LINE-4]]: error: expected error "something good happened" was not produced
