// A zero-trip repeat passes its operands through; a large trip count with
// an asynchronous body still accumulates every iteration.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'repeat_zero':
func.func @repeat_zero() -> i32 {
  %count = tfrt.constant.i32 0
  %v0 = tfrt.constant.i32 17
  %ch0 = tfrt.new.chain
  %ch1, %v1 = tfrt.repeat.i32 %count, %ch0, %v0 : !tfrt.chain, i32 {
    %c = tfrt.print.i32 %v0, %ch0
    tfrt.return %c, %v0 : !tfrt.chain, i32
  }
  // CHECK-NOT: int32 = 17
  // CHECK: 'repeat_zero' returned 17
  tfrt.return %v1 : i32
}

// CHECK-LABEL: --- Running 'repeat_large_async':
func.func @repeat_large_async() -> i32 {
  %count = tfrt.constant.i32 1000
  %v0 = tfrt.constant.i32 42
  %sum = tfrt.repeat.i32 %count, %v0 : i32 {
    %one = tfrt.constant.i32 1
    %v2 = "tfrt_test.async_add.i32"(%v0, %one) : (i32, i32) -> i32
    tfrt.return %v2 : i32
  }
  // CHECK-NEXT: 'repeat_large_async' returned 1042
  tfrt.return %sum : i32
}
