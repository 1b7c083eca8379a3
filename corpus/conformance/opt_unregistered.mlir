// Ops of dialects the reference tool does not register need
// --allow-unregistered-dialect (spelled with one dash too); the dialects of
// the TFRT kernels are registered.
// RUN: not bef opt %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: tfrt_opt -allow-unregistered-dialect %s | FileCheck %s

// ERR: opt_unregistered.mlir:14:8: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
// CHECK-LABEL: func.func @mixed(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = tfrt.constant.i32 2
// CHECK-NEXT: %1 = "my.scale"(%arg0, %0) : (i32, i32) -> i32
// CHECK-NEXT: tfrt.return %1 : i32
func.func @mixed(%x: i32) -> i32 {
  %two = tfrt.constant.i32 2
  %y = "my.scale"(%x, %two) : (i32, i32) -> i32
  tfrt.return %y : i32
}
