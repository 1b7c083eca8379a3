// Grouped result names `%r:2` used as `%r#0`/`%r#1`, mixed with plain names in one binding list.
func.func @grouped_repeat() -> i32 {
  %count = tfrt.constant.i32 4
  %ch0 = tfrt.new.chain
  %v0 = tfrt.constant.i32 1

  %ch3:2 = tfrt.repeat.i32 %count, %ch0, %v0 : !tfrt.chain, i32 {
    %ch2 = tfrt.print.i32 %v0, %ch0
    %v2 = tfrt.add.i32 %v0, %v0
    tfrt.return %ch2, %v2 : !tfrt.chain, i32
  }

  %ch4 = "tfrt_test.print_hello"(%ch3#0) : (!tfrt.chain) -> !tfrt.chain
  %ch5 = tfrt.print.i32 %ch3#1, %ch4
  tfrt.return %ch3#1 : i32
}

func.func @grouped_generic() -> (i32, i32, i32) {
  %pair:2 = "tfrt_test.make_pair"() : () -> (i32, i32)
  %first, %rest:2 = "tfrt_test.make_triple"() : () -> (i32, i32, i32)
  %s = tfrt.add.i32 %pair#0, %pair#1
  %t = tfrt.add.i32 %rest#0, %rest#1
  tfrt.return %s, %t, %first : i32, i32, i32
}
