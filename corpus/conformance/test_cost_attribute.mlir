// The _tfrt_cost attribute only steers scheduling: test_cost still sees its
// own `id` attribute whatever the cost.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'cost_does_not_hide_attributes':
func.func @cost_does_not_hide_attributes() -> i32 {
  %c0 = tfrt.constant.i32 1
  // CHECK-NEXT: id: 7
  %c1 = "tfrt_test.test_cost"(%c0) {id = 7 : i64, _tfrt_cost = 100 : i64} : (i32) -> i32
  tfrt.return %c1 : i32
}
// CHECK-NEXT: 'cost_does_not_hide_attributes' returned 1
