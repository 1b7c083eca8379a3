// Ops and types of dialects nobody registered, accepted in generic form.
func.func @unregistered(%arg: !my_dialect.handle) -> !my_dialect.handle {
  %x = "my_dialect.make_value"() {kind = "fast", level = 3 : i32} : () -> i32
  %y = "other.dialect.op"(%x, %x) : (i32, i32) -> i64
  %h = "my_dialect.consume"(%arg, %y) : (!my_dialect.handle, i64) -> !my_dialect.handle
  "someop"(%h) : (!my_dialect.handle) -> ()
  tfrt.return %h : !my_dialect.handle
}
