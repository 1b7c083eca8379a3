// Cancellation: kernels not yet started are skipped and their results
// become the cancellation error; the next function runs normally.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'cancel_skips_downstream':
func.func @cancel_skips_downstream() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %x, %ch1 = "tfrt_test.cancel"(%ch0) : (!tfrt.chain) -> (i32, !tfrt.chain)
  %ch2 = tfrt.print.i32 %x, %ch1
  tfrt.return %ch2 : !tfrt.chain
}
// CHECK-NOT: int32 = 0
// CHECK: 'cancel_skips_downstream' returned <<error: Cancelled>>

// CHECK-LABEL: --- Running 'after_cancel':
func.func @after_cancel() -> (i32, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i32 5
  // CHECK-NEXT: int32 = 5
  %ch1 = tfrt.print.i32 %x, %ch0
  tfrt.return %x, %ch1 : i32, !tfrt.chain
}
// CHECK-NEXT: 'after_cancel' returned 5,!tfrt.chain value
