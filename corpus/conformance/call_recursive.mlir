// Recursion through tfrt.if and tfrt.call: sum_to(100) and fib(12).
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @sum_to(%n: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %base = tfrt.lessequal.i32 %n, %one
  %r = tfrt.if %base, %n : (i32) -> (i32) {
    %one_ = tfrt.constant.i32 1
    tfrt.return %one_ : i32
  } else {
    %m1 = tfrt.constant.i32 -1
    %n1 = tfrt.add.i32 %n, %m1
    %f = tfrt.call @sum_to(%n1) : (i32) -> i32
    %p = tfrt.add.i32 %n, %f
    tfrt.return %p : i32
  }
  tfrt.return %r : i32
}

func.func @fib(%n: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %base = tfrt.lessequal.i32 %n, %one
  %r = tfrt.if %base, %n : (i32) -> (i32) {
    tfrt.return %n : i32
  } else {
    %m1 = tfrt.constant.i32 -1
    %m2 = tfrt.constant.i32 -2
    %a = tfrt.add.i32 %n, %m1
    %b = tfrt.add.i32 %n, %m2
    %fa = tfrt.call @fib(%a) : (i32) -> i32
    %fb = tfrt.call @fib(%b) : (i32) -> i32
    %s = tfrt.add.i32 %fa, %fb
    tfrt.return %s : i32
  }
  tfrt.return %r : i32
}

// CHECK-LABEL: --- Running 'run_fib':
func.func @run_fib() -> i32 {
  %n = tfrt.constant.i32 12
  %r = tfrt.call @fib(%n) : (i32) -> i32
  // CHECK-NEXT: 'run_fib' returned 144
  tfrt.return %r : i32
}

// CHECK-LABEL: --- Running 'run_sum_to':
func.func @run_sum_to() -> i32 {
  %n = tfrt.constant.i32 100
  %r = tfrt.call @sum_to(%n) : (i32) -> i32
  // CHECK-NEXT: 'run_sum_to' returned 5050
  tfrt.return %r : i32
}
