// The tutorial kernels build a user-defined coordinate value and print it;
// negative values, and a print ordered after another by its chain.
// RUN: bef run %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'two_points':
func.func @two_points() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = tfrt.constant.i32 -7
  %b = tfrt.constant.i32 12
  %p = "tfrt_tutorial.create_coordinate"(%a, %b) : (i32, i32) -> !my.coordinate
  %q = "tfrt_tutorial.create_coordinate"(%b, %a) : (i32, i32) -> !my.coordinate
  // CHECK-NEXT: (-7, 12)
  %ch1 = "tfrt_tutorial.print_coordinate"(%p, %ch0) : (!my.coordinate, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: (12, -7)
  %ch2 = "tfrt_tutorial.print_coordinate"(%q, %ch1) : (!my.coordinate, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch2 : !tfrt.chain
}
// CHECK-NEXT: 'two_points' returned !tfrt.chain value
