// A loop of two billion iterations: it runs until the recording is
// cancelled. The function after it must not start once it is.
func.func @endless() -> i32 {
  %count = tfrt.constant.i32 2000000000
  %zero = tfrt.constant.i32 0
  %r = tfrt.repeat.i32 %count, %zero : i32 {
    %one = tfrt.constant.i32 1
    %next = tfrt.add.i32 %zero, %one
    tfrt.return %next : i32
  }
  tfrt.return %r : i32
}

func.func @after() -> i32 {
  %one = tfrt.constant.i32 1
  tfrt.return %one : i32
}
