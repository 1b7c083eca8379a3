// The verifier knows the operand and result types the shape and tensor
// ops' definitions fix, from the same table as their custom forms, and the
// array attributes the building ops need.
// RUN: tfrt_opt -split-input-file -verify-diagnostics %s

func.func @shape_for_chain(%s: !ts.shape) {
  // expected-error @+1 {{'ts.print_shape' op operand #1 must be}}
  %c = "ts.print_shape"(%s, %s) : (!ts.shape, !ts.shape) -> !tfrt.chain
  tfrt.return
}

// -----

func.func @wrong_result() {
  // expected-error @+1 {{'ts.build_partial_shape' op result #0 must be}}
  %p = "ts.build_partial_shape"() {value = [1]} : () -> !ts.shape
  tfrt.return
}

// -----

func.func @missing_shape() {
  // expected-error @+1 {{'tfrt_dht.create_uninitialized_tensor.i32.1' op requires attribute 'shape'}}
  %t = "tfrt_dht.create_uninitialized_tensor.i32.1"() : () -> !t.tensor
  tfrt.return
}

// -----

func.func @coo_operands(%t: !t.tensor, %c: !tfrt.chain) {
  // expected-error @+1 {{'coo.tensor_equal.i32.2' op expected 3 operands, but found 2}}
  %eq, %c1 = "coo.tensor_equal.i32.2"(%t, %c) : (!t.tensor, !tfrt.chain) -> (i1, !tfrt.chain)
  tfrt.return
}

// -----

func.func @well_formed(%t: !tfrt_tensor.tensor, %c: !tfrt.chain) -> !tfrt.chain {
  %s = tfrt_dht.get_tensor_shape %t
  %c1 = ts.print_shape %s, %c
  %eq, %c2 = tfrt_dht.tensor_equal.f32 %t, %t, %c1
  tfrt.return %c2 : !tfrt.chain
}
