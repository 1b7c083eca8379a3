// befview's `{` `}` test program: a loop of four iterations whose body
// adds one to the counter it carries, so each iteration publishes the
// next value (1, 2, 3, 4); recorded on the `s` work queue.
func.func @main() -> i32 {
  %count = tfrt.constant.i32 4
  %v0 = tfrt.constant.i32 0
  %sum = tfrt.repeat.i32 %count, %v0 : i32 {
    %one = tfrt.constant.i32 1
    %v2 = tfrt.add.i32 %v0, %one
    tfrt.return %v2 : i32
  }
  tfrt.return %sum : i32
}
