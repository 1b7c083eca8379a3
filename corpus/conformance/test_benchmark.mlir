// tfrt_test.benchmark runs its region repeatedly and prints statistics.
// RUN: bef run %s | FileCheck %s

// CHECK-LABEL: --- Running 'benchmark':
func.func @benchmark() {
  %c = tfrt.constant.i32 42
  "tfrt_test.benchmark"(%c) ({
  ^bb0(%x: i32):
    %y = tfrt.add.i32 %x, %x
    tfrt.return %y : i32
  }) {name = "add.i32", duration_secs = 1 : i32, max_count = 50 : i32, num_warmup_runs = 5 : i32} : (i32) -> ()
  tfrt.return
}
// CHECK: BM:add.i32:Duration(ns): {{[0-9]+}}
// CHECK: BM:add.i32:Count: 50
// CHECK: BM:add.i32:Time Min(ns): {{[0-9]+}}
// CHECK: BM:add.i32:Time 50%(ns): {{[0-9]+}}
// CHECK: BM:add.i32:Time 95%(ns): {{[0-9]+}}
// CHECK: BM:add.i32:Time 99%(ns): {{[0-9]+}}
// CHECK: BM:add.i32:CPU Min(ns): {{[0-9]+}}
// CHECK: BM:add.i32:CPU 50%(ns): {{[0-9]+}}
// CHECK: BM:add.i32:CPU 95%(ns): {{[0-9]+}}
// CHECK: BM:add.i32:CPU 99%(ns): {{[0-9]+}}
// CHECK: BM:add.i32:CPU utilization(percent): {{[0-9.]+}}
