// BEF produced by `bef translate` runs like the text it came from: through
// a pipe (`-`), from a file, and as the reference tools spell it. The
// runtime error of @error_from_bef makes the exit status of `bef run` 1.
// RUN: bef translate --mlir-to-bef %s | not bef run - | FileCheck %s
// RUN: bef translate --mlir-to-bef %s -o %t.bef
// RUN: not bef run %t.bef | FileCheck %s
// RUN: cat %t.bef | not bef run --work-queue mstd:2 - | FileCheck %s
// RUN: not bef run - < %t.bef | FileCheck %s
// RUN: tfrt_translate -mlir-to-bef %s | bef_executor -work_queue_type=mstd - | FileCheck %s
// RUN: tfrt_translate -mlir-to-bef %s | bef_executor_lite - | FileCheck %s

// CHECK: Choosing memory leak check allocator.
// CHECK-LABEL: --- Running 'from_bef':
func.func @from_bef() -> (i32, f64, !tfrt.chain) {
  %a = tfrt.constant.i32 6
  %b = tfrt.constant.i32 7
  %c = tfrt.add.i32 %a, %b
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.print.i32 %c, %ch0
  %f = tfrt.constant.f64 0.5
  tfrt.return %c, %f, %ch1 : i32, f64, !tfrt.chain
}
// CHECK-NEXT: int32 = 13
// CHECK-NEXT: 'from_bef' returned 13,0.5,!tfrt.chain value

// CHECK-LABEL: --- Running 'error_from_bef':
func.func @error_from_bef() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  tfrt.return %x : i32
}
// CHECK-NEXT: 'error_from_bef' returned <<error: something bad happened>>
