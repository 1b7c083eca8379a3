func.func @atnrs() {
  func.func @atnrs() {
  "t.k"() {i = true, f = 0x7FC00200 : f32, h = 8} : () -> ()
  tfrt.return
}
// ---) -> ()
  tfrt.return
}
// in)
