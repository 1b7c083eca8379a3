// Prints threaded through one chain come out in chain order on any queue.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'chained_prints':
func.func @chained_prints() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %c = tfrt.constant.i32 3
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  %ch1 = tfrt.print.i32 %c, %ch0
  %ch2 = tfrt.print.i32 %a, %ch1
  %ch3 = tfrt.print.i32 %b, %ch2
  %ch4 = "tfrt_test.print_hello"(%ch3) : (!tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: int32 = 3
  // CHECK-NEXT: int32 = 1
  // CHECK-NEXT: int32 = 2
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: 'chained_prints' returned !tfrt.chain value
  tfrt.return %ch4 : !tfrt.chain
}
