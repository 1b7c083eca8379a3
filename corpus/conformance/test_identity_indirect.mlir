// identity passes its operands after the chain through; make_indirect returns it through
// an indirect async value; share_to_two hands one value to two results.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'identity':
func.func @identity() -> (i32, f32) {
  %a = tfrt.constant.i32 9
  %b = tfrt.constant.f32 0.5
  %ch = tfrt.new.chain
  // The leading chain only sequences; the operand passes through.
  %x = "tfrt_test.identity"(%ch, %a) : (!tfrt.chain, i32) -> i32
  %y = "tfrt_test.identity"(%ch, %b) : (!tfrt.chain, f32) -> f32
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
func.func @share_to_two() -> (i32, i32) {
  %v = "tfrt_test.async_constant.i32"() { value = 4 : i32 } : () -> i32
  %a, %b = "tfrt_test.share_to_two"(%v) : (i32) -> (i32, i32)
  tfrt.return %a, %b : i32, i32
}
// CHECK-NEXT: 'share_to_two' returned 4,4
