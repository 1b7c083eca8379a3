// get_thread_id: on the single-threaded queue every kernel runs on the
// caller's thread (id 0). On mstd only the shape of the ids is checked.
// RUN: bef run --work-queue s %s | FileCheck %s --check-prefix=SINGLE
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s --check-prefix=MULTI

// SINGLE-LABEL: --- Running 'thread_ids':
// MULTI-LABEL: --- Running 'thread_ids':
func.func @thread_ids() -> (i32, i32) {
  %ch = tfrt.new.chain
  %t0 = "tfrt_test.get_thread_id"(%ch) : (!tfrt.chain) -> i32
  %t1 = "tfrt_test.get_thread_id"(%ch) : (!tfrt.chain) -> i32
  tfrt.return %t0, %t1 : i32, i32
}
// SINGLE-NEXT: 'thread_ids' returned 0,0
// MULTI-NEXT: 'thread_ids' returned {{[0-9]+}},{{[0-9]+}}
