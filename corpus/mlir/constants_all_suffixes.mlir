// tfrt.constant.* custom forms of every suffix: i1 (0, 1, true, false), i32, i64, ui32, ui64, f32, f64, f16, bf16.
func.func @bools() -> (i1, i1, i1, i1) {
  %zero = tfrt.constant.i1 0
  %one = tfrt.constant.i1 1
  %true = tfrt.constant.i1 true
  %false = tfrt.constant.i1 false
  tfrt.return %zero, %one, %true, %false : i1, i1, i1, i1
}

func.func @integers() -> (i32, i32, i64, i64) {
  %a = tfrt.constant.i32 42
  %b = tfrt.constant.i32 -2147483648
  %c = tfrt.constant.i64 9223372036854775807
  %d = tfrt.constant.i64 -1
  tfrt.return %a, %b, %c, %d : i32, i32, i64, i64
}

func.func @unsigned() -> (ui32, ui64) {
  %a = tfrt.constant.ui32 4294967295
  %b = tfrt.constant.ui64 18446744073709551615
  tfrt.return %a, %b : ui32, ui64
}

func.func @floats() -> (f32, f64, f16, bf16) {
  %a = tfrt.constant.f32 1.0
  %b = tfrt.constant.f64 -2.5e-3
  %c = tfrt.constant.f16 0.5
  %d = tfrt.constant.bf16 3.0
  tfrt.return %a, %b, %c, %d : f32, f64, f16, bf16
}
