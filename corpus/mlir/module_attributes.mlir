// A `module attributes {...} {...}` wrapper carrying tfrt.cost_threshold for the stream analysis.
module attributes {tfrt.cost_threshold = 10 : i64} {

func.func @independent_constants() -> (i32, i32, i32) {
  %0 = "tfrt_test.test_cost_i32"() {id = 0 : i64, _tfrt_cost = 10 : i64} : () -> i32
  %1 = "tfrt_test.test_cost_i32"() {id = 1 : i64, _tfrt_cost = 10 : i64} : () -> i32
  %2 = "tfrt_test.test_cost_i32"() {id = 2 : i64, _tfrt_cost = 10 : i64} : () -> i32
  tfrt.return %0, %1, %2 : i32, i32, i32
}

func.func @chain_of_adds(%a: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %b = tfrt.add.i32 %a, %one
  %c = tfrt.add.i32 %b, %one
  tfrt.return %c : i32
}

}
