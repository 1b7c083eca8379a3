// A resource is destroyed when deallocated explicitly, and also when
// cancellation skips the deallocation.
// RUN: bef run --work-queue s %s | FileCheck %s

// CHECK-LABEL: --- Running 'explicit_deallocation':
func.func @explicit_deallocation() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  // CHECK-NEXT: Allocated TestResource
  %res, %c1 = "tfrt_test.allocate_resource"(%c0) : (!tfrt.chain) -> (!test.resource, !tfrt.chain)
  // CHECK-NEXT: Destroyed TestResource
  // CHECK-NEXT: tfrt_test.deallocate_resource done
  %c2 = "tfrt_test.deallocate_resource"(%res, %c1) : (!test.resource, !tfrt.chain) -> !tfrt.chain
  tfrt.return %c2 : !tfrt.chain
}
// CHECK-NEXT: 'explicit_deallocation' returned !tfrt.chain value

// CHECK-LABEL: --- Running 'deallocation_cancelled':
func.func @deallocation_cancelled() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  // CHECK-NEXT: Allocated TestResource
  %res, %c1 = "tfrt_test.allocate_resource"(%c0) : (!tfrt.chain) -> (!test.resource, !tfrt.chain)
  %x, %c2 = "tfrt_test.cancel"(%c1) : (!tfrt.chain) -> (i32, !tfrt.chain)
  // CHECK-NOT: deallocate_resource done
  // CHECK: Destroyed TestResource
  %c3 = "tfrt_test.deallocate_resource"(%res, %c2) : (!test.resource, !tfrt.chain) -> !tfrt.chain
  tfrt.return %c3 : !tfrt.chain
}
// CHECK-NEXT: 'deallocation_cancelled' returned <<error: Cancelled>>
