// An indirect value forwarded to a value that is still used later is not
// unique, although the kernel holds the only reference to the indirect one.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'indirect_not_unique':
func.func @indirect_not_unique() -> !tfrt.chain {
  %ch = tfrt.new.chain
  %a = tfrt.constant.i32 100
  %ia = "tfrt_test.make_indirect"(%a) : (i32) -> i32
  %u = "tfrt_test.get_uniqueness"(%ia) : (i32) -> i1
  // CHECK-NEXT: int1 = 0
  // CHECK-NEXT: int32 = 100
  %ch0 = tfrt.print.i1 %u, %ch
  %ch1 = tfrt.print.i32 %a, %ch0
  tfrt.return %ch1 : !tfrt.chain
}
// CHECK-NEXT: 'indirect_not_unique' returned !tfrt.chain value
