// Stream analysis inputs: _tfrt_cost attributes on ops and tfrt.cost_threshold / tfrt.upper_cost_threshold on functions.
func.func @stream(%a: i32, %b: i32) -> i32 attributes {tfrt.cost_threshold = 5} {
  %a0 = tfrt.constant.i32 1
  %a1 = "tfrt.add.i32"(%a, %a0) : (i32, i32) -> i32
  %a2 = "tfrt.add.i32"(%a, %a1) : (i32, i32) -> i32
  %b0 = tfrt.constant.i32 2
  %b1 = "tfrt.add.i32"(%b, %b0) : (i32, i32) -> i32
  %b2 = "tfrt.add.i32"(%b, %b1) : (i32, i32) -> i32
  %result = "tfrt.add.i32"(%a2, %b2) : (i32, i32) -> i32
  tfrt.return %result : i32
}

func.func @merge(%ch0: !tfrt.chain) -> !tfrt.chain attributes {tfrt.cost_threshold = 10 : i64} {
  %ch1 = "tfrt_test.test_cost"(%ch0) {id = 0 : i64, _tfrt_cost = 4 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.test_cost"(%ch0) {id = 1 : i64, _tfrt_cost = 4 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt_test.test_cost"(%ch0) {id = 2 : i64, _tfrt_cost = 11 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch4 = "tfrt_test.test_cost"(%ch0) {id = 3 : i64, _tfrt_cost = 4 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch5 = "tfrt_test.test_cost"(%ch0) {id = 4 : i64, _tfrt_cost = 4 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch6 = tfrt.merge.chains %ch1, %ch2, %ch3, %ch4, %ch5 : !tfrt.chain, !tfrt.chain, !tfrt.chain, !tfrt.chain, !tfrt.chain
  tfrt.return %ch6 : !tfrt.chain
}

func.func @merge_limit(%ch0: !tfrt.chain) -> !tfrt.chain attributes {tfrt.cost_threshold = 10 : i64, tfrt.upper_cost_threshold = 17 : i64} {
  %ch1 = "tfrt_test.test_cost"(%ch0) {id = 0 : i64, _tfrt_cost = 8 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.test_cost"(%ch1) {id = 1 : i64, _tfrt_cost = 8 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt_test.test_cost"(%ch2) {id = 2 : i64, _tfrt_cost = 8 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch4 = "tfrt_test.test_cost"(%ch3) {id = 3 : i64, _tfrt_cost = 8 : i64} : (!tfrt.chain) -> !tfrt.chain
  tfrt.return %ch4 : !tfrt.chain
}

func.func @default_threshold_fan_out() -> (i32, i32) {
  %x = tfrt.constant.i32 3
  %y = tfrt.add.i32 %x, %x
  %z = tfrt.add.i32 %x, %y
  %w = "tfrt_test.expensive.i32"(%x) {_tfrt_cost = 100 : i64} : (i32) -> i32
  tfrt.return %z, %w : i32, i32
}
