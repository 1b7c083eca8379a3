// Ready kernels of the current stream run inline, most recently readied
// first: kernel 2 (ready once kernel 0 ends) runs before kernel 1.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

module attributes {tfrt.cost_threshold = 10 : i64} {

// CHECK-LABEL: --- Running 'lifo_scheduling':
func.func @lifo_scheduling() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  // CHECK-NEXT: id: 0
  // CHECK-NEXT: id: 2
  // CHECK-NEXT: id: 1
  %ch1 = "tfrt_test.test_cost"(%ch0) {id = 0 : i64, _tfrt_cost = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.test_cost"(%ch0) {id = 1 : i64, _tfrt_cost = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt_test.test_cost"(%ch1) {id = 2 : i64, _tfrt_cost = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch4 = tfrt.merge.chains %ch2, %ch3 : !tfrt.chain, !tfrt.chain
  tfrt.return %ch4 : !tfrt.chain
}

}
