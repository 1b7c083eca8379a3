// Scalar attributes: typed integers of every encodable width, unsigned integers, floats of every width, bools, default-typed literals.
func.func @typed_attr() -> !tfrt.chain {
  %ch = tfrt.new.chain
  %ch0 = "tfrt_test.print_typed_attr"(%ch) {value = 1 : i64} : (!tfrt.chain) -> !tfrt.chain
  %ch1 = "tfrt_test.print_typed_attr"(%ch0) {value = 0.5 : f32} : (!tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.print_typed_attr"(%ch1) {value = false} : (!tfrt.chain) -> !tfrt.chain
  tfrt.return %ch2 : !tfrt.chain
}

func.func @every_scalar_kind() -> i32 {
  %x = "tfrt_test.attributes"() {
      b = true, c = false, d = 1 : i1,
      s8 = -128 : i8, s16 = 32767 : i16, s32 = -42 : i32, s64 = 9223372036854775807 : i64,
      u8 = 255 : ui8, u16 = 65535 : ui16, u32 = 4294967295 : ui32, u64 = 18446744073709551615 : ui64,
      h = 1.5 : f16, bh = -2.0 : bf16, f = 3.25 : f32, g = 0.1 : f64,
      default_int = 17, default_float = 2.5,
      hex = 0x2A : i32, nan = 0x7FC00000 : f32, neg_zero = -0.0 : f64
    } : () -> i32
  tfrt.return %x : i32
}
