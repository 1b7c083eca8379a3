// A module-level tfrt.cost_threshold inherited by every function, with costs inside a region body.
module attributes {tfrt.cost_threshold = 3 : i64} {
  func.func @cheap_ops_merge(%ch0: !tfrt.chain) -> !tfrt.chain {
    %ch1 = "tfrt_test.test_cost"(%ch0) {id = 0 : i64, _tfrt_cost = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
    %ch2 = "tfrt_test.test_cost"(%ch0) {id = 1 : i64, _tfrt_cost = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
    %ch3 = "tfrt_test.test_cost"(%ch0) {id = 2 : i64, _tfrt_cost = 5 : i64} : (!tfrt.chain) -> !tfrt.chain
    %ch4 = tfrt.merge.chains %ch1, %ch2, %ch3 : !tfrt.chain, !tfrt.chain, !tfrt.chain
    tfrt.return %ch4 : !tfrt.chain
  }

  func.func @loop_with_costs() -> i32 {
    %count = tfrt.constant.i32 3
    %v0 = tfrt.constant.i32 0
    %r = tfrt.repeat.i32 %count, %v0 : i32 {
      %one = "tfrt_test.slow_one"() {_tfrt_cost = 7 : i64} : () -> i32
      %two = "tfrt_test.slow_two"() {_tfrt_cost = 9 : i64} : () -> i32
      %s = tfrt.add.i32 %v0, %one
      %t = tfrt.add.i32 %s, %two
      tfrt.return %t : i32
    }
    tfrt.return %r : i32
  }
}
