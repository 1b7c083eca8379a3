// Casts between i64 and f64 (f64 to i64 truncates toward zero).
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'cast_i64_to_f64':
func.func @cast_i64_to_f64() -> (f64, !tfrt.chain) {
  %a = tfrt.constant.i64 -12
  %f = "tfrt.cast.i64_to_f64"(%a) : (i64) -> f64
  %ch0 = tfrt.new.chain
  // CHECK-NEXT: f64 = -12.000000
  %ch1 = tfrt.print.f64 %f, %ch0
  // CHECK-NEXT: 'cast_i64_to_f64' returned -12.0,!tfrt.chain value
  tfrt.return %f, %ch1 : f64, !tfrt.chain
}

// CHECK-LABEL: --- Running 'cast_f64_to_i64':
func.func @cast_f64_to_i64() -> (i64, i64) {
  %a = tfrt.constant.f64 2.9
  %b = tfrt.constant.f64 -2.9
  %x = "tfrt.cast.f64_to_i64"(%a) : (f64) -> i64
  %y = "tfrt.cast.f64_to_i64"(%b) : (f64) -> i64
  // CHECK-NEXT: 'cast_f64_to_i64' returned 2,-2
  tfrt.return %x, %y : i64, i64
}
