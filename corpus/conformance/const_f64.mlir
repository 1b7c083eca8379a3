// f64 constants: prints use printf's %f, results the shortest round trip.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'f64_values':
func.func @f64_values() -> (f64, f64, f64, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %a = tfrt.constant.f64 0.1
  %b = tfrt.constant.f64 123456.789
  %c = tfrt.constant.f64 -0.5
  // CHECK-NEXT: f64 = 0.100000
  %ch1 = tfrt.print.f64 %a, %ch0
  // CHECK-NEXT: f64 = 123456.789000
  %ch2 = tfrt.print.f64 %b, %ch1
  // CHECK-NEXT: f64 = -0.500000
  %ch3 = tfrt.print.f64 %c, %ch2
  // CHECK-NEXT: 'f64_values' returned 0.1,123456.789,-0.5,!tfrt.chain value
  tfrt.return %a, %b, %c, %ch3 : f64, f64, f64, !tfrt.chain
}
