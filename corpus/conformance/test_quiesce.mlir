// tfrt_test.quiesce completes its chain once the work queue is idle. Called
// from inside the queue's own tasks (here 10,000 parallel_for blocks) it
// neither nests one drain of the queue inside another nor starts a thread
// per call, and the runner finds nothing left behind afterwards.
// RUN: bef run --host-allocator leak_check_allocator --work-queue s %s | FileCheck %s
// RUN: bef run --host-allocator leak_check_allocator --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'quiesce_in_every_block':
func.func @quiesce_in_every_block() -> i32 {
  %start = tfrt.constant.i32 0
  %end = tfrt.constant.i32 10000
  %block = tfrt.constant.i32 1
  %n = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %done = tfrt.parallel_for.i32 %start to %end fixed %block, %n : !test.atomic.i32 {
    %q = "tfrt_test.quiesce"() : () -> !tfrt.chain
    %ch = "tfrt_test.atomic.inc.i32"(%n, %q) : (!test.atomic.i32, !tfrt.chain) -> !tfrt.chain
    tfrt.return %ch : !tfrt.chain
  }
  %count, %ch = "tfrt_test.atomic.get.i32"(%n, %done) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  // CHECK-NEXT: 'quiesce_in_every_block' returned 10000
  tfrt.return %count : i32
}

// The chain of a quiesce waits for work queued before it (a slow blocking
// task), and work chained after it runs once.
// CHECK-LABEL: --- Running 'quiesce_waits_for_queued_work':
func.func @quiesce_waits_for_queued_work() -> !tfrt.chain {
  %t = tfrt.constant.i32 2000
  %slept = "tfrt_test.blocking.usleep"(%t) : (i32) -> !tfrt.chain
  %q = "tfrt_test.quiesce"() : () -> !tfrt.chain
  %ch = "tfrt_test.print_hello"(%q) : (!tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: Slept for 2000 microseconds
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: 'quiesce_waits_for_queued_work' returned !tfrt.chain value
  tfrt.return %ch : !tfrt.chain
}
