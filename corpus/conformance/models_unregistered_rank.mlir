// The tensor kernels are registered for the ranks the reference
// registers: a matrix product of rank 3 is an unknown kernel, reported at
// load with its line.
// RUN: not bef run %s 2>&1 | FileCheck %s

// CHECK-NOT: --- Running
// CHECK: models_unregistered_rank.mlir:[[@LINE+5]]:{{[0-9]+}}: error: runtime error: unknown kernel name 'tfrt_test.matmul.f32.3'
func.func @rank_three() {
  %ch0 = tfrt.new.chain
  %one = tfrt.constant.f32 1.0
  %a = tfrt_dht.create_uninitialized_tensor.f32.3 [1 : i64, 2 : i64, 2 : i64]
  %ch1 = "tfrt_test.matmul.f32.3"(%one, %a, %a, %one, %a, %ch0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return
}
