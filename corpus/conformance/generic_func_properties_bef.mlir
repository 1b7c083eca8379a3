// A BEF file without its optional sections translates back to MLIR with
// a warning, attribute names and types lost, and func.func's inherent
// attributes printed as properties in the generic form.
// RUN: bef translate --mlir-to-bef --disable-optional-sections=true %s | bef translate --bef-to-mlir --mlir-print-op-generic 2>&1 | FileCheck %s
// With the sections, names and types come back.
// RUN: bef translate --mlir-to-bef %s | bef translate --bef-to-mlir --mlir-print-op-generic 2>&1 | FileCheck %s --check-prefix=FULL

// CHECK: warning: Missing AttributeTypes, AttributeNames or RegisterTypes sections.
// CHECK: "func.func"() <{function_type = (i32) -> i32, sym_name = "twice"}> ({
// CHECK-NEXT: ^bb0(%arg0: i32):
// CHECK-NEXT: [[SUM:%[0-9]+]] = "tfrt.add.i32"(%arg0, %arg0) : (i32, i32) -> none
// CHECK-NEXT: "tfrt.return"([[SUM]]) : (none) -> ()
// CHECK-NEXT: }) : () -> ()
// FULL-NOT: warning
// FULL: "func.func"() <{function_type = (i32) -> i32, sym_name = "twice"}> ({
func.func @twice(%a: i32) -> i32 {
  %x = tfrt.add.i32 %a, %a
  tfrt.return %x : i32
}

// CHECK: "func.func"() <{function_type = () -> i32, sym_name = "answer"}> ({
// CHECK-NEXT: [[X:%[0-9]+]] = "simple.op"() {attr0 = {{.*}}} : () -> none
// CHECK-NEXT: "tfrt.return"([[X]]) : (none) -> ()
// FULL: "func.func"() <{function_type = () -> i32, sym_name = "answer"}> ({
// FULL-NEXT: %0 = "simple.op"() {value = 42 : i32} : () -> i32
func.func @answer() -> i32 {
  %x = "simple.op"() {value = 42 : i32} : () -> i32
  tfrt.return %x : i32
}
