// usleep and blocking.usleep run on the blocking pool; the runner waits
// for them (quiescence) before the next function.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s
// RUN: bef run --work-queue mstd:1,2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'blocking_usleep':
func.func @blocking_usleep() -> !tfrt.chain {
  %t = tfrt.constant.i32 1000
  %done = "tfrt_test.blocking.usleep"(%t) : (i32) -> !tfrt.chain
  %ch1 = "tfrt_test.print_hello"(%done) : (!tfrt.chain) -> !tfrt.chain
  tfrt.return %ch1 : !tfrt.chain
}
// CHECK-NEXT: Slept for 1000 microseconds
// CHECK-NEXT: hello host executor!
// CHECK-NEXT: 'blocking_usleep' returned !tfrt.chain value

// CHECK-LABEL: --- Running 'fire_and_forget_usleep':
func.func @fire_and_forget_usleep() {
  %t = tfrt.constant.i32 2000
  "tfrt_test.usleep"(%t) : (i32) -> ()
  tfrt.return
}
// CHECK-NEXT: Slept for 2000 microseconds
// CHECK-LABEL: --- Running 'next':
func.func @next() {
  tfrt.return
}
