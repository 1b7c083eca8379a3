// get_uniqueness reports whether the kernel holds the only reference to its
// argument; a value still needed later is never unique.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @callee(%ch: !tfrt.chain, %a: i32) -> (!tfrt.chain, i32) {
  %u = "tfrt_test.get_uniqueness"(%a) : (i32) -> i1
  %ch1 = tfrt.print.i1 %u, %ch
  tfrt.return %ch1, %a : !tfrt.chain, i32
}

// CHECK-LABEL: --- Running 'shared_argument':
func.func @shared_argument() -> !tfrt.chain {
  %ch = tfrt.new.chain
  %a = tfrt.constant.i32 3
  %ch0, %a0 = tfrt.call @callee(%ch, %a) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  %ch1 = tfrt.print.i32 %a0, %ch0
  // CHECK-NEXT: int1 = 0
  // CHECK-NEXT: int32 = 3
  tfrt.return %ch1 : !tfrt.chain
}
// CHECK-NEXT: 'shared_argument' returned !tfrt.chain value

