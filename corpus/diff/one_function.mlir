// base.mlir with one function more: @twice.
func.func @main() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = tfrt.constant.i32 45
  %b = tfrt.constant.i32 129
  %sum = tfrt.call @add(%a, %b) : (i32, i32) -> i32
  %true = tfrt.constant.i1 1
  %ch1, %x = tfrt.if %true, %ch0, %sum : (!tfrt.chain, i32) -> (!tfrt.chain, i32) {
    %ch2 = tfrt.print.i32 %sum, %ch0
    tfrt.return %ch2, %sum : !tfrt.chain, i32
  } else {
    %one = tfrt.constant.i32 1
    %more = tfrt.add.i32 %sum, %one
    tfrt.return %ch0, %more : !tfrt.chain, i32
  }
  %ch3 = tfrt.print.i32 %x, %ch1
  tfrt.return %ch3 : !tfrt.chain
}

func.func @add(%a: i32, %b: i32) -> i32 {
  %c = tfrt.add.i32 %a, %b
  tfrt.return %c : i32
}

func.func @twice(%a: i32) -> i32 {
  %c = tfrt.add.i32 %a, %a
  tfrt.return %c : i32
}
