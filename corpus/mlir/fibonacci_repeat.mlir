// A realistic loop: Fibonacci numbers computed by tfrt.repeat.i32 and printed on a chain.
func.func @fibonacci() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %n = tfrt.constant.i32 10
  %a0 = tfrt.constant.i32 0
  %b0 = tfrt.constant.i32 1

  %ch1, %a, %b = tfrt.repeat.i32 %n, %ch0, %a0, %b0 : !tfrt.chain, i32, i32 {
    %next = tfrt.add.i32 %a0, %b0
    %printed = tfrt.print.i32 %a0, %ch0
    tfrt.return %printed, %b0, %next : !tfrt.chain, i32, i32
  }

  %ch2 = tfrt.print.i32 %a, %ch1
  tfrt.return %ch2 : !tfrt.chain
}
