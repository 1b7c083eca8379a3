// tfrt.cond calls one of two functions by an i1.
// RUN: bef run --work-queue s %s | FileCheck %s
// RUN: bef run --work-queue mstd:2 %s | FileCheck %s

func.func @negate(%x: i32) -> i32 {
  %z = tfrt.constant.i32 0
  %m = tfrt.constant.i32 -1
  %q, %r = tfrt.div.i32 %x, %m
  tfrt.return %q : i32
}

func.func @triple(%x: i32) -> i32 {
  %y = tfrt.add.i32 %x, %x
  %z = tfrt.add.i32 %y, %x
  tfrt.return %z : i32
}

// CHECK-LABEL: --- Running 'cond_test':
func.func @cond_test() -> (i32, i32) {
  %a = tfrt.constant.i32 14
  %t = tfrt.constant.i1 1
  %f = tfrt.constant.i1 0
  %x = tfrt.cond %t @negate @triple (%a) : (i32) -> (i32)
  %y = tfrt.cond %f @negate @triple (%a) : (i32) -> (i32)
  // CHECK-NEXT: 'cond_test' returned -14,42
  tfrt.return %x, %y : i32, i32
}

func.func @say_yes(%ch: !tfrt.chain) -> !tfrt.chain {
  %s = "tfrt_test.get_string"() { value = "yes" } : () -> !tfrt.string
  %ch1 = "tfrt_test.print_string"(%s, %ch) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch1 : !tfrt.chain
}

func.func @say_no(%ch: !tfrt.chain) -> !tfrt.chain {
  %s = "tfrt_test.get_string"() { value = "no" } : () -> !tfrt.string
  %ch1 = "tfrt_test.print_string"(%s, %ch) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch1 : !tfrt.chain
}

// CHECK-LABEL: --- Running 'cond_side_effects':
func.func @cond_side_effects() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %one = tfrt.constant.i32 1
  %two = tfrt.constant.i32 2
  %c = tfrt.equal.i32 %one, %two
  %ch1 = tfrt.cond %c @say_yes @say_no (%ch0) : (!tfrt.chain) -> (!tfrt.chain)
  // CHECK-NEXT: string = no
  // CHECK-NEXT: 'cond_side_effects' returned !tfrt.chain value
  tfrt.return %ch1 : !tfrt.chain
}
