// tfrt.if without results and without an else region (the else region is implied).
func.func @maybe_print(%cond: i1, %ch0: !tfrt.chain, %x: i32) {
  tfrt.if %cond, %ch0, %x : (!tfrt.chain, i32) -> () {
    %ch1 = tfrt.print.i32 %x, %ch0
    tfrt.return
  }
  tfrt.return
}

func.func @maybe_hello() {
  %false = tfrt.constant.i1 false
  %ch0 = tfrt.new.chain
  tfrt.if %false, %ch0 : (!tfrt.chain) -> () {
    %ch1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
    tfrt.return
  }
  tfrt.return
}
