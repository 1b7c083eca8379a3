// A shared context is created once per host: both users see instance 0.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'shared_context':
func.func @shared_context() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %n1, %ch1 = "tfrt_test.use_sample_shared_context"(%ch0) : (!tfrt.chain) -> (!tfrt.string, !tfrt.chain)
  %n2, %ch2 = "tfrt_test.use_sample_shared_context"(%ch0) : (!tfrt.chain) -> (!tfrt.string, !tfrt.chain)
  // CHECK-NEXT: string = sample_shared_context0
  %ch3 = "tfrt_test.print_string"(%n1, %ch1) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: string = sample_shared_context0
  %ch4 = "tfrt_test.print_string"(%n2, %ch3) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %ch5 = tfrt.merge.chains %ch2, %ch4 : !tfrt.chain, !tfrt.chain
  tfrt.return %ch5 : !tfrt.chain
}
// CHECK-NEXT: 'shared_context' returned !tfrt.chain value
