// tfrt.once runs its function once per program: later calls get the first
// call's results even with different arguments.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @once_body(%arg: i32) -> i32 {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
  %one = tfrt.constant.i32 1
  %r = tfrt.add.i32 %arg, %one
  tfrt.return %r : i32
}

// CHECK-LABEL: --- Running 'once_test':
func.func @once_test() -> (i32, i32) {
  %0 = tfrt.constant.i32 0
  %1 = tfrt.once @once_body(%0) : (i32) -> (i32)
  %2 = tfrt.once @once_body(%1) : (i32) -> (i32)
  // The body's print is not chained to the results: either order.
  // CHECK-DAG: hello host executor!
  // CHECK-DAG: 'once_test' returned 1,1
  // CHECK-NOT: hello host executor!
  tfrt.return %1, %2 : i32, i32
}

// CHECK-LABEL: --- Running 'after_once':
func.func @after_once() {
  tfrt.return
}
