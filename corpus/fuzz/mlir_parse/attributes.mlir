func.func @attrs() {
  "t.k"() {b = true, f = 0x7FC00000 : f32, h = 1.0 : f16, s = "a\"b\n\00", sh = #corert.shape<1x?x3>, t = f32, u = 18446744073709551615 : ui64, z = dense<(1.0, 2.0)> : tensor<1xcomplex<f32>>, fs = [@attrs]} : () -> ()
  tfrt.return
}
// -----
func.func private @native(i32) -> i32 attributes {tfrt.native}
