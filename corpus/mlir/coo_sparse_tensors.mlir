// Sparse (coo) and dense tensor kernels mixed in generic form with dense attributes.
func.func @coo_tensor() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %indices = "tfrt_test.const_dense_attr"() {value = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>} : () -> !t.tensor
  %values = "tfrt_test.const_dense_attr"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> !t.tensor
  %shape = ts.build_shape [2 : i64, 2 : i64]
  %coo, %ch1 = "coo.create_tensor.f32"(%indices, %values, %shape, %ch0) : (!t.tensor, !t.tensor, !ts.shape, !tfrt.chain) -> (!t.tensor, !tfrt.chain)
  %dense, %ch2 = "coo.convert_coo_to_dht.f32.2"(%coo, %ch1) : (!t.tensor, !tfrt.chain) -> (!t.tensor, !tfrt.chain)
  %ch3 = tfrt_dht.print_tensor %dense, %ch2
  tfrt.return %ch3 : !tfrt.chain
}
