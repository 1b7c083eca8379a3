// Async test kernels: tfrt_test.async_add.i32, copy.with_delay and do.async with a generic-form region.
func.func @async_add() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i32 42
  %c1 = tfrt.constant.i32 1
  %y = "tfrt_test.async_add.i32"(%x, %c1) : (i32, i32) -> i32
  %z = "tfrt_test.async_add.i32"(%y, %c1) : (i32, i32) -> i32
  %d = "tfrt_test.copy.with_delay.i32"(%z) : (i32) -> i32
  %ch1 = tfrt.print.i32 %d, %ch0
  tfrt.return %ch1 : !tfrt.chain
}

func.func @do_async() -> i32 {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 1
  %c = "tfrt_test.do.async"(%a, %b) ({
  ^bb0(%x: i32, %y: i32):
    %sum = tfrt.add.i32 %x, %y
    tfrt.return %sum : i32
  }) : (i32, i32) -> i32
  tfrt.return %c : i32
}
