// A CPU-bound loop: 20,000 iterations of one add, each iteration's
// argument the previous one's result. Almost all of its time is the
// executor's: beginning and ending each iteration, dispatching its kernel.
func.func @cpu_loop() -> i32 {
  %count = tfrt.constant.i32 20000
  %v0 = tfrt.constant.i32 1
  %r = tfrt.repeat.i32 %count, %v0 : i32 {
    %w = tfrt.add.i32 %v0, %v0
    tfrt.return %w : i32
  }
  tfrt.return %r : i32
}
