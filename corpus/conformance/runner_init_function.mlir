// --test-init-function runs first, and is not run again among the others.
// RUN: bef run --test-init-function __init__ %s | FileCheck %s
// RUN: bef run --test_init_function=__init__ --functions=print_hello,print_bye %s | FileCheck %s
// RUN: bef run -test_init_function=__init__ --work-queue mstd:2 %s | FileCheck %s

// CHECK: --- Running '__init__':
// CHECK-NEXT: string = initializing!
// CHECK-NEXT: --- Running 'print_hello':
// CHECK-NEXT: hello host executor!
// CHECK-NEXT: --- Running 'print_bye':
// CHECK-NEXT: string = bye!
// CHECK-NOT: --- Running '__init__'

func.func @print_hello() {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
  tfrt.return
}

func.func @print_bye() {
  %ch0 = tfrt.new.chain
  %s = "tfrt_test.get_string"() { value = "bye!" } : () -> !tfrt.string
  %ch1 = "tfrt_test.print_string"(%s, %ch0) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return
}

func.func @__init__() {
  %ch0 = tfrt.new.chain
  %s = "tfrt_test.get_string"() { value = "initializing!" } : () -> !tfrt.string
  %ch1 = "tfrt_test.print_string"(%s, %ch0) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return
}
