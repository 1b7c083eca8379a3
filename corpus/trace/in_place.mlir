// Tensors written in place after they are published, for the versions of
// values a recording made with --values keeps: a tensor created, filled
// with a constant, then set element by element; and a matrix product large
// enough (130 x 128 x 96 multiply-adds) to be split across the workers of
// mstd:2, whose queued tasks write its output after the kernel returned.

func.func @fill_after_create() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %t = tfrt_dht.create_uninitialized_tensor.i32.1 [3 : i64]
  %ch1 = tfrt_dht.fill_tensor_with_constant.i32 %t, %ch0 7 : i32
  %ch2 = tfrt_dht.set_tensor_with_constant_values.i32 %t, %ch1 [1 : i32, 2 : i32, 3 : i32]
  %ch3 = tfrt_dht.print_tensor %t, %ch2
  tfrt.return %ch3 : !tfrt.chain
}

func.func @split_product() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %a = tfrt_dht.create_uninitialized_tensor.f32.2 [130 : i64, 128 : i64]
  %ch1 = tfrt_dht.fill_tensor_with_constant.f32 %a, %ch0 0.5 : f32
  %b = tfrt_dht.create_uninitialized_tensor.f32.2 [128 : i64, 96 : i64]
  %ch2 = tfrt_dht.fill_tensor_with_constant.f32 %b, %ch1 3.0 : f32
  %c = tfrt_dht.create_uninitialized_tensor.f32.2 [130 : i64, 96 : i64]
  %ch3 = "tfrt_test.matmul.f32.2"(%one, %a, %b, %zero, %c, %ch2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %ch4 = tfrt_dht.print_tensor %c, %ch3
  tfrt.return %ch4 : !tfrt.chain
}
