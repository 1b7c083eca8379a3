// 32-bit integer constants, including both extremes.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'i32_values':
func.func @i32_values() -> (i32, i32, i32, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %zero = tfrt.constant.i32 0
  %max = tfrt.constant.i32 2147483647
  %min = tfrt.constant.i32 -2147483648
  // CHECK-NEXT: int32 = 0
  %ch1 = tfrt.print.i32 %zero, %ch0
  // CHECK-NEXT: int32 = 2147483647
  %ch2 = tfrt.print.i32 %max, %ch1
  // CHECK-NEXT: int32 = -2147483648
  %ch3 = tfrt.print.i32 %min, %ch2
  // CHECK-NEXT: 'i32_values' returned 0,2147483647,-2147483648,!tfrt.chain value
  tfrt.return %zero, %max, %min, %ch3 : i32, i32, i32, !tfrt.chain
}

// CHECK-LABEL: --- Running 'i32_negative':
func.func @i32_negative() -> i32 {
  %x = tfrt.constant.i32 -17
  // CHECK-NEXT: 'i32_negative' returned -17
  tfrt.return %x : i32
}
