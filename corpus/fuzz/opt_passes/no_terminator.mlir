func.func private @gnc(%x: i32) -> i32 {
  %one = tfrt.constant.i64 1
 }
