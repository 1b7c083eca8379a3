// Four equal matrix products of the same two 96 x 96 integer matrices,
// independent of each other: a fan-out whose replay on N workers runs
// min(N, 4) at once. (Integer products below a million multiply-adds run
// on one thread, in the kernel itself.)
func.func @fan_out() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i32.2 [96 : i64, 96 : i64]
  %cha = tfrt_dht.fill_tensor_with_constant.i32 %a, %ch0 3 : i32
  %b = tfrt_dht.create_uninitialized_tensor.i32.2 [96 : i64, 96 : i64]
  %chb = tfrt_dht.fill_tensor_with_constant.i32 %b, %cha 5 : i32
  %one = tfrt.constant.i32 1
  %zero = tfrt.constant.i32 0
  %c0 = tfrt_dht.create_uninitialized_tensor.i32.2 [96 : i64, 96 : i64]
  %done0 = "tfrt_test.matmul.i32.2"(%one, %a, %b, %zero, %c0, %chb)
    : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c1 = tfrt_dht.create_uninitialized_tensor.i32.2 [96 : i64, 96 : i64]
  %done1 = "tfrt_test.matmul.i32.2"(%one, %a, %b, %zero, %c1, %chb)
    : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c2 = tfrt_dht.create_uninitialized_tensor.i32.2 [96 : i64, 96 : i64]
  %done2 = "tfrt_test.matmul.i32.2"(%one, %a, %b, %zero, %c2, %chb)
    : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %c3 = tfrt_dht.create_uninitialized_tensor.i32.2 [96 : i64, 96 : i64]
  %done3 = "tfrt_test.matmul.i32.2"(%one, %a, %b, %zero, %c3, %chb)
    : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %done = tfrt.merge.chains %done0, %done1, %done2, %done3 : !tfrt.chain, !tfrt.chain, !tfrt.chain, !tfrt.chain
  tfrt.return %done : !tfrt.chain
}
