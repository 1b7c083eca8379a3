// Nested modules marked `tfrt.compiled` are not BEF functions: a kernel
// attribute naming one of their symbols becomes a compilation unit holding
// the module's text, and reading the BEF file back puts each distinct
// module in front of the functions again. memref types, ranked, unranked,
// dynamic and with a memory space, go through the type table unchanged.
// RUN: bef translate --mlir-to-bef %s -o %t.bef
// RUN: bef translate --bef-to-mlir %t.bef | FileCheck %s
// RUN: bef translate --bef-to-mlir %t.bef | bef translate --mlir-to-bef - | bef translate --bef-to-mlir - | FileCheck %s
// RUN: bef dump %t.bef | FileCheck %s --check-prefix=DUMP

// CHECK: module @first attributes {tfrt.compiled} {
// CHECK-NEXT: func.func @entry(%arg0: memref<?x4xf32>, %arg1: memref<*xi8>) {
// CHECK: module @second attributes {tfrt.compiled} {
// CHECK-NEXT: func.func @entry(%arg0: memref<2x?xi32, 3>) {
// CHECK-LABEL: func.func @uses() {
// CHECK-NEXT: "compiled.launch"() {unit = @first::@entry} : () -> ()
// CHECK-NEXT: "compiled.launch"() {unit = @first::@entry} : () -> ()
// CHECK-NEXT: "compiled.launch"() {unit = @second::@entry} : () -> ()
// CHECK-LABEL: func.func @takes_memref(
// CHECK-SAME: %arg0: memref<8x?xf64>
// CHECK-NEXT: "memref.user"(%arg0) : (memref<8x?xf64>) -> ()
// DUMP: memref<8x?xf64>

module @first attributes {tfrt.compiled} {
  func.func @entry(%a: memref<?x4xf32>, %b: memref<*xi8>) {
    func.return
  }
}

module @second attributes {tfrt.compiled} {
  func.func @entry(%a: memref<2x?xi32, 3>) {
    func.return
  }
}

func.func @uses() {
  "compiled.launch"() { unit = @first::@entry } : () -> ()
  "compiled.launch"() { unit = @first::@entry } : () -> ()
  "compiled.launch"() { unit = @second::@entry } : () -> ()
  tfrt.return
}

func.func @takes_memref(%m: memref<8x?xf64>) {
  "memref.user"(%m) : (memref<8x?xf64>) -> ()
  tfrt.return
}
