// tfrt.div.iN returns quotient and remainder, truncating toward zero as C++.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'div_i32':
func.func @div_i32() -> (i32, i32) {
  %a = tfrt.constant.i32 47
  %b = tfrt.constant.i32 5
  %q, %r = tfrt.div.i32 %a, %b
  // CHECK-NEXT: 'div_i32' returned 9,2
  tfrt.return %q, %r : i32, i32
}

// CHECK-LABEL: --- Running 'div_i32_negative':
func.func @div_i32_negative() -> (i32, i32) {
  %a = tfrt.constant.i32 -7
  %b = tfrt.constant.i32 2
  %q, %r = tfrt.div.i32 %a, %b
  // CHECK-NEXT: 'div_i32_negative' returned -3,-1
  tfrt.return %q, %r : i32, i32
}

// CHECK-LABEL: --- Running 'div_i64':
func.func @div_i64() -> (i64, i64) {
  %a = tfrt.constant.i64 10000000007
  %b = tfrt.constant.i64 10
  %q, %r = tfrt.div.i64 %a, %b
  // CHECK-NEXT: 'div_i64' returned 1000000000,7
  tfrt.return %q, %r : i64, i64
}
