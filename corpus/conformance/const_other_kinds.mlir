// Constants of the remaining scalar kinds (ui32, ui64, f16, bf16) load and
// run; an unregistered kernel would fail loading the whole program.
// RUN: bef run --work-queue s %s 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: bef run --work-queue mstd:2 %s 2>&1 | FileCheck %s --implicit-check-not=error

// CHECK-LABEL: --- Running 'unsigned_constants':
func.func @unsigned_constants() -> !tfrt.chain {
  %a = tfrt.constant.ui32 4294967295
  %b = tfrt.constant.ui64 18446744073709551615
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.merge.chains %a, %b, %ch0 : ui32, ui64, !tfrt.chain
  // CHECK-NEXT: 'unsigned_constants' returned !tfrt.chain value
  tfrt.return %ch1 : !tfrt.chain
}

// CHECK-LABEL: --- Running 'half_constants':
func.func @half_constants() -> !tfrt.chain {
  %a = tfrt.constant.f16 1.5
  %b = tfrt.constant.bf16 -2.0
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.merge.chains %a, %b, %ch0 : f16, bf16, !tfrt.chain
  // CHECK-NEXT: 'half_constants' returned !tfrt.chain value
  tfrt.return %ch1 : !tfrt.chain
}
