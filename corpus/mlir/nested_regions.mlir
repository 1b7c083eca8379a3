// Nested regions: a tfrt.if inside a tfrt.repeat.i32 body and a tfrt.repeat.i32 inside a tfrt.if branch.
func.func @controlflow_repeat_cancel() -> i32 {
  %ch0 = tfrt.new.chain
  %count = tfrt.constant.i32 5
  %index = tfrt.constant.i32 0

  %ch1, %repeat_result = tfrt.repeat.i32 %count, %ch0, %index : !tfrt.chain, i32 {
    %ch = tfrt.print.i32 %index, %ch0
    %one = tfrt.constant.i32 1
    %cond = "tfrt.lessequal.i32"(%one, %index, %ch) : (i32, i32, !tfrt.chain) -> (i1)

    %ch2, %x = tfrt.if %cond, %ch, %one : (!tfrt.chain, i32) -> (!tfrt.chain, i32) {
      %y, %ch3 = "tfrt_test.cancel"(%ch) : (!tfrt.chain) -> (i32, !tfrt.chain)
      tfrt.return %ch3, %y : !tfrt.chain, i32
    } else {
      tfrt.return %ch, %one : !tfrt.chain, i32
    }

    %next_index = tfrt.add.i32 %index, %x
    tfrt.return %ch2, %next_index : !tfrt.chain, i32
  }

  tfrt.return %repeat_result : i32
}

func.func @repeat_in_branch(%cond: i1, %n: i32, %v: i32) -> i32 {
  %r = tfrt.if %cond, %n, %v : (i32, i32) -> (i32) {
    %w = tfrt.repeat.i32 %n, %v : i32 {
      %w2 = tfrt.add.i32 %v, %v
      tfrt.return %w2 : i32
    }
    tfrt.return %w : i32
  } else {
    tfrt.return %v : i32
  }
  tfrt.return %r : i32
}
