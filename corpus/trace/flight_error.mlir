// A flight recorder's test: 400 iterations of a 3 ms sleep (over a
// second), then a division by zero, the run's one error. Recorded with
// `--keep last --window 100ms --stop-on error`, only the last tenth of a
// second before the error is kept.
func.func @flight_error() -> i32 {
  %count = tfrt.constant.i32 400
  %v0 = tfrt.constant.i32 0
  %r = tfrt.repeat.i32 %count, %v0 : i32 {
    %pause = tfrt.constant.i32 3000
    "tfrt_test.usleep"(%pause) : (i32) -> ()
    %one = tfrt.constant.i32 1
    %v1 = tfrt.add.i32 %v0, %one
    tfrt.return %v1 : i32
  }
  %zero = tfrt.constant.i32 0
  %q, %rem = tfrt.div.i32 %r, %zero
  tfrt.return %q : i32
}
