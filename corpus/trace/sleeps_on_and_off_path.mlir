// A 40 ms sleep on the blocking pool followed by a 10 ms one (the path),
// beside an independent 5 ms sleep (off the path), all joined. Making the
// off-path sleep faster changes nothing; halving the path's 40 ms sleep
// shortens the span by about 20 ms.
func.func @sleeps_on_and_off_path() -> !tfrt.chain {
  %long = tfrt.constant.i32 40000
  %then = tfrt.constant.i32 10000
  %aside = tfrt.constant.i32 5000
  %a = "tfrt_test.blocking.usleep"(%long) : (i32) -> !tfrt.chain
  %b = tfrt.merge.chains %a : !tfrt.chain
  %c = "tfrt_test.blocking.usleep"(%then, %b) : (i32, !tfrt.chain) -> !tfrt.chain
  %d = "tfrt_test.blocking.usleep"(%aside) : (i32) -> !tfrt.chain
  %done = tfrt.merge.chains %c, %d : !tfrt.chain, !tfrt.chain
  tfrt.return %done : !tfrt.chain
}
