// In the generic form, func.func's inherent attributes print as MLIR
// prints properties, `<{...}>` before the body in name order, and its
// discardable ones in the dictionary after it; the parser reads that form
// back into the same op, which prints in the custom form again.
// RUN: bef opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: bef opt --allow-unregistered-dialect --mlir-print-op-generic %s | bef opt --allow-unregistered-dialect - | FileCheck %s --check-prefix=CUSTOM
// RUN: bef opt --allow-unregistered-dialect --mlir-print-op-generic %s | bef opt --allow-unregistered-dialect --mlir-print-op-generic - | FileCheck %s --check-prefix=GENERIC

// GENERIC-LABEL: "builtin.module"() ({
// GENERIC-NEXT: "func.func"() <{function_type = (i32) -> i32, sym_name = "ext", sym_visibility = "private"}> ({
// GENERIC-NEXT: }) : () -> ()
// CUSTOM: func.func private @ext(i32) -> i32
func.func private @ext(i32) -> i32

// GENERIC-NEXT: "func.func"() <{arg_attrs = [{tfrt.x = 1 : i32}], function_type = (i32) -> i32, sym_name = "tagged"}> ({
// GENERIC-NEXT: ^bb0(%arg0: i32):
// GENERIC-NEXT: "tfrt.return"(%arg0) : (i32) -> ()
// GENERIC-NEXT: }) {tfrt.cost_threshold = 3 : i64} : () -> ()
// CUSTOM: func.func @tagged(%arg0: i32 {tfrt.x = 1 : i32}) -> i32 attributes {tfrt.cost_threshold = 3 : i64} {
func.func @tagged(%a: i32 {tfrt.x = 1 : i32}) -> i32 attributes {tfrt.cost_threshold = 3 : i64} {
  tfrt.return %a : i32
}

// GENERIC: "func.func"() <{function_type = () -> i32, sym_name = "answer"}> ({
// GENERIC-NEXT: %0 = "simple.op"() {value = 42 : i32} : () -> i32
// CUSTOM: func.func @answer() -> i32 {
func.func @answer() -> i32 {
  %x = "simple.op"() {value = 42 : i32} : () -> i32
  tfrt.return %x : i32
}
