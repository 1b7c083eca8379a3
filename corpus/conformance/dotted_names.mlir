// Function names may contain dots; the older `func` spelling also parses.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'basic.i32':
func @basic.i32() -> i32 {
  %x = tfrt.constant.i32 42
  // CHECK-NEXT: 'basic.i32' returned 42
  tfrt.return %x : i32
}

// CHECK-LABEL: --- Running 'a.b.c':
func.func @a.b.c() -> i32 {
  %x = tfrt.call @basic.i32() : () -> i32
  // CHECK-NEXT: 'a.b.c' returned 42
  tfrt.return %x : i32
}
