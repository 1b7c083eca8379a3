// Functions with signature metadata: JSON reflection (iree.abi) and a SIP
// signature (iree.abi.sip), kept in the Signatures section of BEF.
func.func @add(%a: i32, %b: i32) -> i32 attributes {iree.abi = "{\"a\":[[\"named\",\"x\",\"i32\"],\"i32\"],\"r\":[\"i32\"],\"v\":1}"} {
  %c = tfrt.add.i32 %a, %b
  tfrt.return %c : i32
}
func.func @pair(%a: i32, %b: f32) -> (i32, f32) attributes {iree.abi.sip = "I12!S9!k0_0k1_1R17!D13!K2!x_0K2!y_1"} {
  tfrt.return %a, %b : i32, f32
}
