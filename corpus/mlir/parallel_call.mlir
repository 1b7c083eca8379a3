// tfrt.parallel_call.i32 calling an async body function with extra operands.
func.func @async_fn(%start: i32, %end: i32, %cnt0: !test.atomic.i32, %cnt1: !test.atomic.i32) -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.atomic.add.i32"(%cnt0, %start, %ch0)
         : (!test.atomic.i32, i32, !tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.atomic.add.i32"(%cnt1, %end, %ch1)
         : (!test.atomic.i32, i32, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch2 : !tfrt.chain
}

func.func @parallel_call.fixed_block_size.async() -> !tfrt.chain {
  %start      = tfrt.constant.i32 0
  %end        = tfrt.constant.i32 10
  %block_size = tfrt.constant.i32 1

  %cnt0 = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %cnt1 = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32

  %done = tfrt.parallel_call.i32 %start to %end fixed %block_size
          @async_fn(%cnt0, %cnt1) : !test.atomic.i32, !test.atomic.i32

  %v0, %ch0 = "tfrt_test.atomic.get.i32"(%cnt0, %done)
     : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  %v1, %ch1 = "tfrt_test.atomic.get.i32"(%cnt1, %ch0)
     : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  %ch2 = tfrt.print.i32 %v0, %ch1
  %ch3 = tfrt.print.i32 %v1, %ch2
  tfrt.return %ch3 : !tfrt.chain
}
