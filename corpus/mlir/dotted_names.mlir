// Function names with dots (@basic.i32), called and referenced by symbol.
func.func @basic.i32() -> i32 {
  %x = tfrt.constant.i32 42
  tfrt.return %x : i32
}

func.func @fibonacci.step.i32(%a: i32, %b: i32) -> (i32, i32) {
  %c = tfrt.add.i32 %a, %b
  tfrt.return %b, %c : i32, i32
}

func.func @fibonacci.i32() -> i32 {
  %zero = tfrt.constant.i32 0
  %one = tfrt.constant.i32 1
  %a1, %b1 = tfrt.call @fibonacci.step.i32(%zero, %one) : (i32, i32) -> (i32, i32)
  %a2, %b2 = tfrt.call @fibonacci.step.i32(%a1, %b1) : (i32, i32) -> (i32, i32)
  %a3, %b3 = tfrt.call @fibonacci.step.i32(%a2, %b2) : (i32, i32) -> (i32, i32)
  %base = tfrt.call @basic.i32() : () -> i32
  %sum = tfrt.add.i32 %b3, %base
  tfrt.return %sum : i32
}
