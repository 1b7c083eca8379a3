// 64-bit integer constants beyond the 32-bit range.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'i64_values':
func.func @i64_values() -> (i64, i64, i64, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %big = tfrt.constant.i64 4294967296
  %max = tfrt.constant.i64 9223372036854775807
  %min = tfrt.constant.i64 -9223372036854775808
  // CHECK-NEXT: int64 = 4294967296
  %ch1 = tfrt.print.i64 %big, %ch0
  // CHECK-NEXT: int64 = 9223372036854775807
  %ch2 = tfrt.print.i64 %max, %ch1
  // CHECK-NEXT: int64 = -9223372036854775808
  %ch3 = tfrt.print.i64 %min, %ch2
  // CHECK-NEXT: 'i64_values' returned 4294967296,9223372036854775807,-9223372036854775808,!tfrt.chain value
  tfrt.return %big, %max, %min, %ch3 : i64, i64, i64, !tfrt.chain
}
