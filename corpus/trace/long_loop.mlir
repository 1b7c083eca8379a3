// A loop long enough to wrap a `--keep last` ring: 50,000 iterations of
// one add each. On the `s` queue its events are the same in every run.
func.func @loop() -> i32 {
  %count = tfrt.constant.i32 50000
  %v0 = tfrt.constant.i32 1
  %r = tfrt.repeat.i32 %count, %v0 : i32 {
    %w = tfrt.add.i32 %v0, %v0
    tfrt.return %w : i32
  }
  tfrt.return %r : i32
}
