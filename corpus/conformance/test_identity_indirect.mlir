// identity passes its argument through; make_indirect returns it through
// an indirect async value; share_to_two hands one value to two results.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'identity':
func.func @identity() -> (i32, f32) {
  %a = tfrt.constant.i32 9
  %b = tfrt.constant.f32 0.5
  %x, %y = "tfrt_test.identity"(%a, %b) : (i32, f32) -> (i32, f32)
  tfrt.return %x, %y : i32, f32
}
// CHECK-NEXT: 'identity' returned 9,0.5

// CHECK-LABEL: --- Running 'make_indirect':
func.func @make_indirect() -> i32 {
  %a = tfrt.constant.i32 21
  %ia = "tfrt_test.make_indirect"(%a) : (i32) -> i32
  %s = tfrt.add.i32 %ia, %ia
  tfrt.return %s : i32
}
// CHECK-NEXT: 'make_indirect' returned 42

// CHECK-LABEL: --- Running 'make_indirect_returned':
func.func @make_indirect_returned() -> i32 {
  %a = "tfrt_test.async_constant.i32"() { value = 8 : i32 } : () -> i32
  %ia = "tfrt_test.make_indirect"(%a) : (i32) -> i32
  tfrt.return %ia : i32
}
// CHECK-NEXT: 'make_indirect_returned' returned 8

// CHECK-LABEL: --- Running 'share_to_two':
func.func @share_to_two() -> !tfrt.chain {
  %v = "vt.constant"() { value = 4 : i32 } : () -> !vt.value
  %a, %b = "tfrt_test.share_to_two"(%v) : (!vt.value) -> (!vt.value, !vt.value)
  %ch0 = "vt.print"(%a) : (!vt.value) -> !tfrt.chain
  %ch1 = "vt.print"(%b) : (!vt.value) -> !tfrt.chain
  %ch2 = tfrt.merge.chains %ch0, %ch1 : !tfrt.chain, !tfrt.chain
  tfrt.return %ch2 : !tfrt.chain
}
// One value, constructed once, printed twice, never copied.
// CHECK-NEXT: constructed vt.value(4)
// CHECK-NOT: copy constructed
// CHECK: print vt_value(4)
// CHECK-NOT: copy constructed
// CHECK: print vt_value(4)
// CHECK: 'share_to_two' returned !tfrt.chain value
