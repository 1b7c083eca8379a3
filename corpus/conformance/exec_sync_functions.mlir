// Functions marked tfrt.sync run on the sync interpreter with the _s
// kernels.
// RUN: bef run --verify-diagnostics --work-queue s %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'sync_add':
func.func @sync_add() -> i32 attributes {tfrt.sync} {
  %x = "tfrt.constant_s.i32"() {value = 40 : i32} : () -> i32
  %y = "tfrt.constant_s.i32"() {value = 2 : i32} : () -> i32
  %z = "tfrt.add_s.i32"(%x, %y) : (i32, i32) -> i32
  tfrt.return %z : i32
}
// CHECK-NEXT: 'sync_add' returned 42

// CHECK-LABEL: --- Running 'sync_fibonacci':
func.func @sync_fibonacci() -> i32 attributes {tfrt.sync} {
  %0 = "tfrt.constant_s.i32"() {value = 0 : i32} : () -> i32
  %1 = "tfrt.constant_s.i32"() {value = 1 : i32} : () -> i32
  %2 = "tfrt.add_s.i32"(%0, %1) : (i32, i32) -> i32
  %3 = "tfrt.add_s.i32"(%1, %2) : (i32, i32) -> i32
  %4 = "tfrt.add_s.i32"(%2, %3) : (i32, i32) -> i32
  %5 = "tfrt.add_s.i32"(%3, %4) : (i32, i32) -> i32
  %6 = "tfrt.add_s.i32"(%4, %5) : (i32, i32) -> i32
  %7 = "tfrt.add_s.i32"(%5, %6) : (i32, i32) -> i32
  %8 = "tfrt.add_s.i32"(%6, %7) : (i32, i32) -> i32
  tfrt.return %8 : i32
}
// CHECK-NEXT: 'sync_fibonacci' returned 21

