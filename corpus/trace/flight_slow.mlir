// A flight recorder's test: 400 iterations of a 3 ms sleep (over a
// second), then one sleep of 150 ms on the blocking pool, which waits for
// the loop's count. Recorded with `--stop-on 'slow:usleep>100ms'`, the
// run stops when the long sleep's chain completes; without, it completes.
func.func @flight_slow() -> (i32, !tfrt.chain) {
  %count = tfrt.constant.i32 400
  %v0 = tfrt.constant.i32 0
  %r = tfrt.repeat.i32 %count, %v0 : i32 {
    %pause = tfrt.constant.i32 3000
    "tfrt_test.usleep"(%pause) : (i32) -> ()
    %one = tfrt.constant.i32 1
    %v1 = tfrt.add.i32 %v0, %one
    tfrt.return %v1 : i32
  }
  %base = tfrt.constant.i32 149600
  %long = tfrt.add.i32 %r, %base
  %done = "tfrt_test.blocking.usleep"(%long) : (i32) -> !tfrt.chain
  tfrt.return %r, %done : i32, !tfrt.chain
}
