// Type attributes of every encodable scalar type (`value = f32`), complex types and arrays of types.
func.func @type_attributes() -> (i32, i32) {
  %x = "tfrt_test.get_width"() {value = i32} : () -> i32
  %y = "tfrt_test.get_width"() {value = f64} : () -> i32
  "tfrt_test.types"() {
      a = i1, b = i8, c = i16, d = i64, e = ui8, f = ui16, g = ui32, h = ui64,
      i = f16, j = bf16, k = f32, l = complex<f32>, m = complex<f64>
    } : () -> ()
  "tfrt_test.type_list"() {dtypes = [f64, f32, i32, i1, bf16]} : () -> ()
  tfrt.return %x, %y : i32, i32
}
