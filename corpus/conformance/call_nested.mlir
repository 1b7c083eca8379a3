// Calls nest; a callee may return its argument unchanged or several values.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @identity(%x: i32) -> i32 {
  tfrt.return %x : i32
}

func.func @double(%x: i32) -> i32 {
  %y = tfrt.add.i32 %x, %x
  tfrt.return %y : i32
}

func.func @quadruple(%x: i32) -> i32 {
  %y = tfrt.call @double(%x) : (i32) -> i32
  %z = tfrt.call @double(%y) : (i32) -> i32
  tfrt.return %z : i32
}

func.func @both(%x: i32) -> (i32, i32) {
  %a = tfrt.call @identity(%x) : (i32) -> i32
  %b = tfrt.call @quadruple(%x) : (i32) -> i32
  tfrt.return %a, %b : i32, i32
}

// CHECK-LABEL: --- Running 'nested':
func.func @nested() -> (i32, i32) {
  %c = tfrt.constant.i32 3
  %a, %b = tfrt.call @both(%c) : (i32) -> (i32, i32)
  // CHECK-NEXT: 'nested' returned 3,12
  tfrt.return %a, %b : i32, i32
}

// CHECK-LABEL: --- Running 'no_result_call':
func.func @no_result_call() {
  %c = tfrt.constant.i32 1
  tfrt.call @identity(%c) : (i32) -> i32
  tfrt.return
}
// CHECK-NOT: returned
