// Float kernels beyond add: minimum, multiply, div (and its zero check).
// RUN: bef run --verify-diagnostics --work-queue s %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'float_minimum':
func.func @float_minimum() -> (f32, f64) {
  %a = tfrt.constant.f32 2.5
  %b = tfrt.constant.f32 -1.0
  %m = tfrt.minimum.f32 %a, %b
  %c = tfrt.constant.f64 3.0
  %d = tfrt.constant.f64 4.0
  %n = tfrt.minimum.f64 %c, %d
  // CHECK-NEXT: 'float_minimum' returned -1.0,3.0
  tfrt.return %m, %n : f32, f64
}

// CHECK-LABEL: --- Running 'float_multiply':
func.func @float_multiply() -> (f32, f64) {
  %a = tfrt.constant.f32 1.5
  %b = tfrt.constant.f32 4.0
  %m = "tfrt.multiply.f32"(%a, %b) : (f32, f32) -> f32
  %c = tfrt.constant.f64 0.5
  %n = "tfrt.multiply.f64"(%c, %c) : (f64, f64) -> f64
  // CHECK-NEXT: 'float_multiply' returned 6.0,0.25
  tfrt.return %m, %n : f32, f64
}

// CHECK-LABEL: --- Running 'float_div':
func.func @float_div() -> f64 {
  %a = tfrt.constant.f64 1.0
  %b = tfrt.constant.f64 8.0
  %q = "tfrt.div.f64"(%a, %b) : (f64, f64) -> f64
  // CHECK-NEXT: 'float_div' returned 0.125
  tfrt.return %q : f64
}

// CHECK-LABEL: --- Running 'float_div_by_zero':
func.func @float_div_by_zero() -> f32 {
  %a = tfrt.constant.f32 1.0
  %z = tfrt.constant.f32 0.0
  %q = "tfrt.div.f32"(%a, %z) : (f32, f32) -> f32 // expected-error {{Divide by zero}}
  // CHECK-NEXT: 'float_div_by_zero' returned <<error: Divide by zero>>
  tfrt.return %q : f32
}
