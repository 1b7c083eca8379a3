// An error without an annotation is reported as unexpected (exit status 1);
// without --verify-diagnostics it is printed at its location, and the exit
// status is 1 too (a runtime error).
// RUN: not bef run --verify-diagnostics %s 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not bef run %s 2>&1 | FileCheck %s --check-prefix=PLAIN

// VERIFY-LABEL: --- Running 'unannotated':
// PLAIN-LABEL: --- Running 'unannotated':
func.func @unannotated() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32
  tfrt.return %x : i32
}
// VERIFY-NEXT: 'unannotated' returned <<error: something bad happened>>
// VERIFY: verify_diagnostics_unexpected.mlir:[[@LINE-4]]:8: error: unexpected error: runtime error: something bad happened
// PLAIN: verify_diagnostics_unexpected.mlir:[[@LINE-5]]:8: error: runtime error: something bad happened
// PLAIN-NEXT: {{^}}  %x = "tfrt_test.fail"() : () -> i32
// PLAIN-NEXT: {{^       \^}}
// PLAIN: 'unannotated' returned <<error: something bad happened>>
