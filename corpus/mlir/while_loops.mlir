// tfrt.while with a body function and parallel_iterations(1) and (4).
func.func @tfrt_while_body(%ch: !tfrt.chain, %iteration: i32, %arg: i32) -> (!tfrt.chain, i32, i32, i1) {
  %one = tfrt.constant.i32 1
  %five = tfrt.constant.i32 5
  %next_iteration = tfrt.add.i32 %iteration, %one
  %next_arg = tfrt.add.i32 %arg, %five
  %next_cond = "tfrt.lessequal.i32"(%next_iteration, %five) : (i32, i32) -> (i1)
  tfrt.return %ch, %next_iteration, %next_arg, %next_cond : !tfrt.chain, i32, i32, i1
}

func.func @tfrt_inline_while_test() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %cond = tfrt.constant.i1 true
  %iteration = tfrt.constant.i32 0
  %arg = tfrt.constant.i32 0

  %ch1, %final_iteration, %final_arg = tfrt.while %cond @tfrt_while_body(%ch0, %iteration, %arg) parallel_iterations(1) : (!tfrt.chain, i32, i32) -> (!tfrt.chain, i32, i32)

  %ch2 = tfrt.print.i32 %final_arg, %ch1
  %ch3 = tfrt.print.i32 %final_iteration, %ch2
  tfrt.return %ch3 : !tfrt.chain
}

func.func @tfrt_parallel_while_test() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %cond = tfrt.constant.i1 true
  %iteration = tfrt.constant.i32 0
  %arg = tfrt.constant.i32 0

  %ch1, %final_iteration, %final_arg = tfrt.while %cond @tfrt_while_body(%ch0, %iteration, %arg) parallel_iterations(4) : (!tfrt.chain, i32, i32) -> (!tfrt.chain, i32, i32)

  %ch2 = tfrt.print.i32 %final_arg, %ch1
  tfrt.return %ch2 : !tfrt.chain
}
