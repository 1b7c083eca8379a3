// --print-error-code adds the error code to returned errors.
// RUN: bef run --verify-diagnostics --print-error-code %s | FileCheck %s --check-prefix=CODE
// RUN: bef_executor --print_error_code %s | FileCheck %s --check-prefix=CODE
// RUN: bef run --verify-diagnostics %s | FileCheck %s --check-prefix=PLAIN

// CODE-LABEL: --- Running 'error_result':
// PLAIN-LABEL: --- Running 'error_result':
func.func @error_result() -> (i32, i32) {
  %x = "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  %y = tfrt.constant.i32 3
  tfrt.return %x, %y : i32, i32
}
// CODE-NEXT: 'error_result' returned <<error: something bad happened, code: INTERNAL>>,3
// PLAIN-NEXT: 'error_result' returned <<error: something bad happened>>,3
