// BEF written without the optional sections turns back into text with
// placeholders, as the reference translator does: attributes are named by
// position and hold 0xdeadbeef, values are typed `none`; a warning says
// why. `--disable-optional-sections` also takes `=true` and `=false`.
// RUN: bef translate --mlir-to-bef --disable-optional-sections %s | bef translate --bef-to-mlir 2>&1 | FileCheck %s
// RUN: tfrt_translate -mlir-to-bef --disable-optional-sections=true %s | tfrt_translate --bef-to-mlir 2>&1 | FileCheck %s
// RUN: bef translate --mlir-to-bef --disable-optional-sections=false %s | bef translate --bef-to-mlir 2>&1 | FileCheck %s --check-prefix=KEPT

// CHECK: warning: Missing AttributeTypes, AttributeNames or RegisterTypes sections.
// CHECK: func.func @two_attributes() -> i32
// CHECK-NEXT: %[[V:.*]] = "simple.op"() {attr0 = -559038737 : i32, attr1 = -559038737 : i32} : () -> none
// CHECK-NEXT: %[[W:.*]] = "simple.use"(%[[V]]) : (none) -> none
// CHECK-NEXT: tfrt.return %[[W]] : none

// KEPT-NOT: warning
// KEPT: func.func @two_attributes() -> i32
// KEPT-NEXT: %[[V:.*]] = "simple.op"() {name = "x", value = 42 : i32} : () -> i32
func.func @two_attributes() -> i32 {
  %x = "simple.op"() {value = 42 : i32, name = "x"} : () -> i32
  %y = "simple.use"(%x) : (i32) -> i32
  tfrt.return %y : i32
}

// Arguments keep the function's types.
// CHECK: func.func @with_arguments(%arg0: i32) -> i32
// CHECK-NEXT: = "simple.twice"(%arg0) : (i32) -> none
func.func @with_arguments(%a: i32) -> i32 {
  %b = "simple.twice"(%a) : (i32) -> i32
  tfrt.return %b : i32
}
