// print_hello once per kernel instance, in chain order.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'hello_three_times':
func.func @hello_three_times() {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.print_hello"(%ch1) : (!tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt_test.print_hello"(%ch2) : (!tfrt.chain) -> !tfrt.chain
  tfrt.return
}
// CHECK-NEXT: hello host executor!
// CHECK-NEXT: hello host executor!
// CHECK-NEXT: hello host executor!
// CHECK-NOT: hello
