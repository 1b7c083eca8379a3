// Only the taken branch runs: its prints appear, the other branch's do not.
// An `if` without results may omit `else`.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'only_taken_branch':
func.func @only_taken_branch() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %f = tfrt.constant.i1 false
  %ch1 = tfrt.if %f, %ch0 : (!tfrt.chain) -> (!tfrt.chain) {
    %x = tfrt.constant.i32 111
    %c = tfrt.print.i32 %x, %ch0
    tfrt.return %c : !tfrt.chain
  } else {
    %x = tfrt.constant.i32 222
    %c = tfrt.print.i32 %x, %ch0
    tfrt.return %c : !tfrt.chain
  }
  // CHECK-NOT: int32 = 111
  // CHECK: int32 = 222
  // CHECK-NEXT: 'only_taken_branch' returned !tfrt.chain value
  tfrt.return %ch1 : !tfrt.chain
}

// CHECK-LABEL: --- Running 'if_without_else':
func.func @if_without_else() {
  %t = tfrt.constant.i1 true
  %f = tfrt.constant.i1 false
  %ch0 = tfrt.new.chain
  tfrt.if %t, %ch0 : (!tfrt.chain) -> () {
    "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
    tfrt.return
  }
  tfrt.if %f, %ch0 : (!tfrt.chain) -> () {
    %x = tfrt.constant.i32 333
    tfrt.print.i32 %x, %ch0
    tfrt.return
  }
  // CHECK-NEXT: hello host executor!
  // CHECK-NOT: int32 = 333
  tfrt.return
}
// CHECK-LABEL: --- Running 'after':
func.func @after() {
  tfrt.return
}
