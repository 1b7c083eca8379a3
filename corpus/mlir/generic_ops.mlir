// Generic op form: quoted names, operand lists, attribute dictionaries and function types.
func.func @generic_basics() -> !tfrt.chain {
  %ch0 = "tfrt.new.chain"() : () -> !tfrt.chain
  %x = "tfrt.constant.i32"() {value = 7 : i32} : () -> i32
  %y = "tfrt.constant.i32"() {value = 35 : i32} : () -> i32
  %z = "tfrt.add.i32"(%x, %y) : (i32, i32) -> i32
  %ch1 = "tfrt.print.i32"(%z, %ch0) : (i32, !tfrt.chain) -> !tfrt.chain
  %cmp = "tfrt.lessequal.i32"(%x, %y, %ch1) : (i32, i32, !tfrt.chain) -> i1
  %ch2 = "tfrt.print.i1"(%cmp, %ch1) : (i1, !tfrt.chain) -> !tfrt.chain
  "tfrt_test.print_typed_attr"(%ch2) {value = 1 : i64} : (!tfrt.chain) -> ()
  tfrt.return %ch2 : !tfrt.chain
}

func.func @generic_no_operands_no_results() {
  "tfrt_test.print_hello_unchained"() : () -> ()
  tfrt.return
}
