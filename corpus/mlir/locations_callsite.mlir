// Call-site locations, including a nested call site.
func.func @callsites() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_debug_info"(%ch0) : (!tfrt.chain) -> (!tfrt.chain) loc(callsite("foo" at "bar.py":42:314))
  %ch2 = "tfrt_test.print_debug_info"(%ch1) : (!tfrt.chain) -> (!tfrt.chain) loc(callsite("f" at "a.py":1:2))
  %ch3 = "tfrt_test.print_debug_info"(%ch2) : (!tfrt.chain) -> (!tfrt.chain) loc(callsite("g" at callsite("f" at "a.py":1:2)))
  %ch4 = "tfrt_test.print_debug_info"(%ch3) : (!tfrt.chain) -> (!tfrt.chain) loc(callsite("lib.py":7:9 at "main.py":3:1))
  tfrt.return %ch4 : !tfrt.chain
}
