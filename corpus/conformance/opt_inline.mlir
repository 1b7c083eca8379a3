// --inline: tfrt.call sites are replaced by the callee's body. A private
// callee nothing refers to any more is erased; a public one stays. The
// inliner canonicalizes each function on the way (the unused constant in
// @bump goes). Recursive callees, calls inside tfrt.if regions and calls
// between sync and async functions stay calls.
// RUN: tfrt_opt -inline %s | FileCheck %s
// RUN: bef opt --inline --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC

// CHECK-NOT: @bump
func.func private @bump(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %unused = tfrt.constant.i32 99
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}

// CHECK-LABEL: func.func @twice(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = tfrt.constant.i32 1
// CHECK-NEXT: %1 = tfrt.add.i32 %arg0, %0
// CHECK-NEXT: %2 = tfrt.constant.i32 1
// CHECK-NEXT: %3 = tfrt.add.i32 %1, %2
// CHECK-NEXT: tfrt.return %3 : i32
// LOC-LABEL: func.func @twice
// LOC: tfrt.constant.i32 1 loc(callsite("{{.*}}opt_inline.mlir":11:10 at "{{.*}}opt_inline.mlir":27:8))
// LOC: tfrt.add.i32 %1, %2 loc(callsite("{{.*}}opt_inline.mlir":13:8 at "{{.*}}opt_inline.mlir":28:8))
func.func @twice(%x: i32) -> i32 {
  %a = tfrt.call @bump(%x) : (i32) -> i32
  %b = tfrt.call @bump(%a) : (i32) -> i32
  tfrt.return %b : i32
}

// A public callee is inlined and kept; chains pass straight through.
// CHECK-LABEL: func.func @log(%arg0: !tfrt.chain, %arg1: i32) -> !tfrt.chain {
// CHECK-NEXT: %0 = tfrt.print.i32 %arg1, %arg0
// CHECK-NEXT: tfrt.return %0 : !tfrt.chain
func.func @log(%ch: !tfrt.chain, %v: i32) -> !tfrt.chain {
  %ch1 = tfrt.print.i32 %v, %ch
  tfrt.return %ch1 : !tfrt.chain
}

// CHECK-LABEL: func.func @caller(%arg0: !tfrt.chain) -> (!tfrt.chain, i32) {
// CHECK-NEXT: %0 = tfrt.constant.i32 5
// CHECK-NEXT: %1 = tfrt.print.i32 %0, %arg0
// CHECK-NEXT: %2 = tfrt.print.i32 %0, %1
// CHECK-NEXT: tfrt.return %2, %0 : !tfrt.chain, i32
func.func @caller(%ch: !tfrt.chain) -> (!tfrt.chain, i32) {
  %five = tfrt.constant.i32 5
  %ch1 = tfrt.call @log(%ch, %five) : (!tfrt.chain, i32) -> !tfrt.chain
  %ch2 = tfrt.call @log(%ch1, %five) : (!tfrt.chain, i32) -> !tfrt.chain
  tfrt.return %ch2, %five : !tfrt.chain, i32
}

// CHECK-LABEL: func.func @countdown(%arg0: i32) -> i32 {
// CHECK-NEXT: %0 = tfrt.call @countdown(%arg0) : (i32) -> i32
func.func @countdown(%n: i32) -> i32 {
  %r = tfrt.call @countdown(%n) : (i32) -> i32
  tfrt.return %r : i32
}

// CHECK-LABEL: func.func @branchy(%arg0: i1, %arg1: i32) -> i32 {
// CHECK: tfrt.if %arg0, %arg1 : (i32) -> (i32) {
// CHECK-NEXT: %1 = tfrt.call @twice(%arg1) : (i32) -> i32
func.func @branchy(%c: i1, %x: i32) -> i32 {
  %r = tfrt.if %c, %x : (i32) -> (i32) {
    %y = tfrt.call @twice(%x) : (i32) -> i32
    tfrt.return %y : i32
  } else {
    tfrt.return %x : i32
  }
  tfrt.return %r : i32
}

// CHECK-LABEL: func.func @sync_double(%arg0: i32) -> i32 attributes {tfrt.sync} {
func.func @sync_double(%x: i32) -> i32 attributes {tfrt.sync} {
  %y = tfrt.add.i32 %x, %x
  tfrt.return %y : i32
}

// CHECK-LABEL: func.func @async_user(%arg0: i32) -> i32 {
// CHECK-NEXT: tfrt.call @sync_double(%arg0)
func.func @async_user(%x: i32) -> i32 {
  %y = tfrt.call @sync_double(%x) : (i32) -> i32
  tfrt.return %y : i32
}
