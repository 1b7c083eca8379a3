func.func @t() {
  %c = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 2 : i64]
  %c1 = tfrt_dht.fill_tensor_with_constant.f32 %a, %c 1.0 : f32
  %c2 = tfrt_dht.set_tensor_with_constant_values.f32 %a, %c1 [1.0 : f32, 0.0 : f32, 0.0 : f32, 2.0 : f32]
  %s, %c3 = coo.convert_dht_to_coo.f32.2 %a, %c2
  %eq, %c4 = coo.tensor_equal.f32.2 %s, %s, %c3
  %str = "tfrt_sht.create_tensor"() {shape = [1], values = ["v"]} : () -> !tfrt_tensor.tensor
  %c5 = tfrt_dht.print_tensor %str, %c4
  tfrt.return
}
