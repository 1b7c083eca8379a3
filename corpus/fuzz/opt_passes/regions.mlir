func.func private @loop(%n: i32, %v: i32) -> i32 {
  %r = tfrt.repeat.i32 %n, %v : i32 {
    %w = tfrt.add.i32 %v, %v
    %dead = tfrt.constant.f64 2.5
    tfrt.return %w : i32
  }
  tfrt.return %r : i32
}
func.func @main(%n: i32) -> i32 {
  %r = tfrt.call @loop(%n, %n) : (i32, i32) -> i32
  %s = tfrt_test.do.async %r : (i32) -> (i32) {
    tfrt.return %r : i32
  }
  tfrt.return %s : i32
}
