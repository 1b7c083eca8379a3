// Every restriction of the BEF encoder, with the reference encoder's messages.
// Run: bef translate --mlir-to-bef --split-input-file --verify-diagnostics
// Locations: the op that owns a multi-block region (or the func), the op that
// refers outside its region, the func for external functions, the last op of
// a body without tfrt.return, the return op for sync-function and position
// errors, the op holding the attribute or the function reference, and the op
// whose operand is not yet defined.

// expected-error @+1 {{multi-block regions cannot be emitted to BEF files}}
func.func @two_blocks() {
  tfrt.return
^bb1:
  tfrt.return
}

// -----

func.func @multi_block_op_region() -> i32 {
  // expected-error @+1 {{multi-block regions cannot be emitted to BEF files}}
  %r = "tfrt_test.do.async"() ({
    %x = tfrt.constant.i32 2
    "tfrt_test.br"()[^bb1] : () -> ()
  ^bb1:
    %y = tfrt.constant.i32 3
    tfrt.return %y : i32
  }) : () -> i32
  tfrt.return %r : i32
}

// -----

func.func @outer_reference() -> i32 {
  %one = tfrt.constant.i32 1
  %r = "tfrt_test.do.async"() ({
    %two = tfrt.constant.i32 2
    // expected-error @+1 {{BEF executor only supports references to kernels within the current region}}
    %sum = tfrt.add.i32 %two, %one
    tfrt.return %sum : i32
  }) : () -> i32
  tfrt.return %r : i32
}

// -----

// expected-error @+1 {{external functions are not allowed}}
func.func private @external_func() -> i32

// -----

func.func @function_without_return() -> i32 {
  // expected-error @+1 {{all functions need to have a tfrt.return}}
  %x = "someop"() : () -> i32
}

// -----

func.func @standard_return() -> i32 {
  %x = tfrt.constant.i32 1
  // expected-error @+1 {{all functions need to have a tfrt.return}}
  "func.return"(%x) : (i32) -> ()
}

// -----

func.func @region_without_return() -> i32 {
  %r = "tfrt_test.do.async"() ({
    // expected-error @+1 {{all functions need to have a tfrt.return}}
    %x = tfrt.constant.i32 1
  }) : () -> i32
  tfrt.return %r : i32
}

// -----

func.func @sync_returns_argument(%a: i32) -> i32 attributes {tfrt.sync} {
  // expected-error @+1 {{return value 0 is an argument in a sync function}}
  tfrt.return %a : i32
}

// -----

func.func @sync_returns_argument_second(%a: i32) -> (i32, i32) attributes {tfrt.sync} {
  %x = "tfrt.constant_s.i32"() {value = 1 : i32} : () -> i32
  // expected-error @+1 {{return value 1 is an argument in a sync function}}
  tfrt.return %x, %a : i32, i32
}

// -----

func.func @sync_returns_twice() -> (i32, i32) attributes {tfrt.sync} {
  %x = "tfrt.constant_s.i32"() {value = 1 : i32} : () -> i32
  // expected-error @+1 {{return value 1 is duplicated in a sync function}}
  tfrt.return %x, %x : i32, i32
}

// -----

func.func @unit_attribute() {
  // expected-error @+1 {{BEF files cannot encode the 'flag' attribute}}
  "tfrt_test.op"() {flag} : () -> ()
  tfrt.return
}

// -----

func.func @unit_keyword_attribute() {
  // expected-error @+1 {{BEF files cannot encode the 'marker' attribute}}
  "tfrt_test.op"() {marker = unit, size = 4 : i32} : () -> ()
  tfrt.return
}

// -----

func.func @index_attribute() {
  // expected-error @+1 {{BEF files cannot encode the 'n' attribute}}
  "tfrt_test.op"() {n = 3 : index} : () -> ()
  tfrt.return
}

// -----

func.func @i128_attribute() {
  // expected-error @+1 {{BEF files cannot encode the 'big' attribute}}
  "tfrt_test.op"() {big = 1 : i128} : () -> ()
  tfrt.return
}

// -----

func.func @tensor_type_attribute() {
  // expected-error @+1 {{BEF files cannot encode the 'type' attribute}}
  "tfrt_test.op"() {type = tensor<1xf32>} : () -> ()
  tfrt.return
}

// -----

func.func @dictionary_attribute() {
  // expected-error @+1 {{BEF files cannot encode the 'options' attribute}}
  "tfrt_test.op"() {options = {a = 1 : i32}} : () -> ()
  tfrt.return
}

// -----

func.func @array_with_unencodable_element() {
  // expected-error @+1 {{BEF files cannot encode the 'list' attribute}}
  "tfrt_test.op"() {list = [1 : i32, 2 : index]} : () -> ()
  tfrt.return
}

// -----

func.func @missing_callee() {
  %c1 = tfrt.constant.i32 1
  // expected-error @+1 {{function @missing not defined}}
  "tfrt_test.call_fn"(%c1) {callee = @missing} : (i32) -> ()
  tfrt.return
}

// -----

func.func @branch(%x: i32) -> i32 {
  tfrt.return %x : i32
}

func.func @missing_branch(%i: i32, %x: i32) -> i32 {
  // expected-error @+1 {{function @no_such_branch not defined}}
  %r = "tfrt.case"(%i, %x) {branches = [@branch, @no_such_branch]} : (i32, i32) -> i32
  tfrt.return %r : i32
}

// -----

func.func @early_return() -> i32 {
  %x = tfrt.constant.i32 1
  // expected-error @+1 {{return op must be at the end of its block}}
  tfrt.return %x : i32
  %y = tfrt.constant.i32 2
  tfrt.return %y : i32
}

// -----

func.func @use_before_definition() -> i32 {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %y = tfrt.add.i32 %x, %x
  %x = tfrt.constant.i32 1
  tfrt.return %y : i32
}

// -----

func.func @second_operand_before_definition() -> i32 {
  %one = tfrt.constant.i32 1
  // expected-error @+1 {{operand #1 does not dominate this use}}
  %y = "tfrt.add.i32"(%one, %later) : (i32, i32) -> i32
  %later = tfrt.constant.i32 2
  tfrt.return %y : i32
}

// -----

func.func @outer() {
  // expected-error @+1 {{symbol's parent must have the SymbolTable trait}}
  func.func @inner() {
    tfrt.return
  }
  tfrt.return
}

// -----

// A few bytes of text must not make the translator allocate 100 GB.
func.func @huge_splat() {
  // expected-error @+1 {{its dense elements expand to 99999999999 bytes}}
  "tfrt_test.k"() {big = dense<0> : tensor<99999999999xi8>} : () -> ()
  tfrt.return
}
