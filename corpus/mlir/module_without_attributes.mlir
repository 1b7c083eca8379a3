// A plain `module { ... }` wrapper around old- and new-style functions.
module {
  func @helper(%x: i32) -> i32 {
    %y = tfrt.add.i32 %x, %x
    tfrt.return %y : i32
  }

  func.func @main() -> i32 {
    %c = tfrt.constant.i32 21
    %r = tfrt.call @helper(%c) : (i32) -> i32
    tfrt.return %r : i32
  }
}
