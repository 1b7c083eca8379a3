// Location aliases (#loc, #loc0, #loc1, ...) used by ops and functions and defined at the end of the file.
func.func @aliased() -> !tfrt.chain {
  %ch0 = tfrt.new.chain loc(#loc1)
  %ch1 = "tfrt_test.print_debug_info"(%ch0) : (!tfrt.chain) -> (!tfrt.chain) loc(#loc0)
  %ch2 = "tfrt_test.print_debug_info"(%ch1) : (!tfrt.chain) -> (!tfrt.chain) loc(#loc2)
  %ch3 = "tfrt_test.print_debug_info"(%ch2) : (!tfrt.chain) -> (!tfrt.chain) loc(#loc3)
  tfrt.return %ch3 : !tfrt.chain loc(#loc)
} loc(#loc)

#loc = loc("aliases.mlir":2:1)
#loc0 = loc("myNameScope0/MySimpleKernel0")
#loc1 = loc("aliases.mlir":3:10)
#loc2 = loc(fused[#loc0, #loc1])
#loc3 = loc(callsite(#loc0 at #loc1))
