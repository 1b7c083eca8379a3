// #corert.shape attributes: ranked with unknown dimensions, rank 0 and unranked.
func.func @shapes() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_shape_attr"(%ch0) {shape = #corert.shape<1x?x3>} : (!tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.print_shape_attr"(%ch1) {shape = #corert.shape<*>} : (!tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt_test.print_shape_attr"(%ch2) {shape = #corert.shape<>} : (!tfrt.chain) -> !tfrt.chain
  %ch4 = "tfrt_test.print_shape_attr"(%ch3) {shape = #corert.shape<2x2x2x2x65536>} : (!tfrt.chain) -> !tfrt.chain
  %ch5 = "tfrt_test.print_shape_attr"(%ch4) {shape = #corert.shape<?>} : (!tfrt.chain) -> !tfrt.chain
  tfrt.return %ch5 : !tfrt.chain
}
