// Mixed and nested array attributes (BEF aggregates): strings, nested arrays, dense and shape elements.
func.func @aggregate.constant() -> i32 {
  %x = "simple.op"() {value = [1 : i32, [2 : i32, "string"]]} : () -> i32
  %y = "simple.op"() {value = [["s", [1 : i32]], [1.0 : f32]]} : () -> i32
  %z = "simple.op"() {value = ["a", "bc", ""]} : () -> i32
  %w = "simple.op"() {value = [dense<0> : tensor<4xi64>, dense<1> : tensor<4xi64>]} : () -> i32
  %v = "simple.op"() {value = [#corert.shape<2x3>, #corert.shape<*>, 5 : i64, f32]} : () -> i32
  %u = "simple.op"() {value = [[], [[true]], [1 : i32, 2 : i64]]} : () -> i32
  tfrt.return %x : i32
}
