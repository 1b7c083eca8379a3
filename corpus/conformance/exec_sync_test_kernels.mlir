// Sync test kernels in tfrt.sync functions: an error becomes an error
// result; sync_sum takes any number of arguments.
// RUN: bef run --verify-diagnostics --work-queue s %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'sync_fail':
func.func @sync_fail() -> i32 attributes {tfrt.sync} {
  %x = "tfrt_test.fail_s"() : () -> i32 // expected-error {{something bad happened}}
  tfrt.return %x : i32
}
// CHECK-NEXT: 'sync_fail' returned <<error: something bad happened>>

// CHECK-LABEL: --- Running 'sync_sum':
func.func @sync_sum() -> i32 attributes {tfrt.sync} {
  %0 = "tfrt.constant_s.i32"() {value = 4 : i32} : () -> i32
  %1 = "tfrt.constant_s.i32"() {value = 5 : i32} : () -> i32
  %2 = "tfrt.constant_s.i32"() {value = 6 : i32} : () -> i32
  %x = "tfrt_test.sync_sum"(%0, %1, %2) : (i32, i32, i32) -> i32
  tfrt.return %x : i32
}
// CHECK-NEXT: 'sync_sum' returned 15
