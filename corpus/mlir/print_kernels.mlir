// tfrt.print.i32 with and without a bound result, and generic-form prints of other types.
func.func @prints() {
  %ch0 = tfrt.new.chain
  %i = tfrt.constant.i32 -7
  %l = tfrt.constant.i64 1099511627776
  %b = tfrt.constant.i1 1
  %f = tfrt.constant.f32 0.25
  %d = tfrt.constant.f64 1.5

  %ch1 = tfrt.print.i32 %i, %ch0
  %ch2 = "tfrt.print.i64"(%l, %ch1) : (i64, !tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt.print.i1"(%b, %ch2) : (i1, !tfrt.chain) -> !tfrt.chain
  %ch4 = "tfrt.print.f32"(%f, %ch3) : (f32, !tfrt.chain) -> !tfrt.chain
  %ch5 = "tfrt.print.f64"(%d, %ch4) : (f64, !tfrt.chain) -> !tfrt.chain

  // The result of the last print is not bound to a name.
  tfrt.print.i32 %i, %ch5

  tfrt.return
}
