// String attributes with escapes (\n, \t, \", \\, hex bytes), empty strings, NUL and non-ASCII bytes.
func.func @strings() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %s = "tfrt_test.get_string"() {value = "bark"} : () -> !tfrt.string
  %ch1 = "tfrt_test.print_string"(%s, %ch0) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %t = "tfrt_test.get_string"() {value = "line one\nline two\ttabbed"} : () -> !tfrt.string
  %u = "tfrt_test.get_string"() {value = "quote \" and backslash \\"} : () -> !tfrt.string
  %v = "tfrt_test.get_string"() {value = "hex \41\42\43 and bell \07 and high \E2\9C\93"} : () -> !tfrt.string
  %w = "tfrt_test.get_string"() {value = ""} : () -> !tfrt.string
  %z = "tfrt_test.get_string"() {value = "nul \00 inside"} : () -> !tfrt.string
  %ch2 = "tfrt_test.print_string"(%t, %ch1) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %ch3 = "tfrt_test.print_string"(%u, %ch2) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %ch4 = "tfrt_test.print_string"(%v, %ch3) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %ch5 = "tfrt_test.print_string"(%w, %ch4) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %ch6 = "tfrt_test.print_string"(%z, %ch5) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch6 : !tfrt.chain
}
