// do.async runs its region on a background task; results come back through
// indirect values, on any work queue.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'do_async_results':
func.func @do_async_results() -> (i32, i32) {
  %a = tfrt.constant.i32 20
  %b = tfrt.constant.i32 2
  %s, %q = "tfrt_test.do.async"(%a, %b) ({
  ^bb0(%x: i32, %y: i32):
    %sum = tfrt.add.i32 %x, %y
    %quot, %rem = tfrt.div.i32 %x, %y
    tfrt.return %sum, %quot : i32, i32
  }) : (i32, i32) -> (i32, i32)
  tfrt.return %s, %q : i32, i32
}
// CHECK-NEXT: 'do_async_results' returned 22,10

// CHECK-LABEL: --- Running 'do_async_feeds_kernel':
func.func @do_async_feeds_kernel() -> i32 {
  %a = tfrt.constant.i32 5
  %r = "tfrt_test.do.async"(%a) ({
  ^bb0(%x: i32):
    %d = "tfrt_test.async_add.i32"(%x, %x) : (i32, i32) -> i32
    tfrt.return %d : i32
  }) : (i32) -> i32
  %one = tfrt.constant.i32 1
  %out = tfrt.add.i32 %r, %one
  tfrt.return %out : i32
}
// CHECK-NEXT: 'do_async_feeds_kernel' returned 11
