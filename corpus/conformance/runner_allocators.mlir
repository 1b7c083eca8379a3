// Each host allocator names itself and runs the program alike.
// RUN: bef run --host-allocator malloc %s | FileCheck %s --check-prefixes=CHECK,MALLOC
// RUN: bef run --host-allocator leak_check_allocator %s | FileCheck %s --check-prefixes=CHECK,LEAK
// RUN: bef run --host-allocator test_fixed_size_1k %s | FileCheck %s --check-prefixes=CHECK,FIXED
// RUN: bef run --host-allocator profiled_allocator %s | FileCheck %s --check-prefixes=CHECK,PROFILED
// RUN: bef run -host_allocator_type=test_fixed_size_1k %s | FileCheck %s --check-prefixes=CHECK,FIXED
// RUN: not bef run --host-allocator bogus %s

// MALLOC: Choosing malloc.
// LEAK: Choosing memory leak check allocator.
// FIXED: Choosing fixed size malloc.
// PROFILED: Choosing profiled allocator based on malloc.
// CHECK: --- Running 'allocate':
func.func @allocate() -> (i32, !tfrt.chain) {
  %a = tfrt.constant.i32 5
  %b = "tfrt_test.async_add.i32"(%a, %a) : (i32, i32) -> i32
  %s = "tfrt_test.get_string"() { value = "allocated" } : () -> !tfrt.string
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_string"(%s, %ch0) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return %b, %ch1 : i32, !tfrt.chain
}
// CHECK-NEXT: string = allocated
// CHECK-NEXT: 'allocate' returned 10,!tfrt.chain value
