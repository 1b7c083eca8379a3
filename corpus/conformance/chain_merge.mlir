// merge.chains joins chains and values into one chain: the print after the
// merge waits for both branches.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'merge_then_print':
func.func @merge_then_print() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i32 7
  %y = tfrt.constant.i32 8
  %ch1 = tfrt.print.i32 %x, %ch0
  %ch2 = tfrt.print.i32 %y, %ch0
  %ch3 = tfrt.merge.chains %ch1, %ch2 : !tfrt.chain, !tfrt.chain
  %z = tfrt.constant.i32 9
  %ch4 = tfrt.print.i32 %z, %ch3
  // Both branch prints come before the merged one, in either order.
  // CHECK-DAG: int32 = 7
  // CHECK-DAG: int32 = 8
  // CHECK: int32 = 9
  // CHECK-NEXT: 'merge_then_print' returned !tfrt.chain value
  tfrt.return %ch4 : !tfrt.chain
}

// CHECK-LABEL: --- Running 'merge_values':
func.func @merge_values() -> !tfrt.chain {
  %v = tfrt.constant.i32 0
  %f = tfrt.constant.f32 1.0
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.merge.chains %v, %f, %ch0 : i32, f32, !tfrt.chain
  // CHECK-NEXT: 'merge_values' returned !tfrt.chain value
  tfrt.return %ch1 : !tfrt.chain
}
