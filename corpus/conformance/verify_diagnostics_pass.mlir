// Matched expectations are consumed silently and the run succeeds; both
// annotation forms (same line, @+1) match by substring.
// RUN: bef run --verify-diagnostics %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s 2>&1 | FileCheck %s --implicit-check-not=error:

// CHECK-LABEL: --- Running 'two_errors':
func.func @two_errors() -> (i32, i32) {
  %a = "tfrt_test.fail"() : () -> i32 // expected-error {{bad happened}}
  // expected-error @+1 {{runtime error: something bad}}
  %b = "tfrt_test.fail"() : () -> i32
  tfrt.return %a, %b : i32, i32
}
// CHECK-NEXT: 'two_errors' returned <<error: something bad happened>>,<<error: something bad happened>>
