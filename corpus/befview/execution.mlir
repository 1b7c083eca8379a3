// befview's Execution tab test program: a call, a failing kernel and the
// kernels its error poisons; recorded on the `s` work queue.
func.func @main() -> i32 {
  %ch0 = tfrt.new.chain
  %a = tfrt.constant.i32 45
  %b = tfrt.constant.i32 129
  %sum = tfrt.call @add(%a, %b) : (i32, i32) -> i32
  %ch1 = tfrt.print.i32 %sum, %ch0
  %bad = "tfrt_test.fail"() : () -> i32
  %worse = tfrt.add.i32 %bad, %sum
  %ch2 = tfrt.print.i32 %worse, %ch1
  tfrt.return %worse : i32
}

func.func @add(%x: i32, %y: i32) -> i32 {
  %z = tfrt.add.i32 %x, %y
  tfrt.return %z : i32
}

func.func @fails() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32
  tfrt.return %x : i32
}
