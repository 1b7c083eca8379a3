func.func @s() {
  %c = tfrt.new.chain
  %a = ts.build_shape [1 : i64, 2 : i64]
  %b = ts.build_partial_shape [-1 : i64]
  %u = ts.build_unranked_partial_shape
  %f = ts.as_fixed_rank_shape.2 %a
  %c1 = ts.print_fixed_rank_shape.2 %f, %c
  %e = ts.equal_shape %a, %a
  %p = ts.to_partial_shape %a
  %c2 = ts.print_partial_shape %p, %c1
  tfrt.return
}
