// An error skips only the kernels downstream of it: independent kernels
// still run, and the error reaches exactly the results that depend on it.
// RUN: bef run --verify-diagnostics --work-queue s %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'only_downstream_skipped':
func.func @only_downstream_skipped() -> (i32, i32, i32, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %bad = "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  %good = tfrt.constant.i32 10
  %x = tfrt.add.i32 %bad, %good
  %y = tfrt.add.i32 %x, %good
  %z = tfrt.add.i32 %good, %good
  // CHECK-NOT: int32 =
  %ch1 = tfrt.print.i32 %y, %ch0
  // CHECK: int32 = 20
  %ch2 = tfrt.print.i32 %z, %ch0
  tfrt.return %x, %y, %z, %ch2 : i32, i32, i32, !tfrt.chain
}
// CHECK-NEXT: 'only_downstream_skipped' returned <<error: something bad happened>>,<<error: something bad happened>>,20,!tfrt.chain value

// CHECK-LABEL: --- Running 'error_through_chain':
func.func @error_through_chain() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %bad = "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  %ch1 = tfrt.print.i32 %bad, %ch0
  // The chain now carries the error, so this print is skipped too.
  %one = tfrt.constant.i32 1
  %ch2 = tfrt.print.i32 %one, %ch1
  tfrt.return %ch2 : !tfrt.chain
}
// CHECK-NOT: int32 = 1
// CHECK: 'error_through_chain' returned <<error: something bad happened>>

func.func @add(%x: i32, %y: i32) -> i32 {
  %z = tfrt.add.i32 %x, %y
  tfrt.return %z : i32
}

// CHECK-LABEL: --- Running 'error_into_call':
func.func @error_into_call() -> (i32, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %bad = "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  %one = "tfrt_test.async_constant.i32"() { value = 1 : i32 } : () -> i32
  %ch1 = tfrt.print.i32 %one, %ch0
  %out = tfrt.call @add(%bad, %one) : (i32, i32) -> i32
  tfrt.return %out, %ch1 : i32, !tfrt.chain
}
// CHECK-NEXT: int32 = 1
// CHECK-NEXT: 'error_into_call' returned <<error: something bad happened>>,!tfrt.chain value
