// --canonicalize folds tfrt.merge.chains and erases unused ops free of side
// effects; ops with effects (prints, unregistered ops) stay. Each
// `// -----` chunk is printed on its own, separated as mlir-opt does.
// RUN: tfrt_opt -canonicalize -split-input-file -allow-unregistered-dialect %s | FileCheck %s

// A merge of chains that are all used elsewhere orders nothing: its first
// operand stands in for it.
// CHECK-LABEL: func.func @all_shared(%arg0: !tfrt.chain, %arg1: !tfrt.chain)
// CHECK-NOT: tfrt.merge.chains
// CHECK: tfrt.return %arg0, %arg0, %arg1 : !tfrt.chain, !tfrt.chain, !tfrt.chain
func.func @all_shared(%a: !tfrt.chain, %b: !tfrt.chain) -> (!tfrt.chain, !tfrt.chain, !tfrt.chain) {
  %m = tfrt.merge.chains %a, %b : !tfrt.chain, !tfrt.chain
  tfrt.return %m, %a, %b : !tfrt.chain, !tfrt.chain, !tfrt.chain
}

// -----

// CHECK: // -----
// Only the chains it is the sole user of stay.
// CHECK-LABEL: func.func @some_shared(%arg0: !tfrt.chain, %arg1: !tfrt.chain, %arg2: !tfrt.chain)
// CHECK-NEXT: %0 = tfrt.merge.chains %arg1, %arg2 : !tfrt.chain, !tfrt.chain
// CHECK-NEXT: tfrt.return %0, %arg0 : !tfrt.chain, !tfrt.chain
func.func @some_shared(%a: !tfrt.chain, %b: !tfrt.chain, %c: !tfrt.chain) -> (!tfrt.chain, !tfrt.chain) {
  %m = tfrt.merge.chains %a, %b, %c : !tfrt.chain, !tfrt.chain, !tfrt.chain
  tfrt.return %m, %a : !tfrt.chain, !tfrt.chain
}

// -----

// CHECK: // -----
// Sole uses everywhere: nothing to fold.
// CHECK-LABEL: func.func @none_shared
// CHECK-NEXT: %0 = tfrt.merge.chains %arg0, %arg1 : !tfrt.chain, !tfrt.chain
func.func @none_shared(%a: !tfrt.chain, %b: !tfrt.chain) -> !tfrt.chain {
  %m = tfrt.merge.chains %a, %b : !tfrt.chain, !tfrt.chain
  tfrt.return %m : !tfrt.chain
}

// -----

// CHECK: // -----
// Unused pure ops go, with what only they used; the print and the
// unregistered op stay.
// CHECK-LABEL: func.func @dead_code(%arg0: i32, %arg1: !tfrt.chain) -> !tfrt.chain {
// CHECK-NEXT: "test.effect"(%arg0) : (i32) -> ()
// CHECK-NEXT: %0 = tfrt.print.i32 %arg0, %arg1
// CHECK-NEXT: tfrt.return %0 : !tfrt.chain
func.func @dead_code(%x: i32, %ch: !tfrt.chain) -> !tfrt.chain {
  %one = tfrt.constant.i32 1
  %sum = tfrt.add.i32 %x, %one
  %q, %r = tfrt.div.i32 %sum, %x
  %unused_chain = tfrt.new.chain
  "test.effect"(%x) : (i32) -> ()
  %ch1 = tfrt.print.i32 %x, %ch
  tfrt.return %ch1 : !tfrt.chain
}

// -----

// CHECK: // -----
// Inside regions too; a merge whose first operand is not a chain stays.
// CHECK-LABEL: func.func @nested
// CHECK: tfrt.repeat.i32 %arg0, %arg1 : !tfrt.chain {
// CHECK-NEXT: tfrt.return %arg1 : !tfrt.chain
// CHECK: %1 = tfrt.merge.chains %arg0 : i32
func.func @nested(%n: i32, %ch: !tfrt.chain) -> (!tfrt.chain, !tfrt.chain, i32) {
  %out = tfrt.repeat.i32 %n, %ch : !tfrt.chain {
    %unused = tfrt.constant.i64 8
    tfrt.return %ch : !tfrt.chain
  }
  %m = tfrt.merge.chains %n : i32
  tfrt.return %out, %m, %n : !tfrt.chain, !tfrt.chain, i32
}
