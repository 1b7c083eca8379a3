// Representative syntax errors, one per chunk.
// Run: bef translate --mlir-to-bef --split-input-file --verify-diagnostics
//
// README: the expected texts below are short substrings of MLIR's own parser
// messages; reconcile them with the parser's wording if it differs:
//   unterminated string literal    {{string literal}}       (MLIR: expected '"' in string literal)
//   missing ')' in operand list    {{expected ')'}}         (MLIR: expected ')' to end operand list)
//   unknown custom op              {{custom op 'foo.bar' is unknown}}
//   undeclared SSA value           {{use of undeclared SSA value}}
//   redefined SSA value            {{redefinition of SSA value}}
//   bad type                       {{expected non-function type}}
//   integer out of range for i8    {{out of range}}         (MLIR: integer constant out of range for attribute)
//   unbalanced braces (extra '}')  {{expected operation name}} (MLIR: expected operation name in quotes)
//   operand/type count mismatch    {{expected 1 operand type but had 0}}
//   use with a different type      {{expects different type than prior uses}}
//   duplicate attribute name       {{duplicate key 'a'}}
//   undefined location alias       {{alias}}                (MLIR: operation location alias was never defined)
// Each error is reported on the line of the offending token.

func.func @unterminated_string() {
  // expected-error @+1 {{string literal}}
  "tfrt_test.op"() {s = "no end} : () -> ()
  tfrt.return
}

// -----

func.func @missing_paren(%a: i32) {
  // expected-error @+1 {{expected ')'}}
  "tfrt_test.op"(%a : (i32) -> ()
  tfrt.return
}

// -----

func.func @unknown_custom_op() {
  // expected-error @+1 {{custom op 'foo.bar' is unknown}}
  %x = foo.bar 1
  tfrt.return
}

// -----

func.func @undeclared_value() -> i32 {
  // expected-error @+1 {{use of undeclared SSA value}}
  %y = tfrt.add.i32 %nope, %nope
  tfrt.return %y : i32
}

// -----

func.func @redefined_value() -> i32 {
  %x = tfrt.constant.i32 1
  // expected-error @+1 {{redefinition of SSA value}}
  %x = tfrt.constant.i32 2
  tfrt.return %x : i32
}

// -----

func.func @bad_type() {
  // expected-error @+1 {{expected non-function type}}
  %x = "tfrt_test.op"() : () -> notatype
  tfrt.return
}

// -----

func.func @integer_out_of_range() {
  // expected-error @+1 {{out of range}}
  "tfrt_test.op"() {v = 300 : i8} : () -> ()
  tfrt.return
}

// -----

func.func @extra_closing_brace() {
  tfrt.return
}
// expected-error @+1 {{expected operation name}}
}

// -----

func.func @operand_type_count(%a: i32) {
  // expected-error @+1 {{expected 1 operand type but had 0}}
  "tfrt_test.op"(%a) : () -> ()
  tfrt.return
}

// -----

func.func @type_mismatch() {
  %x = tfrt.constant.i32 1
  // expected-error @+1 {{expects different type than prior uses}}
  "tfrt_test.op"(%x) : (i64) -> ()
  tfrt.return
}

// -----

func.func @duplicate_attribute() {
  // expected-error @+1 {{duplicate key 'a'}}
  "tfrt_test.op"() {a = 1 : i32, a = 2 : i32} : () -> ()
  tfrt.return
}

// -----

func.func @undefined_location_alias() {
  // expected-error @+1 {{alias}}
  "tfrt_test.op"() : () -> () loc(#nowhere)
  tfrt.return
}
