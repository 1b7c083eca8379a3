// Fused locations of names and file positions, including a fused location nested in a name.
func.func @fused() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_debug_info"(%ch0) : (!tfrt.chain) -> (!tfrt.chain) loc(fused["foo", "bar"])
  %ch2 = "tfrt_test.print_debug_info"(%ch1) : (!tfrt.chain) -> (!tfrt.chain)
                                         loc(fused["foo.py":42:314, "bar"])
  %ch3 = "tfrt_test.print_debug_info"(%ch2) : (!tfrt.chain) -> (!tfrt.chain) loc(fused["a.py":42:314, "b"])
  %ch4 = "tfrt_test.print_debug_info"(%ch3) : (!tfrt.chain) -> (!tfrt.chain) loc("wrapper"(fused["x.py":1:1, "y.py":2:2]))
  tfrt.return %ch4 : !tfrt.chain
}
