// A program that runs and whose every printed name, string, error and
// location is a terminal control sequence: OSC 0 (window title), OSC 52
// (clipboard), CSI, BEL, CR, a C1 CSI and a bidirectional override. `bef`
// must print all of it escaped.
func.func @"title\1B]0;OWNED-TITLE\07"() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %s = "tfrt_test.get_string"() { value = "\1B]52;c;T1dORUQ=\07 clip\0D\C2\9B2J\E2\80\AE" } : () -> !tfrt.string
  %ch1 = "tfrt_test.print_string"(%s, %ch0) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain loc("\1B]0;LOC-TITLE\07.mlir":3:1)
  tfrt.return %ch1 : !tfrt.chain
}

func.func @"fails\1B[2J"() -> i32 {
  %bad = "tfrt_test.fail"() : () -> i32 loc("x\1Bc\07.mlir":12:3)
  tfrt.return %bad : i32
}

func.func @"\1B]52;c;T1dORUQ=\07"() -> i32 {
  %x = tfrt.constant.i32 7
  tfrt.return %x : i32
}
