// A call's result that only the caller's return reads, while the callee's
// value is still being computed on the work queue: the register is
// published at once, holding an indirect value not yet forwarded.
func.func @later() -> i32 {
  %a = tfrt.constant.i32 1
  %x = "tfrt_test.async_add.i32"(%a, %a) : (i32, i32) -> i32
  tfrt.return %x : i32
}

func.func @main() -> i32 {
  %r = tfrt.call @later() : () -> i32
  tfrt.return %r : i32
}
