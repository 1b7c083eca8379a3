// `bef opt` parses, verifies and prints: custom forms by default, MLIR's
// generic form with --mlir-print-op-generic, locations with
// --mlir-print-debuginfo, into a file with -o; its output reads back.
// RUN: bef opt %s | FileCheck %s
// RUN: bef opt %s | tfrt_opt - | FileCheck %s
// RUN: tfrt_opt -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: bef opt --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC
// RUN: bef opt %s -o %t
// RUN: cat %t | FileCheck %s

// CHECK: module {
// CHECK-LABEL: func.func @scale(%arg0: i64, %arg1: !tfrt.chain) -> (i64, !tfrt.chain) {
// CHECK-NEXT: %0 = tfrt.constant.i64 3
// CHECK-NEXT: %1 = tfrt.add.i64 %arg0, %0
// CHECK-NEXT: %2 = tfrt.print.i64 %1, %arg1
// CHECK-NEXT: tfrt.return %1, %2 : i64, !tfrt.chain
// GENERIC: "builtin.module"() ({
// GENERIC-NEXT: "func.func"() <{function_type = (i64, !tfrt.chain) -> (i64, !tfrt.chain), sym_name = "scale"}> ({
// GENERIC: %{{[0-9]+}} = "tfrt.constant.i64"() {value = 3 : i64} : () -> i64
// GENERIC: "tfrt.return"(%{{[0-9]+}}, %{{[0-9]+}}) : (i64, !tfrt.chain) -> ()
// GENERIC-NEXT: }) : () -> ()
// LOC: %0 = tfrt.constant.i64 3 loc("{{.*}}opt_print_forms.mlir":25:12)
// LOC: } loc("{{.*}}opt_print_forms.mlir":24:1)
func.func @scale(%x: i64, %ch: !tfrt.chain) -> (i64, !tfrt.chain) {
  %three = tfrt.constant.i64 3
  %y = tfrt.add.i64 %x, %three
  %ch1 = tfrt.print.i64 %y, %ch
  tfrt.return %y, %ch1 : i64, !tfrt.chain
}

// Shapes and costs keep their custom forms; array elements print without
// their default i64 type.
// CHECK-LABEL: func.func @shapes
// CHECK: %0 = ts.build_shape [4, 2]
// CHECK-NEXT: %1 = tfrt.new.chain
// CHECK-NEXT: %2 = ts.print_shape %0, %1
// CHECK-NEXT: %3 = tfrt.constant.i32 1
// CHECK-NEXT: %4 = tfrt_test.test_cost %3 {_tfrt_cost = 7 : i64, id = 2 : i64} : i32
func.func @shapes() -> (!tfrt.chain, i32) {
  %s = ts.build_shape [4 : i64, 2 : i64]
  %ch = tfrt.new.chain
  %ch1 = ts.print_shape %s, %ch
  %one = tfrt.constant.i32 1
  %c = tfrt_test.test_cost %one {id = 2 : i64, _tfrt_cost = 7 : i64} : i32
  tfrt.return %ch1, %c : !tfrt.chain, i32
}
