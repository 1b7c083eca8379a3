// ts.build_shape in custom form (normal, rank-0 and high-rank shapes) with generic shape kernels.
func.func @basic_shape() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = ts.build_shape [1 : i64, 57 : i64, 92 : i64]
  %ch1 = "ts.print_shape"(%a, %ch0) : (!ts.shape, !tfrt.chain) -> !tfrt.chain

  %b = ts.build_shape []
  %ch2 = "ts.print_shape"(%b, %ch1) : (!ts.shape, !tfrt.chain) -> !tfrt.chain

  %c = ts.build_shape [
        0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64,
        5 : i64, 6 : i64, 7 : i64, 8 : i64, 9 : i64 ]
  %ch3 = "ts.print_shape"(%c, %ch2) : (!ts.shape, !tfrt.chain) -> !tfrt.chain

  %eq = "ts.equal_shape"(%a, %c) : (!ts.shape, !ts.shape) -> i1
  %ch4 = "tfrt.print.i1"(%eq, %ch3) : (i1, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch4 : !tfrt.chain
}

func.func @partial_shape() -> !ts.partial_shape {
  %a = "ts.build_partial_shape"() {value = [-1 : i64, 57 : i64, 92 : i64]} : () -> !ts.partial_shape
  tfrt.return %a : !ts.partial_shape
}
