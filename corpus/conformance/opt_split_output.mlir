// --split-input-file parses, verifies and prints each `// -----` chunk on
// its own; the printed modules are separated by `// -----` lines, and
// errors keep the line numbers of the whole file.
// RUN: bef opt --split-input-file %s | FileCheck %s
// RUN: not bef opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: not bef opt --split-input-file %s.bad 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: module {
// CHECK-NEXT: func.func @first() -> i32 {
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @first() -> i64 {
// CHECK-NOT: // -----
// WHOLE: opt_split_output.mlir:26:1: error: redefinition of symbol named 'first'
// MISSING: error: cannot read {{.*}}opt_split_output.mlir.bad
func.func @first() -> i32 {
  %c = tfrt.constant.i32 1
  tfrt.return %c : i32
}

// -----

// The same name again: fine in a chunk of its own.
func.func @first() -> i64 {
  %c = tfrt.constant.i64 2
  tfrt.return %c : i64
}
