// count3 returns x+1, x+2, x+3 for i32 and i64.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'count3_i32':
func.func @count3_i32() -> (i32, i32, i32) {
  %x = tfrt.constant.i32 -2
  %a, %b, %c = "tfrt_test.count3.i32"(%x) : (i32) -> (i32, i32, i32)
  // CHECK-NEXT: 'count3_i32' returned -1,0,1
  tfrt.return %a, %b, %c : i32, i32, i32
}

// CHECK-LABEL: --- Running 'count3_i64':
func.func @count3_i64() -> (i64, i64, i64) {
  %x = tfrt.constant.i64 9999999999
  %r:3 = "tfrt_test.count3.i64"(%x) : (i64) -> (i64, i64, i64)
  // CHECK-NEXT: 'count3_i64' returned 10000000000,10000000001,10000000002
  tfrt.return %r#0, %r#1, %r#2 : i64, i64, i64
}
