func.func @main(%c: i1, %x: i32) -> i32 {
  %r = tfrt.if %c, %x : (i32) -> (i32) {
    %y = tfrt.add.i32 %x, %x
    tfrt.return %y : i32
  } else {
    tfrt.return %x : i32
  }
  %ch0 = tfrt.new.chain
  %ch1, %v = tfrt.repeat.i32 %x, %ch0, %r : !tfrt.chain, i32 {
    tfrt.return %ch0, %r : !tfrt.chain, i32
  }
  tfrt.return %v : i32
}
