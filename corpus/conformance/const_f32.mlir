// f32 constants: prints use printf's %f, results the shortest round trip.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'f32_values':
func.func @f32_values() -> (f32, f32, f32, f32, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %zero = tfrt.constant.f32 0.0
  %one = tfrt.constant.f32 1.0
  %tenth = tfrt.constant.f32 0.1
  %neg = tfrt.constant.f32 -2.5
  // CHECK-NEXT: f32 = 0.000000
  %ch1 = tfrt.print.f32 %zero, %ch0
  // CHECK-NEXT: f32 = 1.000000
  %ch2 = tfrt.print.f32 %one, %ch1
  // CHECK-NEXT: f32 = 0.100000
  %ch3 = tfrt.print.f32 %tenth, %ch2
  // CHECK-NEXT: f32 = -2.500000
  %ch4 = tfrt.print.f32 %neg, %ch3
  // CHECK-NEXT: 'f32_values' returned 0.0,1.0,0.1,-2.5,!tfrt.chain value
  tfrt.return %zero, %one, %tenth, %neg, %ch4 : f32, f32, f32, f32, !tfrt.chain
}

// CHECK-LABEL: --- Running 'f32_exponent':
func.func @f32_exponent() -> f32 {
  %x = tfrt.constant.f32 1.5e3
  // CHECK-NEXT: 'f32_exponent' returned 1500.0
  tfrt.return %x : f32
}
