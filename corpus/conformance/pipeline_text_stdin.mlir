// MLIR text on standard input is recognised and translated on the fly.
// RUN: cat %s | bef run - | FileCheck %s
// RUN: bef run - < %s | FileCheck %s
// RUN: bef translate --mlir-to-bef %s | bef translate - | bef run - | FileCheck %s
// Without a file the runner reads standard input, as the reference driver.
// RUN: bef translate --mlir-to-bef %s | bef run | FileCheck %s

// CHECK-LABEL: --- Running 'from_stdin':
func.func @from_stdin() -> i32 {
  %a = tfrt.constant.i32 -3
  %b = tfrt.add.i32 %a, %a
  tfrt.return %b : i32
}
// CHECK-NEXT: 'from_stdin' returned -6
