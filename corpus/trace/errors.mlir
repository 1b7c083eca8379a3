// An error value: tfrt_test.fail produces it, the two adds downstream
// are skipped, the independent add runs.
func.func @errors() -> (i32, i32) {
  %bad = "tfrt_test.fail"() : () -> i32
  %good = tfrt.constant.i32 10
  %x = tfrt.add.i32 %bad, %good
  %y = tfrt.add.i32 %x, %good
  %z = tfrt.add.i32 %good, %good
  tfrt.return %y, %z : i32, i32
}
