// Functions with arguments are listed but not run; the others run in
// FunctionIndex (file) order.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK: --- Running 'first':
func.func @first() {
  tfrt.return
}

// CHECK-NEXT: --- Not running 'takes_one' because it has arguments.
func.func @takes_one(%x: i32) -> i32 {
  tfrt.return %x : i32
}

// CHECK-NEXT: --- Not running 'takes_chain' because it has arguments.
func.func @takes_chain(%ch: !tfrt.chain) {
  tfrt.return
}

// CHECK-NEXT: --- Running 'last':
// CHECK-NEXT: 'last' returned 3
func.func @last() -> i32 {
  %x = tfrt.constant.i32 3
  tfrt.return %x : i32
}
