// Values of builtin types: integers of several widths and signedness, floats, index, complex, ranked/unranked tensors and function types.
func.func @builtin_types(%i1: i1, %i8: i8, %i16: i16, %i64: i64, %u8: ui8, %u16: ui16, %u32: ui32, %u64: ui64) -> (i1, i64) {
  tfrt.return %i1, %i64 : i1, i64
}

func.func @more_types(%idx: index, %h: f16, %bh: bf16, %f: f32, %d: f64, %c: complex<f32>) -> index {
  %t0 = "tfrt_test.make_tensor"(%f) : (f32) -> tensor<2x?xf32>
  %t1 = "tfrt_test.erase_shape"(%t0) : (tensor<2x?xf32>) -> tensor<*xf32>
  %t2 = "tfrt_test.scalar_tensor"(%d) : (f64) -> tensor<f64>
  %t3 = "tfrt_test.complex_tensor"(%c) : (complex<f32>) -> tensor<4x4xcomplex<f32>>
  %fn = "tfrt_test.make_function"() : () -> ((i32, !tfrt.chain) -> !tfrt.chain)
  %fn2 = "tfrt_test.make_function"() : () -> (() -> (i32, i1))
  %n = "tfrt_test.dim"(%t1, %idx) : (tensor<*xf32>, index) -> index
  tfrt.return %n : index
}
