// Sync functions (`attributes {tfrt.sync}`) built from generic-form sync kernels.
func.func @basic.i32() -> i32 attributes {tfrt.sync} {
  %x = "tfrt.constant_s.i32"() {value = 42 : i32} : () -> i32
  %y = "tfrt.constant_s.i32"() {value = 1 : i32} : () -> i32
  %z = "tfrt.add_s.i32"(%x, %y) : (i32, i32) -> i32
  tfrt.return %z : i32
}

func.func @fibonacci.i32() -> i32 attributes {tfrt.sync} {
  %0 = "tfrt.constant_s.i32"() {value = 0 : i32} : () -> i32
  %1 = "tfrt.constant_s.i32"() {value = 1 : i32} : () -> i32
  %2 = "tfrt.add_s.i32"(%0, %1) : (i32, i32) -> i32
  %3 = "tfrt.add_s.i32"(%1, %2) : (i32, i32) -> i32
  %4 = "tfrt.add_s.i32"(%2, %3) : (i32, i32) -> i32
  %5 = "tfrt.add_s.i32"(%3, %4) : (i32, i32) -> i32
  tfrt.return %5 : i32
}

func.func @sync_with_args(%a: i32, %b: i32) -> (i32, i32) attributes {tfrt.sync} {
  %sum = "tfrt.add_s.i32"(%a, %b) : (i32, i32) -> i32
  %x = "tfrt_test.sync_sum"(%a, %b, %sum) : (i32, i32, i32) -> i32
  tfrt.return %sum, %x : i32, i32
}

func.func @sync_many_attributes() -> i32 attributes {tfrt.sync} {
  %x = "tfrt_test.sync_sum_attributes"() {
      v0 = 0 : i32, v1 = 1 : i32, v2 = 2 : i32, v3 = 3 : i32,
      v4 = 4 : i32, v5 = 5 : i32, v6 = 6 : i32, v7 = 7 : i32,
      v8 = 8 : i32, v9 = 9 : i32, v10 = 10 : i32, v11 = 1 : i32
    } : () -> i32
  tfrt.return %x : i32
}
