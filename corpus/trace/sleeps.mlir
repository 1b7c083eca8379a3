// Two branches whose cost is asynchronous: a 50 ms and a 1 ms sleep on
// the blocking pool, joined. The long sleep is on the critical path.
func.func @sleeps() -> !tfrt.chain {
  %long = tfrt.constant.i32 50000
  %short = tfrt.constant.i32 1000
  %a = "tfrt_test.blocking.usleep"(%long) : (i32) -> !tfrt.chain
  %b = "tfrt_test.blocking.usleep"(%short) : (i32) -> !tfrt.chain
  %done = tfrt.merge.chains %a, %b : !tfrt.chain, !tfrt.chain
  tfrt.return %done : !tfrt.chain
}
