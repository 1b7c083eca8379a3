// Dense elements attributes: nested int lists, splats, bools, complex, rank 0, i64, f64 and ui8 elements.
func.func @dense_attributes() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = "tfrt_test.const_dense_attr"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> !t.tensor
  %b = "tfrt_test.const_dense_attr"() {value = dense<1.0> : tensor<4xf32>} : () -> !t.tensor
  %c = "tfrt_test.const_dense_attr"() {value = dense<[true, false, true]> : tensor<3xi1>} : () -> !t.tensor
  %d = "tfrt_test.const_dense_attr"() {value = dense<(1.0, 2.0)> : tensor<1xcomplex<f32>>} : () -> !t.tensor
  %e = "tfrt_test.const_dense_attr"() {value = dense<[(1.5, -1.5), (0.0, 2.0)]> : tensor<2xcomplex<f64>>} : () -> !t.tensor
  %f = "tfrt_test.const_dense_attr"() {value = dense<3.0> : tensor<f64>} : () -> !t.tensor
  %g = "tfrt_test.const_dense_attr"() {value = dense<[[-1, 0, 1]]> : tensor<1x3xi64>} : () -> !t.tensor
  %h = "tfrt_test.const_dense_attr"() {value = dense<7> : tensor<2x3xi64>} : () -> !t.tensor
  %i = "tfrt_test.const_dense_attr"() {value = dense<[0, 128, 255]> : tensor<3xui8>} : () -> !t.tensor
  %ch1 = tfrt_dht.print_tensor %a, %ch0
  %ch2 = tfrt_dht.print_tensor %b, %ch1
  tfrt.return %ch2 : !tfrt.chain
}

func.func @dense_and_scalar_attributes() -> i32 {
  %x = "tfrt_test.dense_op"() {bias = dense<[0.5, 0.25]> : tensor<2xf32>, weights = dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>, units = 2 : i32} : () -> i32
  tfrt.return %x : i32
}
