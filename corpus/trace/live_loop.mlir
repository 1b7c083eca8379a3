// A loop paced by a sleep in each iteration: 60 iterations of 50 ms, three
// seconds in all, so that a client attached to `bef-trace record --live`
// sees the recording grow while the run goes on, then ends.
func.func @paced() -> i32 {
  %count = tfrt.constant.i32 60
  %zero = tfrt.constant.i32 0
  %r = tfrt.repeat.i32 %count, %zero : i32 {
    %pause = tfrt.constant.i32 50000
    "tfrt_test.usleep"(%pause) : (i32) -> ()
    %one = tfrt.constant.i32 1
    %next = tfrt.add.i32 %zero, %one
    tfrt.return %next : i32
  }
  tfrt.return %r : i32
}
