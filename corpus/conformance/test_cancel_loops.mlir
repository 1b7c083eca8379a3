// Cancelling inside loops: a repeat stops after the iteration that cancels,
// and a while loop's results all become the cancellation error.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'repeat_cancel':
func.func @repeat_cancel() -> i32 {
  %ch0 = tfrt.new.chain
  %count = tfrt.constant.i32 5
  %index = tfrt.constant.i32 0
  %ch1, %result = tfrt.repeat.i32 %count, %ch0, %index : !tfrt.chain, i32 {
    %ch = tfrt.print.i32 %index, %ch0
    %one = tfrt.constant.i32 1
    %cond = tfrt.lessequal.i32 %one, %index
    %ch2, %x = tfrt.if %cond, %ch, %one : (!tfrt.chain, i32) -> (!tfrt.chain, i32) {
      %v, %c = "tfrt_test.cancel"(%ch) : (!tfrt.chain) -> (i32, !tfrt.chain)
      tfrt.return %c, %v : !tfrt.chain, i32
    } else {
      tfrt.return %ch, %one : !tfrt.chain, i32
    }
    %next = tfrt.add.i32 %index, %x
    tfrt.return %ch2, %next : !tfrt.chain, i32
  }
  // CHECK-NEXT: int32 = 0
  // CHECK-NEXT: int32 = 1
  // CHECK-NOT: int32 =
  %x = tfrt.constant.i32 -1
  tfrt.print.i32 %x, %ch1
  tfrt.return %result : i32
}
// CHECK: 'repeat_cancel' returned <<error: Cancelled>>

func.func @cancel_body(%ch: !tfrt.chain, %i: i32) -> (!tfrt.chain, i32, i1) {
  %one = tfrt.constant.i32 1
  %next = tfrt.add.i32 %i, %one
  %x, %ch1 = "tfrt_test.cancel"(%ch) : (!tfrt.chain) -> (i32, !tfrt.chain)
  %five = tfrt.constant.i32 5
  %c = tfrt.lessequal.i32 %x, %five
  tfrt.return %ch1, %next, %c : !tfrt.chain, i32, i1
}

// CHECK-LABEL: --- Running 'while_cancel':
func.func @while_cancel() -> (!tfrt.chain, i32) {
  %ch0 = tfrt.new.chain
  %t = tfrt.constant.i1 true
  %i = tfrt.constant.i32 0
  %ch1, %n = tfrt.while %t @cancel_body(%ch0, %i) parallel_iterations(1) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  tfrt.return %ch1, %n : !tfrt.chain, i32
}
// CHECK-NEXT: 'while_cancel' returned <<error: Cancelled>>,<<error: Cancelled>>

// CHECK-LABEL: --- Running 'while_cancel_parallel':
func.func @while_cancel_parallel() -> (!tfrt.chain, i32) {
  %ch0 = tfrt.new.chain
  %t = tfrt.constant.i1 true
  %i = tfrt.constant.i32 0
  %ch1, %n = tfrt.while %t @cancel_body(%ch0, %i) parallel_iterations(3) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  tfrt.return %ch1, %n : !tfrt.chain, i32
}
// CHECK-NEXT: 'while_cancel_parallel' returned <<error: Cancelled>>,<<error: Cancelled>>
