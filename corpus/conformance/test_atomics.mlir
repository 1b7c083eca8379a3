// Atomic counters: create starts at 0; inc and add are sequenced by chains.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'atomic_counter':
func.func @atomic_counter() -> (i32, i32) {
  %a = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %ch0 = tfrt.new.chain
  %v0, %ch1 = "tfrt_test.atomic.get.i32"(%a, %ch0) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  %ch2 = "tfrt_test.atomic.inc.i32"(%a, %ch1) : (!test.atomic.i32, !tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt_test.atomic.inc.i32"(%a, %ch2) : (!test.atomic.i32, !tfrt.chain) -> !tfrt.chain
  %k = tfrt.constant.i32 40
  %ch4 = "tfrt_test.atomic.add.i32"(%a, %k, %ch3) : (!test.atomic.i32, i32, !tfrt.chain) -> !tfrt.chain
  %v1, %ch5 = "tfrt_test.atomic.get.i32"(%a, %ch4) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  // CHECK-NEXT: 'atomic_counter' returned 0,42
  tfrt.return %v0, %v1 : i32, i32
}
