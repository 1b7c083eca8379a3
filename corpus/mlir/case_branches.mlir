// tfrt.case with an array of symbol references, in custom and in generic form.
func.func @branch0(%ch: !tfrt.chain, %arg: i32) -> (!tfrt.chain, i32) {
  %two = tfrt.constant.i32 2
  %res = tfrt.add.i32 %arg, %two
  tfrt.return %ch, %res : !tfrt.chain, i32
}

func.func @branch1(%ch: !tfrt.chain, %arg: i32) -> (!tfrt.chain, i32) {
  %three = tfrt.constant.i32 3
  %res = tfrt.add.i32 %arg, %three
  tfrt.return %ch, %res : !tfrt.chain, i32
}

func.func @tfrt_case_test() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %branch_index = tfrt.constant.i32 0
  %arg = tfrt.constant.i32 40

  %ch1, %res = tfrt.case %branch_index [@branch0, @branch1] (%ch0, %arg) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  %ch2 = tfrt.print.i32 %res, %ch1

  %branch_index1 = tfrt.constant.i32 1
  %ch3, %res1 = "tfrt.case"(%branch_index1, %ch2, %arg) {branches = [@branch0, @branch1]} : (i32, !tfrt.chain, i32) -> (!tfrt.chain, i32)
  %ch4 = tfrt.print.i32 %res1, %ch3

  tfrt.return %ch4 : !tfrt.chain
}
