// Homogeneous array attributes: i32, i64, f32, f64, bool, type and empty arrays.
func.func @array.constant() -> i32 {
  %a = "simple.op"() {value = [1 : i32, 2 : i32]} : () -> i32
  %b = "simple.op"() {value = [i32, f32]} : () -> i32
  %c = "simple.op"() {value = [true, false]} : () -> i32
  %d = "simple.op"() {value = [1 : i64, -2 : i64, 3 : i64]} : () -> i32
  %e = "simple.op"() {value = [0.5 : f32, 1.5 : f32]} : () -> i32
  %f = "simple.op"() {value = [2.25 : f64]} : () -> i32
  %g = "simple.op"() {value = []} : () -> i32
  %h = "simple.op"() {value = [7 : i8, 8 : i8], other = [1 : i16], more = [3 : ui32, 4 : ui32]} : () -> i32
  tfrt.return %d : i32
}
