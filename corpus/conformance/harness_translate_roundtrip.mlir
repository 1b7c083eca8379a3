// Needs no kernels: checks the harness itself (pipes, `not`, `%t`, `2>&1`,
// prefixes) with `bef translate`, whose output is the printed module.
// RUN: bef translate --mlir-to-bef %s | bef translate - | FileCheck %s
// RUN: tfrt_translate -mlir-to-bef %s -o %t.bef
// RUN: tfrt_translate -bef-to-mlir %t.bef | FileCheck %s
// RUN: bef translate --mlir-to-bef %s | bef translate - --print-generic | FileCheck %s --check-prefix=GENERIC
// RUN: not bef translate %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK-LABEL: func.func @roundtrip() -> i32 {
// CHECK-NEXT: %[[C:[0-9]+]] = tfrt.constant.i32 41
// CHECK-NEXT: %[[D:[0-9]+]] = tfrt.add.i32 %[[C]], %[[C]]
// CHECK-NEXT: tfrt.return %[[D]] : i32
// GENERIC: "tfrt.add.i32"(%{{[0-9]+}}, %{{[0-9]+}}) : (i32, i32) -> i32
// MISSING: harness_translate_roundtrip.mlir.missing
func.func @roundtrip() -> i32 {
  %a = tfrt.constant.i32 41
  %b = tfrt.add.i32 %a, %a
  tfrt.return %b : i32
}
