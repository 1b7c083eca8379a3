// `bef translate --mlir-to-bef` reports a call to a function that does not
// exist with the message of the reference's verifier (which runs before its
// translator), while a symbol in an ordinary attribute fails with the
// translator's own message. A symbol path into a
// compiled module must name a symbol that module defines.
// RUN: bef translate --mlir-to-bef --split-input-file --verify-diagnostics %s

func.func @caller(%x: i32) {
  // expected-error @+1 {{'absent' does not reference a valid function}}
  tfrt.call @absent(%x) : (i32) -> ()
  tfrt.return
}

// -----

func.func @attribute_symbol() {
  // expected-error @+1 {{function @nowhere not defined}}
  "some.kernel"() { fn = @nowhere } : () -> ()
  tfrt.return
}

// -----

module @unit attributes {tfrt.compiled} {
  func.func @f() {
    func.return
  }
}

func.func @missing_nested_symbol() {
  // expected-error @+1 {{function @unit::@g not defined}}
  "some.kernel"() { fn = @unit::@g } : () -> ()
  tfrt.return
}
