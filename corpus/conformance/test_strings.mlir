// String kernels: get_string from an attribute, print_string, append_string.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'strings':
func.func @strings() -> !tfrt.chain {
  %x = "tfrt_test.get_string"() { value = "woof" } : () -> !tfrt.string
  %y = "tfrt_test.get_string"() { value = "-meow" } : () -> !tfrt.string
  %ch0 = tfrt.new.chain
  // CHECK-NEXT: string = woof
  %ch1 = "tfrt_test.print_string"(%x, %ch0) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %z = "tfrt_test.append_string"(%x, %y) : (!tfrt.string, !tfrt.string) -> !tfrt.string
  // CHECK-NEXT: string = woof-meow
  %ch2 = "tfrt_test.print_string"(%z, %ch1) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %e = "tfrt_test.get_string"() { value = "" } : () -> !tfrt.string
  // CHECK-NEXT: {{^}}string = {{$}}
  %ch3 = "tfrt_test.print_string"(%e, %ch2) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: 'strings' returned !tfrt.chain value
  tfrt.return %ch3 : !tfrt.chain
}
