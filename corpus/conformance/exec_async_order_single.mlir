// Completion order on the single-threaded queue: kernels ready now run
// first; enqueued work (async kernels) runs afterwards in FIFO order. Only meaningful on `s`, so there is a single RUN line.
// RUN: bef run --work-queue s %s | FileCheck %s

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
