// Ops with several results bound as `%a, %b = ...` in generic and custom form.
func.func @divide(%x: i32, %y: i32) -> (i32, i32) {
  %q, %r = tfrt.div.i32 %x, %y
  tfrt.return %q, %r : i32, i32
}

func.func @split_values() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %v, %ch1 = "tfrt_test.get_value_and_chain"(%ch0) : (!tfrt.chain) -> (i32, !tfrt.chain)
  %a, %b, %c = "tfrt_test.share_to_three"(%v) : (i32) -> (i32, i32, i32)
  %s = tfrt.add.i32 %a, %b
  %t = tfrt.add.i32 %s, %c
  %ch2 = tfrt.print.i32 %t, %ch1
  tfrt.return %ch2 : !tfrt.chain
}
