// Native function declarations (`attributes {tfrt.native}`), with and without argument names, and calls to them.
func.func private @native_add(%a: i32, %b: i32) -> i32 attributes {tfrt.native}
func.func private @native_async_add(i32, i32) -> i32 attributes {tfrt.native}
func.func private @native_sink(i32, i32) attributes {tfrt.native}

func.func @call_native_add() -> !tfrt.chain {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  %r = tfrt.call @native_add(%a, %b) : (i32, i32) -> i32
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.print.i32 %r, %ch0
  tfrt.return %ch1 : !tfrt.chain
}

func.func @call_native_async_add() -> i32 {
  %a = tfrt.constant.i32 3
  %b = tfrt.constant.i32 4
  %r = tfrt.call @native_async_add(%a, %b) : (i32, i32) -> i32
  tfrt.call @native_sink(%a, %r) : (i32, i32) -> ()
  tfrt.return %r : i32
}

func.func private @native_error() -> i32 attributes {tfrt.native}
