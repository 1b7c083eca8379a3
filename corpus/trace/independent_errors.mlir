// Two functions that fail independently of each other: each failing
// kernel is where its own error began, and only the kernels its error
// reaches are poisoned.
func.func @first() -> i32 {
  %bad = "tfrt_test.fail"() : () -> i32
  %one = tfrt.constant.i32 1
  %x = tfrt.add.i32 %bad, %one
  %y = tfrt.add.i32 %one, %one
  tfrt.return %x : i32
}

func.func @second() -> i32 {
  %bad = "tfrt_test.fail"() : () -> i32
  %two = tfrt.constant.i32 2
  %x = tfrt.add.i32 %bad, %two
  %y = tfrt.add.i32 %two, %two
  tfrt.return %x : i32
}
