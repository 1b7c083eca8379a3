// A parallel loop over every i32 in blocks of one: 2^32 blocks, refused
// with an error value instead of a list of 2^32 entries.
func.func @f() -> !tfrt.chain {
  %start = tfrt.constant.i32 -2147483648
  %end = tfrt.constant.i32 2147483647
  %block = tfrt.constant.i32 1
  %done = tfrt.parallel_for.i32 %start to %end fixed %block {
    tfrt.return
  }
  tfrt.return %done : !tfrt.chain
}
