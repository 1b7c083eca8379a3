// Results completed on the blocking pool. In @read, a 20 ms sleep's chain
// is read by a kernel; in @returned, a sleep's chain is only returned, so
// nothing waits for it inside the function. Either way the chain becomes
// available on the pool's thread, after its kernel returned (and, in
// @read, before its reader starts).
func.func @read() -> !tfrt.chain {
  %us = tfrt.constant.i32 20000
  %slept = "tfrt_test.blocking.usleep"(%us) : (i32) -> !tfrt.chain
  %done = tfrt.merge.chains %slept, %slept : !tfrt.chain, !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @returned() -> !tfrt.chain {
  %us = tfrt.constant.i32 20000
  %slept = "tfrt_test.blocking.usleep"(%us) : (i32) -> !tfrt.chain
  tfrt.return %slept : !tfrt.chain
}
