// befview's test program: calls, control flow, attributes, a failing
// kernel and every kind of location.
func.func @main() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = tfrt.constant.i32 45
  %b = tfrt.constant.i32 129
  %true = tfrt.constant.i1 1
  %sum = tfrt.call @add(%a, %b) : (i32, i32) -> i32
  %ch1, %x = tfrt.if %true, %ch0, %sum, %b : (!tfrt.chain, i32, i32) -> (!tfrt.chain, i32) {
    %ch2 = tfrt.print.i32 %sum, %ch0
    tfrt.return %ch2, %sum : !tfrt.chain, i32
  } else {
    %one = tfrt.constant.i32 1
    %diff = tfrt.add.i32 %b, %one
    tfrt.return %ch0, %diff : !tfrt.chain, i32
  }
  %ch3 = "tfrt_test.report_error_sync"(%ch1) {message = "befview says hello"} : (!tfrt.chain) -> !tfrt.chain
  %ch4 = "tfrt_test.print_debug_info"(%ch3) : (!tfrt.chain) -> (!tfrt.chain) loc(fused["model.py":42:7, "layer"])
  %ch5 = "tfrt_test.print_debug_info"(%ch4) : (!tfrt.chain) -> (!tfrt.chain) loc(callsite("inner" at "model.py":3:1))
  %ch6 = "tfrt_test.print_debug_info"(%ch5) : (!tfrt.chain) -> (!tfrt.chain) loc("named_op")
  %ch7 = tfrt.print.i32 %x, %ch6
  tfrt.return %ch7 : !tfrt.chain
}

func.func @add(%x: i32, %y: i32) -> i32 {
  %z = tfrt.add.i32 %x, %y
  tfrt.return %z : i32
}

func.func @fails() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32
  tfrt.return %x : i32
}
