// The verifier of `bef opt` rejects ill-formed programs with the reference's
// messages; --verify-diagnostics checks each chunk's error against its
// expected-error annotation. Without it the first error is printed at its
// location and the command fails.
// RUN: tfrt_opt -split-input-file -verify-diagnostics %s
// RUN: not bef opt --split-input-file %s 2>&1 | FileCheck %s

// CHECK: opt_verify_errors.mlir:11:3: error: 'tfrt.return' op has 2 operands, but enclosing function returns 1
func.func @too_many(%x: i32) -> i32 {
  // expected-error @+1 {{'tfrt.return' op has 2 operands, but enclosing function returns 1}}
  tfrt.return %x, %x : i32, i32
}

// -----

func.func @wrong_type(%x: i64) -> i32 {
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @wrong_type}}
  return %x : i64
}

// -----

func.func @missing_callee(%x: i32) {
  // expected-error @+1 {{'tfrt.call' op 'nowhere' does not reference a valid function}}
  tfrt.call @nowhere(%x) : (i32) -> ()
  tfrt.return
}

// -----

func.func @takes_i64(%x: i64) {
  tfrt.return
}

func.func @caller(%x: i32) {
  // expected-error @+1 {{'tfrt.call' op operand type mismatch}}
  tfrt.call @takes_i64(%x) : (i32) -> ()
  tfrt.return
}

// -----

func.func @repeat_result(%n: i32, %x: i32) -> i32 {
  %r = tfrt.repeat.i32 %n, %x : i32 {
    %wide = tfrt.constant.i64 1
    // expected-error @+1 {{'tfrt.return' op operand types don't match 'tfrt.repeat.i32' result}}
    tfrt.return %wide : i64
  }
  tfrt.return %r : i32
}

// -----

func.func @operand_type(%a: i32, %b: i64) -> i32 {
  // expected-error @+1 {{'tfrt.add.i32' op operand #1 must be 32-bit signless integer, but got 'i64'}}
  %c = "tfrt.add.i32"(%a, %b) : (i32, i64) -> i32
  tfrt.return %c : i32
}

// -----

func.func @constant_attribute() -> i32 {
  // expected-error @+1 {{'tfrt.constant.i32' op attribute 'value' failed to satisfy constraint: 32-bit signless integer attribute}}
  %c = "tfrt.constant.i32"() {value = 1 : i64} : () -> i32
  tfrt.return %c : i32
}

// -----

func.func @negative_cost(%x: i32) -> i32 {
  // expected-error @+1 {{'tfrt_test.test_cost' op cost value must be larger than 0}}
  %c = tfrt_test.test_cost %x {id = 0 : i64, _tfrt_cost = -3 : i64} : i32
  tfrt.return %c : i32
}

// -----

func.func @captures(%x: i32) -> i32 {
  %r = "tfrt_test.do.async"() ({
    // expected-error @+1 {{'tfrt.add.i32' op using value defined outside the region}}
    %y = tfrt.add.i32 %x, %x
    tfrt.return %y : i32
  }) : () -> i32
  tfrt.return %r : i32
}

// -----

func.func @early_return(%x: i32) -> i32 {
  // expected-error @+1 {{'tfrt.return' op must be the last operation in the parent block}}
  tfrt.return %x : i32
  %y = tfrt.add.i32 %x, %x
  tfrt.return %y : i32
}

// -----

func.func @shape_result() {
  // expected-error @+1 {{'ts.build_shape' op result #0 must be !ts.shape type, but got 'i32'}}
  %s = "ts.build_shape"() {value = [2 : i64]} : () -> i32
  tfrt.return
}

// -----

func.func @one_arg(%x: i32) -> i32 {
  tfrt.return %x : i32
}

func.func @cond_arity(%c: i1, %x: i32) -> i32 {
  // expected-error @+1 {{'tfrt.cond' op incorrect number of operands for true function}}
  %r = tfrt.cond %c @one_arg @one_arg (%x, %x) : (i32, i32) -> (i32)
  tfrt.return %r : i32
}

// -----

// A body whose last op is not a return (canonicalization would otherwise
// remove the constant and leave an empty block behind).
func.func private @no_return(%x: i32) -> i32 {
  // expected-error @+1 {{block with no terminator, has 'tfrt.constant.i64'}}
  %one = tfrt.constant.i64 1
}

// -----

// An op that reads its own result: no value can be ready before it.
func.func @self_use(%x: i32) -> i32 {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %c = tfrt_test.test_cost %c, %x {id = 0 : i64, _tfrt_cost = 2 : i64} : i32, i32
  tfrt.return %c : i32
}
