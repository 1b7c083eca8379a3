// tfrt.call with zero, one and several results, including a call to a function defined later in the file.
func.func @caller() -> (i32, i32) {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  %sum = tfrt.call @add(%a, %b) : (i32, i32) -> i32
  %x, %y = tfrt.call @swap(%sum, %a) : (i32, i32) -> (i32, i32)
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.call @print_value(%x, %ch0) : (i32, !tfrt.chain) -> !tfrt.chain
  tfrt.call @nothing() : () -> ()
  tfrt.return %x, %y : i32, i32
}

func.func @add(%a: i32, %b: i32) -> i32 {
  %c = tfrt.add.i32 %a, %b
  tfrt.return %c : i32
}

func.func @swap(%a: i32, %b: i32) -> (i32, i32) {
  tfrt.return %b, %a : i32, i32
}

func.func @print_value(%v: i32, %ch0: !tfrt.chain) -> !tfrt.chain {
  %ch1 = tfrt.print.i32 %v, %ch0
  tfrt.return %ch1 : !tfrt.chain
}

func.func @nothing() {
  tfrt.return
}
