// Opaque dialect types: !tfrt.chain, !tfrt.string, !t.tensor, !ts.shape, !ht.host_buffer, !test.atomic.i32.
func.func @opaque(%ch0: !tfrt.chain, %s: !tfrt.string) -> (!tfrt.chain, !t.tensor) {
  %buf_size = tfrt.constant.i64 16
  %buf_alignment = tfrt.constant.i64 4
  %buf = "tfrt_dht.allocate_buffer"(%buf_size, %buf_alignment) : (i64, i64) -> !ht.host_buffer
  %shape = ts.build_shape [2 : i64, 2 : i64]
  %t, %ch1 = "tfrt_dht.make_tensor.f32"(%buf, %shape, %ch0) : (!ht.host_buffer, !ts.shape, !tfrt.chain) -> (!t.tensor, !tfrt.chain)
  %counter = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %ch2 = "tfrt_test.print_string"(%s, %ch1) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch2, %t : !tfrt.chain, !t.tensor
}
