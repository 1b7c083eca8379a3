// With no allocator named, `bef run` checks leaks, as the reference runner
// does: a function that leaves an allocation behind gets the allocator's
// profile and the leak on standard output, and the run fails. The program
// also arrives on standard input, with no file named.
// RUN: not bef run %s | FileCheck %s
// RUN: bef translate --mlir-to-bef %s | not bef_executor_lite | FileCheck %s
// RUN: bef run --host-allocator malloc %s | FileCheck %s --check-prefix=MALLOC

// CHECK: Choosing memory leak check allocator.
// MALLOC: Choosing malloc.
// CHECK-LABEL: --- Running 'keeps_two':
// MALLOC-LABEL: --- Running 'keeps_two':
func.func @keeps_two() -> () {
  "tfrt_test.memory_leak_one_int32"() : () -> ()
  "tfrt_test.memory_leak_one_int32"() : () -> ()
  tfrt.return
}
// CHECK-NEXT: HostAllocator profile:
// CHECK-NEXT: Current number of allocations = 2
// CHECK-NEXT: Max number of allocations = 2
// CHECK-NEXT: Total number of allocations = 2
// CHECK-NEXT: Current number of bytes allocated = 8
// CHECK-NEXT: Max number of bytes allocated = 8
// CHECK-NEXT: Memory leak detected: 2 alive allocations, 8 alive bytes
// MALLOC-NOT: Memory leak
