// tfrt.while calls its body while the carried i1 is true; the body returns
// the next values and the next condition. The result does not depend on
// parallel_iterations.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @body(%ch: !tfrt.chain, %i: i32, %acc: i32) -> (!tfrt.chain, i32, i32, i1) {
  %one = tfrt.constant.i32 1
  %limit = tfrt.constant.i32 9
  %next_i = tfrt.add.i32 %i, %one
  %next_acc = tfrt.add.i32 %acc, %i
  %next_cond = tfrt.lessequal.i32 %next_i, %limit
  tfrt.return %ch, %next_i, %next_acc, %next_cond : !tfrt.chain, i32, i32, i1
}

// CHECK-LABEL: --- Running 'while_serial':
func.func @while_serial() -> (i32, i32) {
  %ch0 = tfrt.new.chain
  %cond = tfrt.constant.i1 true
  %i = tfrt.constant.i32 0
  %acc = tfrt.constant.i32 0
  %ch1, %fi, %fa = tfrt.while %cond @body(%ch0, %i, %acc) parallel_iterations(1) : (!tfrt.chain, i32, i32) -> (!tfrt.chain, i32, i32)
  // CHECK-NEXT: 'while_serial' returned 10,45
  tfrt.return %fi, %fa : i32, i32
}

// CHECK-LABEL: --- Running 'while_parallel':
func.func @while_parallel() -> (i32, i32) {
  %ch0 = tfrt.new.chain
  %cond = tfrt.constant.i1 true
  %i = tfrt.constant.i32 0
  %acc = tfrt.constant.i32 0
  %ch1, %fi, %fa = tfrt.while %cond @body(%ch0, %i, %acc) parallel_iterations(4) : (!tfrt.chain, i32, i32) -> (!tfrt.chain, i32, i32)
  // CHECK-NEXT: 'while_parallel' returned 10,45
  tfrt.return %fi, %fa : i32, i32
}

// CHECK-LABEL: --- Running 'while_initially_false':
func.func @while_initially_false() -> i32 {
  %ch0 = tfrt.new.chain
  %cond = tfrt.constant.i1 false
  %i = tfrt.constant.i32 77
  %acc = tfrt.constant.i32 0
  %ch1, %fi, %fa = tfrt.while %cond @body(%ch0, %i, %acc) parallel_iterations(2) : (!tfrt.chain, i32, i32) -> (!tfrt.chain, i32, i32)
  // CHECK-NEXT: 'while_initially_false' returned 77
  tfrt.return %fi : i32
}
