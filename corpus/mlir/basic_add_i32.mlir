// Basic func.func with i32 constants, tfrt.add.i32 and a chained print.
func.func @basic_add() -> i32 {
  %ch0 = tfrt.new.chain

  %x = tfrt.constant.i32 40
  %y = tfrt.constant.i32 2
  %z = tfrt.add.i32 %x, %y

  %ch1 = tfrt.print.i32 %z, %ch0

  tfrt.return %z : i32
}

func.func @add_args(%a: i32, %b: i32) -> i32 {
  %sum = tfrt.add.i32 %a, %b
  %twice = tfrt.add.i32 %sum, %sum
  tfrt.return %twice : i32
}
