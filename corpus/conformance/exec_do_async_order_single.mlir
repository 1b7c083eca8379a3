// do.async runs its body as a task on the work queue; its results are
// indirect values forwarded when the body finishes. Chains order the prints
// (the reference suite moved to chains once stream analysis could send
// independent kernels to the queue as separate tasks).
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'do_async_after_sync_prints':
func.func @do_async_after_sync_prints() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i32 42
  %c1 = tfrt.constant.i32 1
  // CHECK-NEXT: int32 = 42
  %ch1 = tfrt.print.i32 %x, %ch0
  %y = "tfrt_test.do.async"(%x, %c1) ({
  ^bb0(%a: i32, %b: i32):
    %r = tfrt.add.i32 %a, %b
    tfrt.return %r : i32
  }) : (i32, i32) -> i32
  // CHECK-NEXT: int32 = 42
  // CHECK-NEXT: int32 = 43
  %ch2 = tfrt.print.i32 %x, %ch1
  %ch3 = tfrt.print.i32 %y, %ch2
  tfrt.return %ch3 : !tfrt.chain
}
// CHECK-NEXT: 'do_async_after_sync_prints' returned !tfrt.chain value

// CHECK-LABEL: --- Running 'do_async_in_repeat':
func.func @do_async_in_repeat() -> !tfrt.chain {
  %count = tfrt.constant.i32 2
  %ch = tfrt.new.chain
  %done = tfrt.repeat.i32 %count, %ch : !tfrt.chain {
    %next = "tfrt_test.do.async"(%ch) ({
    ^bb0(%c: !tfrt.chain):
      %c1 = "tfrt_test.print_hello"(%c) : (!tfrt.chain) -> !tfrt.chain
      %z = tfrt.constant.i32 0
      %c2 = tfrt.print.i32 %z, %c1
      tfrt.return %c2 : !tfrt.chain
    }) : (!tfrt.chain) -> !tfrt.chain
    tfrt.return %next : !tfrt.chain
  }
  %m = tfrt.constant.i32 -1
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: int32 = 0
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: int32 = 0
  // CHECK-NEXT: int32 = -1
  %last = tfrt.print.i32 %m, %done
  tfrt.return %last : !tfrt.chain
}
// CHECK-NEXT: 'do_async_in_repeat' returned !tfrt.chain value
