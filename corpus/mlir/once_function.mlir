// tfrt.once calling a function through a symbol reference.
func.func @tfrt_once_function(%arg : i32) -> i32 {
  %one = tfrt.constant.i32 1
  %result = tfrt.add.i32 %arg, %one
  tfrt.return %result : i32
}

func.func @tfrt_once_test() -> !tfrt.chain {
  %0 = tfrt.constant.i32 0
  %1 = tfrt.once @tfrt_once_function(%0) : (i32) -> (i32)
  %2 = tfrt.once @tfrt_once_function(%1) : (i32) -> (i32)

  %ch0 = tfrt.new.chain
  %ch1 = tfrt.print.i32 %1, %ch0
  %ch2 = tfrt.print.i32 %2, %ch1
  tfrt.return %ch2 : !tfrt.chain
}
