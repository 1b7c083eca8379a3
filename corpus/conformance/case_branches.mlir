// tfrt.case picks a branch function by an i32 index.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @branch0(%ch: !tfrt.chain, %arg: i32) -> (!tfrt.chain, i32) {
  %k = tfrt.constant.i32 100
  %res = tfrt.add.i32 %arg, %k
  tfrt.return %ch, %res : !tfrt.chain, i32
}

func.func @branch1(%ch: !tfrt.chain, %arg: i32) -> (!tfrt.chain, i32) {
  %k = tfrt.constant.i32 200
  %res = tfrt.add.i32 %arg, %k
  tfrt.return %ch, %res : !tfrt.chain, i32
}

func.func @branch2(%ch: !tfrt.chain, %arg: i32) -> (!tfrt.chain, i32) {
  %ch1 = "tfrt_test.print_hello"(%ch) : (!tfrt.chain) -> !tfrt.chain
  tfrt.return %ch1, %arg : !tfrt.chain, i32
}

// CHECK-LABEL: --- Running 'case_each_branch':
func.func @case_each_branch() -> (i32, i32, i32, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %arg = tfrt.constant.i32 5
  %i0 = tfrt.constant.i32 0
  %i1 = tfrt.constant.i32 1
  %i2 = tfrt.constant.i32 2
  %ch1, %r0 = tfrt.case %i0 [@branch0, @branch1, @branch2] (%ch0, %arg) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  %ch2, %r1 = tfrt.case %i1 [@branch0, @branch1, @branch2] (%ch1, %arg) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  %ch3, %r2 = tfrt.case %i2 [@branch0, @branch1, @branch2] (%ch2, %arg) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: 'case_each_branch' returned 105,205,5,!tfrt.chain value
  tfrt.return %r0, %r1, %r2, %ch3 : i32, i32, i32, !tfrt.chain
}
