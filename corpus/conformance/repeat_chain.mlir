// tfrt.repeat.i32 carries values and a chain through its iterations.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'repeat_doubling':
func.func @repeat_doubling() -> (i32, !tfrt.chain) {
  %count = tfrt.constant.i32 5
  %ch0 = tfrt.new.chain
  %v0 = tfrt.constant.i32 3
  %ch3:2 = tfrt.repeat.i32 %count, %ch0, %v0 : !tfrt.chain, i32 {
    %ch2 = tfrt.print.i32 %v0, %ch0
    %v2 = tfrt.add.i32 %v0, %v0
    tfrt.return %ch2, %v2 : !tfrt.chain, i32
  }
  // CHECK-NEXT: int32 = 3
  // CHECK-NEXT: int32 = 6
  // CHECK-NEXT: int32 = 12
  // CHECK-NEXT: int32 = 24
  // CHECK-NEXT: int32 = 48
  // CHECK-NEXT: hello host executor!
  %ch4 = "tfrt_test.print_hello"(%ch3#0) : (!tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: 'repeat_doubling' returned 96,!tfrt.chain value
  tfrt.return %ch3#1, %ch4 : i32, !tfrt.chain
}

// CHECK-LABEL: --- Running 'repeat_chain_only':
func.func @repeat_chain_only() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %count = tfrt.constant.i32 3
  %ch1 = tfrt.repeat.i32 %count, %ch0 : !tfrt.chain {
    %c1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
    tfrt.return %c1 : !tfrt.chain
  }
  %x = tfrt.constant.i32 -1
  %ch2 = tfrt.print.i32 %x, %ch1
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: hello host executor!
  // CHECK-NEXT: int32 = -1
  // CHECK-NEXT: 'repeat_chain_only' returned !tfrt.chain value
  tfrt.return %ch2 : !tfrt.chain
}
