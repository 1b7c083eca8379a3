// Names, values and locations that are terminal control sequences: OSC 0
// (window title), OSC 52 (clipboard), CSI (colour, clear), BEL, CR, a C1
// CSI and a bidirectional override. Every tool must show them escaped.
func.func @"title\1B]0;OWNED-TITLE\07"() -> !tfrt.chain {
  %ch0 = tfrt.new.chain loc("\1B]0;LOC-TITLE\07":1:1)
  %ch1 = "tfrt_test.report_error_sync"(%ch0) {message = "\1B]52;c;T1dORUQ=\07 clip\0D", "\1B[31mred" = "\C2\9B2J"} : (!tfrt.chain) -> !tfrt.chain loc("bell\07\0D"("x\1Bc.mlir":2:3))
  %ch2 = "tfrt_test.print_debug_info"(%ch1) : (!tfrt.chain) -> (!tfrt.chain) loc(fused["\E2\80\AEevil.mlir":4:5, "\1B[2J"])
  tfrt.return %ch2 : !tfrt.chain
}

func.func @"\1B]52;c;T1dORUQ=\07"() -> i32 {
  %x = tfrt.constant.i32 7
  tfrt.return %x : i32
}
