// Functions with nothing but a return: no arguments, only arguments, and an argument passed through.
func.func @empty() {
  tfrt.return
}

func.func @unused_args(%a: i32, %ch: !tfrt.chain, %f: f32) {
  tfrt.return
}

func.func @pass_through(%ch: !tfrt.chain) -> !tfrt.chain {
  tfrt.return %ch : !tfrt.chain
}

func.func @return_twice(%x: i32) -> (i32, i32) {
  tfrt.return %x, %x : i32, i32
}
