// Recursion 100,000 calls deep (each level a tfrt.if region and a
// tfrt.call) returns its answer: deep calls continue on heap-allocated
// stack segments instead of overflowing the thread's stack.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @depth(%n: i32) -> i32 {
  %zero = tfrt.constant.i32 0
  %base = tfrt.lessequal.i32 %n, %zero
  %r = tfrt.if %base, %n : (i32) -> (i32) {
    tfrt.return %n : i32
  } else {
    %minus_one = tfrt.constant.i32 -1
    %n1 = tfrt.add.i32 %n, %minus_one
    %d = tfrt.call @depth(%n1) : (i32) -> i32
    %one = tfrt.constant.i32 1
    %p = tfrt.add.i32 %d, %one
    tfrt.return %p : i32
  }
  tfrt.return %r : i32
}

// CHECK-LABEL: --- Running 'deep':
func.func @deep() -> i32 {
  %n = tfrt.constant.i32 100000
  %r = tfrt.call @depth(%n) : (i32) -> i32
  // CHECK-NEXT: 'deep' returned 100000
  tfrt.return %r : i32
}

// The same recursion with a base case that finishes later (on the work
// queue): every level returns a value not yet available, and the 100,000
// forwarded results resolve one inside the other when the base case ends.
func.func @depth_async(%n: i32) -> i32 {
  %zero = tfrt.constant.i32 0
  %base = tfrt.lessequal.i32 %n, %zero
  %r = tfrt.if %base, %n : (i32) -> (i32) {
    %later = "tfrt_test.async_add.i32"(%n, %n) : (i32, i32) -> i32
    tfrt.return %later : i32
  } else {
    %minus_one = tfrt.constant.i32 -1
    %n1 = tfrt.add.i32 %n, %minus_one
    %d = tfrt.call @depth_async(%n1) : (i32) -> i32
    tfrt.return %d : i32
  }
  tfrt.return %r : i32
}

// CHECK-LABEL: --- Running 'deep_async':
func.func @deep_async() -> i32 {
  %n = tfrt.constant.i32 100000
  %r = tfrt.call @depth_async(%n) : (i32) -> i32
  // CHECK-NEXT: 'deep_async' returned 0
  tfrt.return %r : i32
}
