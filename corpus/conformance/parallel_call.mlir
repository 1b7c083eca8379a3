// tfrt.parallel_call.i32 calls a function once per block with the block's
// [start, end) and the extra operands.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @block_fn(%start: i32, %end: i32, %sum: !test.atomic.i32, %count: !test.atomic.i32) -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.atomic.add.i32"(%sum, %start, %ch0) : (!test.atomic.i32, i32, !tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.atomic.inc.i32"(%count, %ch1) : (!test.atomic.i32, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch2 : !tfrt.chain
}

// CHECK-LABEL: --- Running 'parallel_call_blocks':
func.func @parallel_call_blocks() -> (i32, i32) {
  %start = tfrt.constant.i32 0
  %end = tfrt.constant.i32 12
  %block = tfrt.constant.i32 3
  %sum = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %count = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %done = tfrt.parallel_call.i32 %start to %end fixed %block @block_fn(%sum, %count) : !test.atomic.i32, !test.atomic.i32
  %s, %ch0 = "tfrt_test.atomic.get.i32"(%sum, %done) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  %c, %ch1 = "tfrt_test.atomic.get.i32"(%count, %ch0) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  // Blocks start at 0, 3, 6, 9.
  // CHECK-NEXT: 'parallel_call_blocks' returned 18,4
  tfrt.return %s, %c : i32, i32
}
