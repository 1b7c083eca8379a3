// do.async enqueues its body as one task: on the single-threaded queue the
// body runs after the kernels that are ready now, and each body runs whole.
// RUN: bef run --work-queue s %s | FileCheck %s
// XFAIL: tfrt_test.do.async runs its body before the caller's other ready kernels (43 printed before the second 42) and interleaves two bodies' kernels (hello,hello,0,0 instead of hello,0,hello,0)

// CHECK-LABEL: --- Running 'do_async_after_sync_prints':
func.func @do_async_after_sync_prints() {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i32 42
  %c1 = tfrt.constant.i32 1
  // CHECK-NEXT: int32 = 42
  tfrt.print.i32 %x, %ch0
  %y = "tfrt_test.do.async"(%x, %c1) ({
  ^bb0(%a: i32, %b: i32):
    %r = tfrt.add.i32 %a, %b
    tfrt.return %r : i32
  }) : (i32, i32) -> i32
  tfrt.print.i32 %y, %ch0
  // CHECK-NEXT: int32 = 42
  tfrt.print.i32 %x, %ch0
  // 43 comes once the enqueued body has run.
  // CHECK-NEXT: int32 = 43
  tfrt.return
}

// CHECK-LABEL: --- Running 'do_async_in_repeat':
func.func @do_async_in_repeat() {
  %count = tfrt.constant.i32 2
  tfrt.repeat.i32 %count {
    "tfrt_test.do.async"() ({
      %ch0 = tfrt.new.chain
      %ch1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
      %z = tfrt.constant.i32 0
      tfrt.print.i32 %z, %ch1
      tfrt.return
    }) : () -> ()
    tfrt.return
  }
  %ch3 = tfrt.new.chain
  %m = tfrt.constant.i32 -1
  // CHECK-NEXT: int32 = -1
  tfrt.print.i32 %m, %ch3
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: int32 = 0
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: int32 = 0
  tfrt.return
}

