module attributes {tfrt.cost_threshold = 0 : i64} {
func.func @f(%x: i32) -> i32 attributes {tfrt.merge_inter_depenreams = true} {
  %a = tfrt_test.test_cost %x {id = 0 : i64, _tfrt_cost = 3 : i64} : i32
  %b = tfrt_test.test_cost %x {id = 1 : i64, _tfrt_cost = 5 : i64} : i32
  %c = tfrt_test.test_cost %c, %b {id = 2 : i64, _tfrt_cost = 2 : i64} : i32, i32
  %d = tfrt.merge.chains %a, %c : i32, i32
  tfrt.return %c : i32
}
}
