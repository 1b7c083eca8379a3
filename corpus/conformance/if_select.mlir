// tfrt.if with results selects a branch by its i1 condition.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @select(%cond: i1, %v1: i32, %v2: i32) -> i32 {
  %res = tfrt.if %cond, %v1, %v2 : (i32, i32) -> (i32) {
    tfrt.return %v1 : i32
  } else {
    tfrt.return %v2 : i32
  }
  tfrt.return %res : i32
}

// CHECK-LABEL: --- Running 'if_both_ways':
func.func @if_both_ways() -> (i32, i32) {
  %a = tfrt.constant.i32 45
  %b = tfrt.constant.i32 129
  %t = tfrt.constant.i1 1
  %f = tfrt.constant.i1 0
  %x = tfrt.call @select(%t, %a, %b) : (i1, i32, i32) -> (i32)
  %y = tfrt.call @select(%f, %a, %b) : (i1, i32, i32) -> (i32)
  // CHECK-NEXT: 'if_both_ways' returned 45,129
  tfrt.return %x, %y : i32, i32
}

// CHECK-LABEL: --- Running 'if_computed_condition':
func.func @if_computed_condition() -> i32 {
  %a = tfrt.constant.i32 2
  %b = tfrt.constant.i32 3
  %le = tfrt.lessequal.i32 %b, %a
  %r = tfrt.if %le, %a, %b : (i32, i32) -> (i32) {
    %s = tfrt.add.i32 %a, %b
    tfrt.return %s : i32
  } else {
    %q, %rem = tfrt.div.i32 %b, %a
    tfrt.return %rem : i32
  }
  // CHECK-NEXT: 'if_computed_condition' returned 1
  tfrt.return %r : i32
}
