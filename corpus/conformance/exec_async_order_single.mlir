// Completion order on the single-threaded queue: kernels ready now run
// first; enqueued work (do.async bodies, async kernels) runs afterwards in
// FIFO order. Only meaningful on `s`, so there is a single RUN line.
// RUN: bef run --work-queue s %s | FileCheck %s

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

func.func @two_async_adds(%x: i32, %y: i32) -> i32 {
  %a = "tfrt_test.async_add.i32"(%x, %y) : (i32, i32) -> i32
  %b = "tfrt_test.async_add.i32"(%a, %y) : (i32, i32) -> i32
  tfrt.return %b : i32
}

// CHECK-LABEL: --- Running 'async_call_result_last':
func.func @async_call_result_last() {
  %x = tfrt.constant.i32 42
  %c1 = tfrt.constant.i32 1
  %ch = tfrt.new.chain
  // CHECK-NEXT: int32 = 42
  tfrt.print.i32 %x, %ch
  %y = tfrt.call @two_async_adds(%x, %c1) : (i32, i32) -> i32
  tfrt.print.i32 %y, %ch
  // CHECK-NEXT: int32 = 42
  tfrt.print.i32 %x, %ch
  // CHECK-NEXT: int32 = 44
  tfrt.return
}
