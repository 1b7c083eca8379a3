// The sink native functions take their arguments for the call's overhead
// alone: `native_sink` returns nothing, `native_async_sink` a chain that a
// task on the work queue completes. A benchmark may ask for a million
// measured runs besides its warm-up run (its duration stops it first).
// RUN: bef run %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func private @native_sink(%a: i32, %b: i32) -> () attributes {tfrt.native}
func.func private @native_async_sink(%a: i32, %b: i32) -> !tfrt.chain attributes {tfrt.native}

// CHECK-LABEL: --- Running 'sinks':
func.func @sinks() -> (!tfrt.chain, i32) {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  tfrt.call @native_sink(%a, %b) : (i32, i32) -> ()
  %ch = tfrt.call @native_async_sink(%a, %b) : (i32, i32) -> !tfrt.chain
  %sum = tfrt.add.i32 %a, %b
  tfrt.return %ch, %sum : !tfrt.chain, i32
}
// CHECK-NEXT: 'sinks' returned !tfrt.chain value,3

// CHECK-LABEL: --- Running 'sink_benchmark':
func.func @sink_benchmark() {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  tfrt_test.benchmark "sink"(%a : i32, %b : i32) duration_secs = 1, max_count = 1000000 {
    %ch = tfrt.call @native_async_sink(%a, %b) : (i32, i32) -> !tfrt.chain
    tfrt.return %ch : !tfrt.chain
  }
  tfrt.return
}
// CHECK-NEXT: BM:sink:Duration(ns): {{[0-9]+}}
// CHECK-NEXT: BM:sink:Count: {{[1-9][0-9]*}}
