// tfrt.parallel_for.i32 with extra operands and types, and a synchronous body without extra operands.
func.func @parallel_for.fixed_block_size() -> !tfrt.chain {
  %start      = tfrt.constant.i32 0
  %end        = tfrt.constant.i32 10
  %block_size = tfrt.constant.i32 1

  %cnt0 = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %cnt1 = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32

  %done = tfrt.parallel_for.i32 %start to %end fixed %block_size, %cnt0, %cnt1
          : !test.atomic.i32, !test.atomic.i32 {
    %ch0 = tfrt.new.chain
    %ch1 = "tfrt_test.atomic.add.i32"(%cnt0, %start, %ch0)
           : (!test.atomic.i32, i32, !tfrt.chain) -> !tfrt.chain
    %ch2 = "tfrt_test.atomic.add.i32"(%cnt1, %end, %ch1)
           : (!test.atomic.i32, i32, !tfrt.chain) -> !tfrt.chain
    tfrt.return %ch2 : !tfrt.chain
  }

  %v0, %ch3 = "tfrt_test.atomic.get.i32"(%cnt0, %done)
     : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  %ch4 = tfrt.print.i32 %v0, %ch3
  tfrt.return %ch4 : !tfrt.chain
}

func.func @parallel_for.sync_body() -> !tfrt.chain {
  %start      = tfrt.constant.i32 0
  %end        = tfrt.constant.i32 100
  %block_size = tfrt.constant.i32 10

  %done = tfrt.parallel_for.i32 %start to %end fixed %block_size {
    %sum = tfrt.add.i32 %start, %end
    tfrt.return
  }

  tfrt.return %done : !tfrt.chain
}
