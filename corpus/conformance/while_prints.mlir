// The body's chained prints run once per iteration, in order.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @print_body(%ch: !tfrt.chain, %i: i32) -> (!tfrt.chain, i32, i1) {
  %ch1 = tfrt.print.i32 %i, %ch
  %two = tfrt.constant.i32 2
  %next = tfrt.add.i32 %i, %two
  %limit = tfrt.constant.i32 6
  %c = tfrt.lessequal.i32 %next, %limit
  tfrt.return %ch1, %next, %c : !tfrt.chain, i32, i1
}

// CHECK-LABEL: --- Running 'while_print':
func.func @while_print() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %t = tfrt.constant.i1 true
  %i = tfrt.constant.i32 0
  %ch1, %last = tfrt.while %t @print_body(%ch0, %i) parallel_iterations(1) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  %ch2 = tfrt.print.i32 %last, %ch1
  // CHECK-NEXT: int32 = 0
  // CHECK-NEXT: int32 = 2
  // CHECK-NEXT: int32 = 4
  // CHECK-NEXT: int32 = 6
  // CHECK-NEXT: int32 = 8
  // CHECK-NEXT: 'while_print' returned !tfrt.chain value
  tfrt.return %ch2 : !tfrt.chain
}
