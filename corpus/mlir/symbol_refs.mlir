// Symbol reference attributes to defined functions in generic ops, next to ordinary attributes.
func.func @target(%x: i32) -> i32 {
  tfrt.return %x : i32
}

func.func @other_target(%x: i32) -> i32 {
  %y = tfrt.add.i32 %x, %x
  tfrt.return %y : i32
}

func.func @uses_symbols() -> i32 {
  %a = tfrt.constant.i32 5
  %b = "tfrt.call"(%a) {callee = @target} : (i32) -> i32
  %c = "tfrt_test.apply"(%b) {callee = @other_target, times = 2 : i32} : (i32) -> i32
  %cond = tfrt.constant.i1 true
  %d = "tfrt.cond"(%cond, %c) {a_true_fn = @target, b_false_fn = @other_target} : (i1, i32) -> i32
  tfrt.return %d : i32
}
