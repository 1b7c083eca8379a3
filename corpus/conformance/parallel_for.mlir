// tfrt.parallel_for.i32 splits [start, end) into blocks; each block's body
// sees its own sub-range. Atomic counters sum the ranges; the done chain
// resolves only after every block.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'parallel_for_block_1':
func.func @parallel_for_block_1() -> (i32, i32) {
  %start = tfrt.constant.i32 0
  %end = tfrt.constant.i32 10
  %block = tfrt.constant.i32 1
  %lo = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %hi = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %done = tfrt.parallel_for.i32 %start to %end fixed %block, %lo, %hi : !test.atomic.i32, !test.atomic.i32 {
    %ch0 = tfrt.new.chain
    %ch1 = "tfrt_test.atomic.add.i32"(%lo, %start, %ch0) : (!test.atomic.i32, i32, !tfrt.chain) -> !tfrt.chain
    %ch2 = "tfrt_test.atomic.add.i32"(%hi, %end, %ch1) : (!test.atomic.i32, i32, !tfrt.chain) -> !tfrt.chain
    tfrt.return %ch2 : !tfrt.chain
  }
  %v0, %ch0 = "tfrt_test.atomic.get.i32"(%lo, %done) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  %v1, %ch1 = "tfrt_test.atomic.get.i32"(%hi, %ch0) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  // 0+1+...+9 and 1+2+...+10.
  // CHECK-NEXT: 'parallel_for_block_1' returned 45,55
  tfrt.return %v0, %v1 : i32, i32
}

// CHECK-LABEL: --- Running 'parallel_for_block_4':
func.func @parallel_for_block_4() -> i32 {
  %start = tfrt.constant.i32 0
  %end = tfrt.constant.i32 10
  %block = tfrt.constant.i32 4
  %n = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %done = tfrt.parallel_for.i32 %start to %end fixed %block, %n : !test.atomic.i32 {
    %ch0 = tfrt.new.chain
    %ch1 = "tfrt_test.atomic.inc.i32"(%n, %ch0) : (!test.atomic.i32, !tfrt.chain) -> !tfrt.chain
    tfrt.return %ch1 : !tfrt.chain
  }
  %blocks, %ch0 = "tfrt_test.atomic.get.i32"(%n, %done) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  // Blocks [0,4), [4,8), [8,10).
  // CHECK-NEXT: 'parallel_for_block_4' returned 3
  tfrt.return %blocks : i32
}
