func.func private @inc(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}
func.func @main(%c: i1, %x: i32, %ch: !tfrt.chain) -> (i32, !tfrt.chain) {
  %a = tfrt.call @inc(%x) : (i32) -> i32
  %r = tfrt.if %c, %a : (i32) -> (i32) {
    %b = tfrt.call @main2(%a) : (i32) -> i32
    tfrt.return %b : i32
  } else {
    tfrt.return %a : i32
  }
  %m = tfrt.merge.chains %ch, %ch : !tfrt.chain, !tfrt.chain
  tfrt.return %r, %m : i32, !tfrt.chain
}
func.func @main2(%x: i32) -> i32 {
  %y = tfrt.call @main2(%x) : (i32) -> i32
  tfrt.return %y : i32
}
