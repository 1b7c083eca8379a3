// Dense host tensors take their buffers from the host allocator: the
// fixed-size test allocator counts each one (its elements and a 64-byte
// buffer header) against its 1 KiB, refuses what would exceed it with the
// error value "Cannot allocate tensor", and gets every buffer back; the
// leak-check allocator finds nothing left once the results are released.
// RUN: not bef run --host-allocator test_fixed_size_1k %s 2>&1 | FileCheck %s --check-prefixes=CHECK,FIXED
// RUN: bef run --host-allocator leak_check_allocator %s 2>&1 | FileCheck %s --check-prefixes=CHECK,LEAK --implicit-check-not=Memory

// Three tensors of 400 bytes, all alive until the results are released:
// whichever is created last does not fit.
// CHECK-LABEL: --- Running 'budget':
// FIXED-NEXT: Allocating 464 bytes. 560 remaining.
// FIXED-NEXT: Allocating 464 bytes. 96 remaining.
// FIXED-NEXT: Attempted to allocate 464 bytes. However current capacity is only 96.
// FIXED-NEXT: error: runtime error: Cannot allocate tensor
// FIXED: 'budget' returned
// FIXED-SAME: <<error: Cannot allocate tensor>>
// FIXED-NEXT: Freeing 464 bytes. 560 available.
// FIXED-NEXT: Freeing 464 bytes. 1024 available.
// LEAK-NEXT: 'budget' returned !t.tensor value,!t.tensor value,!t.tensor value
func.func @budget() -> (!t.tensor, !t.tensor, !t.tensor) {
  %a = tfrt_dht.create_uninitialized_tensor.i32.1 [100 : i64]
  %b = tfrt_dht.create_uninitialized_tensor.i32.2 [10 : i64, 10 : i64]
  %c = tfrt_dht.create_uninitialized_tensor.f32.1 [100 : i64]
  tfrt.return %a, %b, %c : !t.tensor, !t.tensor, !t.tensor
}

// A buffer released by its last user returns to the budget, so a second
// tensor of 864 bytes fits once the first is gone.
// CHECK-LABEL: --- Running 'reuse':
// FIXED-NEXT: Allocating 864 bytes. 160 remaining.
// CHECK: DenseHostTensor dtype = f32, shape = [200], values = [1.500000e+00,
// FIXED-NEXT: Freeing 864 bytes. 1024 available.
// FIXED-NEXT: Allocating 864 bytes. 160 remaining.
// CHECK-NEXT: DenseHostTensor dtype = f32, shape = [200], values = [2.500000e+00,
// FIXED-NEXT: Freeing 864 bytes. 1024 available.
// CHECK-NEXT: 'reuse' returned !tfrt.chain value
func.func @reuse() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.f32.1 [200 : i64]
  %ch1 = tfrt_dht.fill_tensor_with_constant.f32 %a, %ch0 1.5 : f32
  %ch2 = tfrt_dht.print_tensor %a, %ch1
  %ch3 = tfrt.call @second(%ch2) : (!tfrt.chain) -> !tfrt.chain
  tfrt.return %ch3 : !tfrt.chain
}

func.func @second(%ch0: !tfrt.chain) -> !tfrt.chain {
  %b = tfrt_dht.create_uninitialized_tensor.f32.1 [200 : i64]
  %ch1 = tfrt_dht.fill_tensor_with_constant.f32 %b, %ch0 2.5 : f32
  %ch2 = tfrt_dht.print_tensor %b, %ch1
  tfrt.return %ch2 : !tfrt.chain
}
