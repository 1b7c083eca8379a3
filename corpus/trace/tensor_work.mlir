// Tensor kernels whose shapes define their work: a 2 x 3 by 3 x 2 f32
// product (2*2*2*3 = 24 operations; A, B and C, 16 elements, 64 bytes),
// an element-wise add of three 2 x 3 f32 tensors (3*6*4 = 72 bytes) and
// an in-place relu (6 elements read and written, 48 bytes).
func.func @tensor_work() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 3 : i64]
  %ch1 = tfrt_dht.fill_tensor_with_constant.f32 %a, %ch0 1.0 : f32
  %b = tfrt_dht.create_uninitialized_tensor.f32.2 [3 : i64, 2 : i64]
  %ch2 = tfrt_dht.fill_tensor_with_constant.f32 %b, %ch1 2.0 : f32
  %c = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 2 : i64]
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %ch3 = "tfrt_test.matmul.f32.2"(%one, %a, %b, %zero, %c, %ch2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %d = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 3 : i64]
  %ch4 = "tfrt_test.add.f32"(%a, %a, %d, %ch3) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %ch5 = "tfrt_test.relu_inplace.f32"(%d, %ch4) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch5 : !tfrt.chain
}
