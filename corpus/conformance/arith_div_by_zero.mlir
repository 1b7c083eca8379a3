// Division by zero is a kernel error: reported at the kernel, and the
// results become error values.
// RUN: bef run --verify-diagnostics --work-queue s %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'div_by_zero_i32':
func.func @div_by_zero_i32() -> (i32, i32) {
  %zero = tfrt.constant.i32 0
  %x = tfrt.constant.i32 42
  // expected-error @+1 {{runtime error: Divide by zero}}
  %q, %r = tfrt.div.i32 %x, %zero
  // CHECK-NEXT: 'div_by_zero_i32' returned <<error: Divide by zero>>,<<error: Divide by zero>>
  tfrt.return %q, %r : i32, i32
}

// CHECK-LABEL: --- Running 'div_by_zero_i64':
func.func @div_by_zero_i64() -> i64 {
  %zero = tfrt.constant.i64 0
  %x = tfrt.constant.i64 1
  %q, %r = tfrt.div.i64 %x, %zero // expected-error {{Divide by zero}}
  // CHECK-NEXT: 'div_by_zero_i64' returned <<error: Divide by zero>>
  tfrt.return %r : i64
}
