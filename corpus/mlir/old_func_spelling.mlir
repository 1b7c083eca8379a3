// The older `func @name` spelling, as in pre-2022 TFRT test suites.
func @old_style() -> i32 {
  %one = tfrt.constant.i32 1
  %two = tfrt.add.i32 %one, %one
  tfrt.return %two : i32
}

func @old_style_args(%x: i32, %ch0: !tfrt.chain) -> !tfrt.chain {
  %ch1 = tfrt.print.i32 %x, %ch0
  tfrt.return %ch1 : !tfrt.chain
}

func.func @new_style_calls_old() -> i32 {
  %r = tfrt.call @old_style() : () -> i32
  tfrt.return %r : i32
}
