// `bef translate` writes no Signatures entry that its own `bef verify`
// would reject: metadata that contradicts the function's types is an
// error at the function.
// RUN: not bef translate %s -o %t.bef 2>&1 | FileCheck %s

// CHECK: translate_signature_contradicts_types.mlir:7:1: error: 'func.func' op signature metadata does not match its type: the reflection describes 1 arguments, the function has 2
func.func @two_args(%a: i32, %b: i32) -> i32
    attributes {iree.abi = "{\"a\":[\"i32\"],\"r\":[\"i32\"],\"v\":1}"} {
  tfrt.return %a : i32
}
