// loc(unknown) on ops and on a function.
func.func @unknown_locations() -> i32 {
  %a = tfrt.constant.i32 1 loc(unknown)
  %b = tfrt.add.i32 %a, %a loc(unknown)
  %c = "tfrt_test.identity"(%b) : (i32) -> i32
  tfrt.return %c : i32 loc(unknown)
} loc(unknown)
