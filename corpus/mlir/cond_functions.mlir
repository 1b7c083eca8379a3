// tfrt.cond selecting between two functions given as symbol references.
func.func @identity(%x: i32) -> i32 {
  tfrt.return %x : i32
}

func.func @double(%x: i32) -> i32 {
  %y = tfrt.add.i32 %x, %x
  tfrt.return %y : i32
}

func.func @if_test_with_func() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = tfrt.constant.i32 41

  %true = tfrt.constant.i1 1
  %true_res = tfrt.cond %true @identity @double (%a) : (i32) -> (i32)
  %ch1 = tfrt.print.i32 %true_res, %ch0

  %false = tfrt.constant.i1 0
  %false_res = tfrt.cond %false @identity @double (%a) : (i32) -> (i32)
  %ch2 = tfrt.print.i32 %false_res, %ch1

  tfrt.return %ch2 : !tfrt.chain
}
