// A selection of tfrt_test kernels in generic form: print_hello, count3, identity, share_to_two, make_indirect, get_uniqueness, usleep, get_thread_id.
func.func @test_kernels() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
  %base = tfrt.constant.i32 7
  %a, %b, %c = "tfrt_test.count3.i32"(%base) : (i32) -> (i32, i32, i32)
  %id = "tfrt_test.identity"(%a) : (i32) -> i32
  %s0, %s1 = "tfrt_test.share_to_two"(%b) : (i32) -> (i32, i32)
  %ind = "tfrt_test.make_indirect"(%c) : (i32) -> i32
  %uniq = "tfrt_test.get_uniqueness"(%ind) : (i32) -> i1
  %ch2 = "tfrt.print.i1"(%uniq, %ch1) : (i1, !tfrt.chain) -> !tfrt.chain
  %us = tfrt.constant.i32 100
  %ch3 = "tfrt_test.usleep"(%us, %ch2) : (i32, !tfrt.chain) -> !tfrt.chain
  %ch4 = "tfrt_test.blocking.usleep"(%us, %ch3) : (i32, !tfrt.chain) -> !tfrt.chain
  %tid = "tfrt_test.get_thread_id"(%ch4) : (!tfrt.chain) -> i32
  %sum = tfrt.add.i32 %id, %s0
  %sum2 = tfrt.add.i32 %sum, %s1
  %sum3 = tfrt.add.i32 %sum2, %tid
  %ch5 = tfrt.print.i32 %sum3, %ch4
  tfrt.return %ch5 : !tfrt.chain
}
