// tfrt.repeat.i32 with a chain and a value carried through the loop, and with a single carried value.
func.func @controlflow_repeat2() -> !tfrt.chain {
  %count = tfrt.constant.i32 4
  %ch0 = tfrt.new.chain
  %v0 = tfrt.constant.i32 1

  %ch3, %v3 = tfrt.repeat.i32 %count, %ch0, %v0 : !tfrt.chain, i32 {
    %ch2 = tfrt.print.i32 %v0, %ch0
    %v2 = tfrt.add.i32 %v0, %v0
    tfrt.return %ch2, %v2 : !tfrt.chain, i32
  }

  %ch4 = tfrt.print.i32 %v3, %ch3
  tfrt.return %ch4 : !tfrt.chain
}

func.func @controlflow_repeat_large() -> i32 {
  %count = tfrt.constant.i32 1000
  %v0 = tfrt.constant.i32 42

  %sum = tfrt.repeat.i32 %count, %v0 : i32 {
    %one = tfrt.constant.i32 1
    %v2 = "tfrt_test.async_add.i32"(%v0, %one) : (i32, i32) -> i32
    tfrt.return %v2 : i32
  }

  tfrt.return %sum : i32
}
