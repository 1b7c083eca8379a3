// The leak-check allocator passes a program that frees everything,
// including values still held by async work when the function returns.
// RUN: bef run --host-allocator leak_check_allocator %s 2>&1 | FileCheck %s --implicit-check-not=leak
// RUN: bef run --host-allocator leak_check_allocator --work-queue mstd:2 %s 2>&1 | FileCheck %s --implicit-check-not=leak

// CHECK: Choosing memory leak check allocator.
// CHECK-LABEL: --- Running 'no_leak':
func.func @no_leak() -> (i32, !tfrt.chain) {
  %a = tfrt.constant.i32 2
  %b = "tfrt_test.async_add.i32"(%a, %a) : (i32, i32) -> i32
  %s = "tfrt_test.get_string"() { value = "kept" } : () -> !tfrt.string
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_string"(%s, %ch0) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return %b, %ch1 : i32, !tfrt.chain
}
// CHECK-NEXT: string = kept
// CHECK-NEXT: 'no_leak' returned 4,!tfrt.chain value
