// equal / lessequal produce i1 for both integer widths.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'compare_i32':
func.func @compare_i32() -> (i1, i1, i1, i1, i1) {
  %a = tfrt.constant.i32 3
  %b = tfrt.constant.i32 4
  %eq_ab = tfrt.equal.i32 %a, %b
  %eq_aa = tfrt.equal.i32 %a, %a
  %le_ab = tfrt.lessequal.i32 %a, %b
  %le_ba = tfrt.lessequal.i32 %b, %a
  %le_aa = tfrt.lessequal.i32 %a, %a
  // CHECK-NEXT: 'compare_i32' returned 0,1,1,0,1
  tfrt.return %eq_ab, %eq_aa, %le_ab, %le_ba, %le_aa : i1, i1, i1, i1, i1
}

// CHECK-LABEL: --- Running 'compare_i64':
func.func @compare_i64() -> (i1, i1, !tfrt.chain) {
  %a = tfrt.constant.i64 -5000000000
  %b = tfrt.constant.i64 5000000000
  %le = tfrt.lessequal.i64 %a, %b
  %eq = tfrt.equal.i64 %a, %b
  %ch0 = tfrt.new.chain
  // CHECK-NEXT: int1 = 1
  %ch1 = tfrt.print.i1 %le, %ch0
  // CHECK-NEXT: int1 = 0
  %ch2 = tfrt.print.i1 %eq, %ch1
  // CHECK-NEXT: 'compare_i64' returned 1,0,!tfrt.chain value
  tfrt.return %le, %eq, %ch2 : i1, i1, !tfrt.chain
}
