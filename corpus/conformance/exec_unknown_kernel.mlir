// An unknown kernel fails loading at its first use, before anything runs.
// RUN: bef run --verify-diagnostics %s | FileCheck %s --check-prefix=VERIFIED
// RUN: not bef run %s 2>&1 | FileCheck %s --check-prefix=PLAIN

// VERIFIED: Choosing single-threaded work queue.
// VERIFIED-NOT: --- Running
// VERIFIED-NOT: error
// PLAIN-NOT: --- Running
// PLAIN: exec_unknown_kernel.mlir:[[@LINE+6]]:8: error: runtime error: unknown kernel name 'tfrt_test.no_such_kernel'
// PLAIN-NEXT: "tfrt_test.no_such_kernel"
// PLAIN-NEXT: ^
func.func @uses_unknown() -> i32 {
  %ch0 = tfrt.new.chain
  // expected-error @+1 {{unknown kernel name 'tfrt_test.no_such_kernel'}}
  %x = "tfrt_test.no_such_kernel"(%ch0) : (!tfrt.chain) -> i32
  %y = "tfrt_test.no_such_kernel"(%ch0) : (!tfrt.chain) -> i32
  tfrt.return %x : i32
}
