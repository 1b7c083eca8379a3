// tfrt.if with then and else regions whose block arguments take the operand names.
func.func @controlflow_if(%cond: i1, %v1: i32, %v2: i32) -> i32 {
  %res = tfrt.if %cond, %v1, %v2 : (i32, i32) -> (i32) {
    tfrt.return %v1 : i32
  } else {
    tfrt.return %v2 : i32
  }
  tfrt.return %res : i32
}

func.func @if_with_work() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = tfrt.constant.i32 45
  %b = tfrt.constant.i32 129
  %true = tfrt.constant.i1 1

  %ch1, %x = tfrt.if %true, %ch0, %a, %b : (!tfrt.chain, i32, i32) -> (!tfrt.chain, i32) {
    %sum = tfrt.add.i32 %a, %b
    %ch2 = tfrt.print.i32 %sum, %ch0
    tfrt.return %ch2, %sum : !tfrt.chain, i32
  } else {
    %one = tfrt.constant.i32 1
    %diff = tfrt.add.i32 %a, %one
    tfrt.return %ch0, %diff : !tfrt.chain, i32
  }

  %ch3 = tfrt.print.i32 %x, %ch1
  tfrt.return %ch3 : !tfrt.chain
}
