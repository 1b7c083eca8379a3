// tfrt_dht tensor kernels: create_uninitialized_tensor, fill_tensor_with_constant, set_tensor_with_constant_values, print_tensor.
func.func @basic_f32_tensor() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 2 : i64]
  %c1 = tfrt_dht.set_tensor_with_constant_values.f32 %a, %c0 [1.0 : f32, 2.0 : f32, 3.0 : f32, 4.0 : f32]
  %c2 = tfrt_dht.print_tensor %a, %c1
  tfrt.return %c2 : !tfrt.chain
}

func.func @basic_i32_tensor() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  %a = "tfrt_dht.create_uninitialized_tensor.i32.2"() {shape = [3 : i64, 2 : i64]} : () -> !t.tensor
  %c1 = tfrt_dht.fill_tensor_with_constant.i32 %a, %c0 0 : i32
  %c2 = tfrt_dht.print_tensor %a, %c1
  %c3 = tfrt_dht.fill_tensor_with_constant.i32 %a, %c2 1 : i32
  tfrt_dht.print_tensor %a, %c3
  tfrt.return %c3 : !tfrt.chain
}

func.func @tensor_from_dense_attr() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  %a = "tfrt_test.const_dense_attr"() {value = dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>} : () -> !t.tensor
  %c1 = tfrt_dht.print_tensor %a, %c0
  %b = "tfrt_dht.get_tensor_shape"(%a) : (!t.tensor) -> !ts.shape
  %c2 = "ts.print_shape"(%b, %c1) : (!ts.shape, !tfrt.chain) -> !tfrt.chain
  tfrt.return %c2 : !tfrt.chain
}
