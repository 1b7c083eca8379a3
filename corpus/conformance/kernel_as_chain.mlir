// tfrt_test.as_chain turns a value of any type into a chain, available when
// the value is, and an error when the value is one.
// RUN: bef run --verify-diagnostics %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'chain_of_async_sum':
func.func @chain_of_async_sum() -> (!tfrt.chain, i32) {
  %one = tfrt.constant.i32 20
  %sum = "tfrt_test.async_add.i32"(%one, %one) : (i32, i32) -> i32
  %ch = "tfrt_test.as_chain"(%sum) : (i32) -> !tfrt.chain
  tfrt.return %ch, %sum : !tfrt.chain, i32
}
// CHECK-NEXT: 'chain_of_async_sum' returned !tfrt.chain value,40

// CHECK-LABEL: --- Running 'chain_of_string':
func.func @chain_of_string() -> !tfrt.chain {
  %s = "tfrt_test.get_string"() { value = "text" } : () -> !tfrt.string
  %ch = "tfrt_test.as_chain"(%s) : (!tfrt.string) -> !tfrt.chain
  tfrt.return %ch : !tfrt.chain
}
// CHECK-NEXT: 'chain_of_string' returned !tfrt.chain value

// CHECK-LABEL: --- Running 'chain_of_error':
func.func @chain_of_error() -> !tfrt.chain {
  %x = "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  %ch = "tfrt_test.as_chain"(%x) : (i32) -> !tfrt.chain
  tfrt.return %ch : !tfrt.chain
}
// CHECK-NEXT: 'chain_of_error' returned <<error: something bad happened>>
