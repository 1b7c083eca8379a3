// Every work-queue spelling names its queue and gives the same results.
// RUN: bef run %s | FileCheck %s --check-prefixes=CHECK,SINGLE
// RUN: bef run --work-queue s %s | FileCheck %s --check-prefixes=CHECK,SINGLE
// RUN: bef run --work-queue mstd %s | FileCheck %s --check-prefixes=CHECK,MULTI
// RUN: bef run --work-queue mstd:1 %s | FileCheck %s --check-prefixes=CHECK,MULTI
// RUN: bef run --work-queue mstd:3,2 %s | FileCheck %s --check-prefixes=CHECK,MULTI
// RUN: bef run --work_queue_type=mstd %s | FileCheck %s --check-prefixes=CHECK,MULTI
// RUN: bef run -work_queue_type=s %s | FileCheck %s --check-prefixes=CHECK,SINGLE
// RUN: not bef run --work-queue bogus %s

// CHECK: Choosing memory leak check allocator.
// SINGLE-NEXT: Choosing single-threaded work queue.
// MULTI-NEXT: Choosing multi-threaded work queue.
// CHECK-NEXT: --- Running 'work':
func.func @work() -> i32 {
  %a = tfrt.constant.i32 2
  %b = "tfrt_test.async_add.i32"(%a, %a) : (i32, i32) -> i32
  %c = "tfrt_test.async_add.i32"(%b, %b) : (i32, i32) -> i32
  tfrt.return %c : i32
}
// CHECK-NEXT: 'work' returned 8
