// tfrt.call: arguments in, results out, side effects in the callee.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Not running 'print_arg' because it has arguments.
func.func @print_arg(%x: i32, %ch: !tfrt.chain) -> !tfrt.chain {
  %ch1 = tfrt.print.i32 %x, %ch
  tfrt.return %ch1 : !tfrt.chain
}

// CHECK-LABEL: --- Not running 'add_one' because it has arguments.
func.func @add_one(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}

// CHECK-LABEL: --- Running 'caller':
func.func @caller() -> (i32, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %c = tfrt.constant.i32 10
  // CHECK-NEXT: int32 = 10
  %ch1 = tfrt.call @print_arg(%c, %ch0) : (i32, !tfrt.chain) -> !tfrt.chain
  %d = tfrt.call @add_one(%c) : (i32) -> i32
  // CHECK-NEXT: int32 = 11
  %ch2 = tfrt.call @print_arg(%d, %ch1) : (i32, !tfrt.chain) -> !tfrt.chain
  %e = tfrt.call @add_one(%d) : (i32) -> i32
  // CHECK-NEXT: 'caller' returned 12,!tfrt.chain value
  tfrt.return %e, %ch2 : i32, !tfrt.chain
}
