// Integer and float addition; results feed later kernels.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'add_i32':
func.func @add_i32() -> i32 {
  %a = tfrt.constant.i32 40
  %b = tfrt.constant.i32 2
  %c = tfrt.add.i32 %a, %b
  %m = tfrt.constant.i32 -50
  %d = tfrt.add.i32 %c, %m
  // CHECK-NEXT: 'add_i32' returned -8
  tfrt.return %d : i32
}

// CHECK-LABEL: --- Running 'add_i64':
func.func @add_i64() -> i64 {
  %a = tfrt.constant.i64 4294967295
  %b = tfrt.constant.i64 4294967297
  %c = tfrt.add.i64 %a, %b
  // CHECK-NEXT: 'add_i64' returned 8589934592
  tfrt.return %c : i64
}

// CHECK-LABEL: --- Running 'add_f32':
func.func @add_f32() -> (f32, !tfrt.chain) {
  %a = tfrt.constant.f32 1.25
  %b = tfrt.constant.f32 6.5
  %c = tfrt.add.f32 %a, %b
  %ch0 = tfrt.new.chain
  // CHECK-NEXT: f32 = 7.750000
  %ch1 = tfrt.print.f32 %c, %ch0
  // CHECK-NEXT: 'add_f32' returned 7.75,!tfrt.chain value
  tfrt.return %c, %ch1 : f32, !tfrt.chain
}

// CHECK-LABEL: --- Running 'add_f64':
func.func @add_f64() -> f64 {
  %a = tfrt.constant.f64 0.5
  %b = tfrt.constant.f64 0.25
  %c = tfrt.add.f64 %a, %b
  // CHECK-NEXT: 'add_f64' returned 0.75
  tfrt.return %c : f64
}
