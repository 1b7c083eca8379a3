// A kernel that leaks an allocation fails the run under the leak-check
// allocator, and the report names the size.
// RUN: not bef run --host-allocator leak_check_allocator %s 2>&1 | FileCheck %s
// RUN: not bef run --host_allocator_type=leak_check_allocator %s 2>&1 | FileCheck %s

// CHECK: Choosing memory leak check allocator.
// CHECK: --- Running 'leak_one_int32':
// CHECK: Memory leak detected: 1 alive allocations, 4 alive bytes
func.func @leak_one_int32() {
  "tfrt_test.memory_leak_one_int32"() : () -> ()
  tfrt.return
}
