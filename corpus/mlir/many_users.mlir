// One value with many users (used-by lists, newest use first) and duplicate operands.
func.func @many_users() -> i32 {
  %x = tfrt.constant.i32 2
  %a = tfrt.add.i32 %x, %x
  %b = tfrt.add.i32 %x, %a
  %c = tfrt.add.i32 %b, %x
  %d = tfrt.add.i32 %x, %c
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.print.i32 %x, %ch0
  %ch2 = tfrt.print.i32 %d, %ch1
  %e = tfrt.merge.chains %ch2, %x, %x : !tfrt.chain, i32, i32
  tfrt.return %d : i32
}

func.func @argument_users(%arg: i32) -> (i32, i32, i32) {
  %a = tfrt.add.i32 %arg, %arg
  %b = tfrt.add.i32 %a, %arg
  tfrt.return %a, %b, %arg : i32, i32, i32
}
