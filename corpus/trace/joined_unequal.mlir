// Four branches of 2, 8, 4 and 1 chained 96x96 matrix products, joined
// by tfrt.merge.chains: the path runs through the branch whose chain
// arrived last at the join.
func.func @joined_unequal() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %a0 = tfrt_dht.create_uninitialized_tensor.f32.2 [96 : i64, 96 : i64]
  %c0 = tfrt_dht.create_uninitialized_tensor.f32.2 [96 : i64, 96 : i64]
  %f0 = tfrt_dht.fill_tensor_with_constant.f32 %a0, %ch0 0.001 : f32
  %g0 = tfrt_dht.fill_tensor_with_constant.f32 %c0, %f0 0.0 : f32
  %m0_0 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %g0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_1 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %a1 = tfrt_dht.create_uninitialized_tensor.f32.2 [96 : i64, 96 : i64]
  %c1 = tfrt_dht.create_uninitialized_tensor.f32.2 [96 : i64, 96 : i64]
  %f1 = tfrt_dht.fill_tensor_with_constant.f32 %a1, %ch0 0.001 : f32
  %g1 = tfrt_dht.fill_tensor_with_constant.f32 %c1, %f1 0.0 : f32
  %m1_0 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %g1)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_1 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_2 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_1)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_3 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_4 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_3)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_5 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_4)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_6 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_5)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_7 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_6)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %a2 = tfrt_dht.create_uninitialized_tensor.f32.2 [96 : i64, 96 : i64]
  %c2 = tfrt_dht.create_uninitialized_tensor.f32.2 [96 : i64, 96 : i64]
  %f2 = tfrt_dht.fill_tensor_with_constant.f32 %a2, %ch0 0.001 : f32
  %g2 = tfrt_dht.fill_tensor_with_constant.f32 %c2, %f2 0.0 : f32
  %m2_0 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %g2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_1 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_2 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_1)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_3 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %a3 = tfrt_dht.create_uninitialized_tensor.f32.2 [96 : i64, 96 : i64]
  %c3 = tfrt_dht.create_uninitialized_tensor.f32.2 [96 : i64, 96 : i64]
  %f3 = tfrt_dht.fill_tensor_with_constant.f32 %a3, %ch0 0.001 : f32
  %g3 = tfrt_dht.fill_tensor_with_constant.f32 %c3, %f3 0.0 : f32
  %m3_0 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %g3)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %done = tfrt.merge.chains %m0_1, %m1_7, %m2_3, %m3_0 : !tfrt.chain, !tfrt.chain, !tfrt.chain, !tfrt.chain
  tfrt.return %done : !tfrt.chain
}
