// Name locations, bare (`loc("name")`) and with a child location, as produced by TensorFlow name scopes.
func.func @debug_info() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_debug_info"(%ch0) : (!tfrt.chain) -> (!tfrt.chain) loc("myNameScope1/MySimpleKernel1")
  %ch2 = "tfrt_test.print_debug_info"(%ch1) : (!tfrt.chain) -> (!tfrt.chain)
                                   loc("foo/bar")
  %ch3 = "tfrt_test.print_debug_info"(%ch2) : (!tfrt.chain) -> (!tfrt.chain) loc("scoped"("model.py":12:4))
  %ch4 = "tfrt_test.print_debug_info"(%ch3) : (!tfrt.chain) -> (!tfrt.chain) loc("outer"("inner"("x.mlir":1:2)))
  tfrt.return %ch4 : !tfrt.chain
}
