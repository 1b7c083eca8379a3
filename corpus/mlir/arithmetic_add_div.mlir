// tfrt.add.i32 and the two-result tfrt.div.i32 in custom form, chained through prints.
func.func @add_and_divide() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i32 17
  %y = tfrt.constant.i32 5
  %sum = tfrt.add.i32 %x, %y
  %quotient, %remainder = tfrt.div.i32 %sum, %y
  %ch1 = tfrt.print.i32 %sum, %ch0
  %ch2 = tfrt.print.i32 %quotient, %ch1
  %ch3 = tfrt.print.i32 %remainder, %ch2
  tfrt.return %ch3 : !tfrt.chain
}

func.func @divide_by_argument(%n: i32, %d: i32) -> i32 {
  %q, %r = tfrt.div.i32 %n, %d
  %back = tfrt.add.i32 %q, %r
  tfrt.return %back : i32
}
