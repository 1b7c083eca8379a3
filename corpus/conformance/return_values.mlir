// Results in declaration order, repeated operands, mixed types.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'no_results':
// CHECK-NOT: 'no_results' returned
func.func @no_results() {
  tfrt.return
}

// CHECK-LABEL: --- Running 'repeated':
func.func @repeated() -> (i32, i32, i32, i32) {
  %a = tfrt.constant.i32 5
  %b = tfrt.constant.i32 6
  // CHECK-NEXT: 'repeated' returned 5,5,6,5
  tfrt.return %a, %a, %b, %a : i32, i32, i32, i32
}

// CHECK-LABEL: --- Running 'mixed':
func.func @mixed() -> (i1, i64, f64, !tfrt.chain) {
  %a = tfrt.constant.i1 1
  %b = tfrt.constant.i64 -1
  %c = tfrt.constant.f64 2.5
  %ch = tfrt.new.chain
  // CHECK-NEXT: 'mixed' returned 1,-1,2.5,!tfrt.chain value
  tfrt.return %a, %b, %c, %ch : i1, i64, f64, !tfrt.chain
}
