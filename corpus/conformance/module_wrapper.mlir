// A `module attributes {...}` wrapper around the functions.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

module attributes {tfrt.cost_threshold = 10 : i64} {
// CHECK-LABEL: --- Running 'inside_module':
func.func @inside_module() -> i32 {
  %a = tfrt.constant.i32 20
  %b = tfrt.add.i32 %a, %a
  // CHECK-NEXT: 'inside_module' returned 40
  tfrt.return %b : i32
}
}
