// tfrt.call nesting three deep: the leaf's add runs under main's call of
// mid and mid's call of leaf.
func.func @leaf(%x: i32) -> i32 {
  %y = tfrt.add.i32 %x, %x
  tfrt.return %y : i32
}

func.func @mid(%x: i32) -> i32 {
  %y = tfrt.call @leaf(%x) : (i32) -> i32
  tfrt.return %y : i32
}

func.func @main() -> i32 {
  %c = tfrt.constant.i32 3
  %r = tfrt.call @mid(%c) : (i32) -> i32
  tfrt.return %r : i32
}
