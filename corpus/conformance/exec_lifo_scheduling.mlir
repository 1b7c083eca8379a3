// Ready kernels of the current stream run inline, most recently readied
// first: kernel 2 (ready once kernel 0 ends) runs right after kernel 0.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s --check-prefix=ALL

module attributes {tfrt.cost_threshold = 10 : i64} {

// CHECK-LABEL: --- Running 'lifo_scheduling':
func.func @lifo_scheduling() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  // Kernel 1 may run before kernel 0 or after kernel 2, never between.
  // CHECK: id: 0
  // CHECK-NEXT: id: 2
  // ALL-DAG: id: 0
  // ALL-DAG: id: 1
  // ALL-DAG: id: 2
  %ch1 = "tfrt_test.test_cost"(%ch0) {id = 0 : i64, _tfrt_cost = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.test_cost"(%ch0) {id = 1 : i64, _tfrt_cost = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt_test.test_cost"(%ch1) {id = 2 : i64, _tfrt_cost = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch4 = tfrt.merge.chains %ch2, %ch3 : !tfrt.chain, !tfrt.chain
  tfrt.return %ch4 : !tfrt.chain
}

}
