// Boolean constants in every spelling the custom form accepts.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK: Choosing memory leak check allocator.
// CHECK-LABEL: --- Running 'i1_spellings':
func.func @i1_spellings() -> (i1, i1, i1, i1, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %a = tfrt.constant.i1 0
  %b = tfrt.constant.i1 1
  %c = tfrt.constant.i1 false
  %d = tfrt.constant.i1 true
  // CHECK-NEXT: int1 = 0
  %ch1 = tfrt.print.i1 %a, %ch0
  // CHECK-NEXT: int1 = 1
  %ch2 = tfrt.print.i1 %b, %ch1
  // CHECK-NEXT: int1 = 0
  %ch3 = tfrt.print.i1 %c, %ch2
  // CHECK-NEXT: int1 = 1
  %ch4 = tfrt.print.i1 %d, %ch3
  // CHECK-NEXT: 'i1_spellings' returned 0,1,0,1,!tfrt.chain value
  tfrt.return %a, %b, %c, %d, %ch4 : i1, i1, i1, i1, !tfrt.chain
}
