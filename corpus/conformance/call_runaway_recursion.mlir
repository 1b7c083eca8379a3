// Recursion without a base case ends at the call-depth limit with an error
// naming the function and the innermost calls, reported and returned; the
// limit is set with --max-call-depth.
// RUN: not bef run --max-call-depth 5000 --work-queue s %s 2>&1 | FileCheck %s
// RUN: not bef run --max-call-depth 5000 --work-queue mstd:2 %s 2>&1 | FileCheck %s

func.func @forever(%n: i32) -> i32 {
  %r = tfrt.call @forever(%n) : (i32) -> i32
  tfrt.return %r : i32
}

// CHECK-LABEL: --- Running 'runaway':
// CHECK: error: runtime error: calling 'forever' would nest more than 5000 function calls (runaway recursion?); innermost calls: 'forever' <- 'forever' <- 'forever' <- 'forever' <- 'forever' <- 'forever' <- ... (4995 more)
// CHECK: 'runaway' returned <<error: calling 'forever' would nest more than 5000 function calls
func.func @runaway() -> i32 {
  %one = tfrt.constant.i32 1
  %r = tfrt.call @forever(%one) : (i32) -> i32
  tfrt.return %r : i32
}
