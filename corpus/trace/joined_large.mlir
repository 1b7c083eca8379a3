// Four branches of 15 chained 160x160 matrix products, joined: each
// product is large enough to be split across the workers of mstd:N (its
// other blocks queued to the same workers), which a replay must model.
func.func @joined_large() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %a0 = tfrt_dht.create_uninitialized_tensor.f32.2 [160 : i64, 160 : i64]
  %c0 = tfrt_dht.create_uninitialized_tensor.f32.2 [160 : i64, 160 : i64]
  %f0 = tfrt_dht.fill_tensor_with_constant.f32 %a0, %ch0 0.001 : f32
  %g0 = tfrt_dht.fill_tensor_with_constant.f32 %c0, %f0 0.0 : f32
  %m0_0 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %g0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_1 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_2 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_1)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_3 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_4 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_3)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_5 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_4)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_6 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_5)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_7 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_6)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_8 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_7)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_9 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_8)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_10 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_9)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_11 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_10)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_12 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_11)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_13 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_12)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m0_14 = "tfrt_test.matmul.f32.2"(%one, %a0, %a0, %zero, %c0, %m0_13)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %a1 = tfrt_dht.create_uninitialized_tensor.f32.2 [160 : i64, 160 : i64]
  %c1 = tfrt_dht.create_uninitialized_tensor.f32.2 [160 : i64, 160 : i64]
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
  %m1_8 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_7)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_9 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_8)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_10 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_9)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_11 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_10)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_12 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_11)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_13 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_12)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m1_14 = "tfrt_test.matmul.f32.2"(%one, %a1, %a1, %zero, %c1, %m1_13)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %a2 = tfrt_dht.create_uninitialized_tensor.f32.2 [160 : i64, 160 : i64]
  %c2 = tfrt_dht.create_uninitialized_tensor.f32.2 [160 : i64, 160 : i64]
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
  %m2_4 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_3)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_5 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_4)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_6 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_5)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_7 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_6)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_8 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_7)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_9 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_8)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_10 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_9)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_11 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_10)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_12 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_11)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_13 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_12)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m2_14 = "tfrt_test.matmul.f32.2"(%one, %a2, %a2, %zero, %c2, %m2_13)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %a3 = tfrt_dht.create_uninitialized_tensor.f32.2 [160 : i64, 160 : i64]
  %c3 = tfrt_dht.create_uninitialized_tensor.f32.2 [160 : i64, 160 : i64]
  %f3 = tfrt_dht.fill_tensor_with_constant.f32 %a3, %ch0 0.001 : f32
  %g3 = tfrt_dht.fill_tensor_with_constant.f32 %c3, %f3 0.0 : f32
  %m3_0 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %g3)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_1 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_2 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_1)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_3 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_4 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_3)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_5 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_4)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_6 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_5)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_7 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_6)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_8 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_7)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_9 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_8)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_10 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_9)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_11 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_10)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_12 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_11)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_13 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_12)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %m3_14 = "tfrt_test.matmul.f32.2"(%one, %a3, %a3, %zero, %c3, %m3_13)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %done = tfrt.merge.chains %m0_14, %m1_14, %m2_14, %m3_14 : !tfrt.chain, !tfrt.chain, !tfrt.chain, !tfrt.chain
  tfrt.return %done : !tfrt.chain
}
