// tfrt.new.chain and tfrt.merge.chains with two and with five operands of mixed types.
func.func @merge_two() -> !tfrt.chain {
  %v = tfrt.constant.i32 0
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.merge.chains %v, %ch0 : i32, !tfrt.chain
  tfrt.return %ch1 : !tfrt.chain
}

func.func @merge_fan_in(%ch0: !tfrt.chain) -> !tfrt.chain {
  %one = tfrt.constant.i32 1
  %two = tfrt.constant.i32 2
  %ch1 = tfrt.print.i32 %one, %ch0
  %ch2 = tfrt.print.i32 %two, %ch0
  %ch3 = tfrt.new.chain
  %ch4 = tfrt.merge.chains %ch1, %ch2, %ch3, %one, %two : !tfrt.chain, !tfrt.chain, !tfrt.chain, i32, i32
  tfrt.return %ch4 : !tfrt.chain
}
