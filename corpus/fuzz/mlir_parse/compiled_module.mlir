module @k attributes {tfrt.compiled} {
  func.func @main(%x: memref<?x?xf32>) {
    func.return
  }
}
func.func @f() {
  "a.b"() {fn = @k::@main} : () -> ()
  tfrt.return
}
