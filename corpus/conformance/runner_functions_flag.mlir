// --functions runs only the named functions, in the order given;
// the reference spelling takes `=`.
// RUN: bef run --functions third,first %s | FileCheck %s --check-prefix=SOME
// RUN: bef run --functions=second %s | FileCheck %s --check-prefix=ONE
// RUN: bef run -functions=first %s | FileCheck %s --check-prefix=DASH
// RUN: not bef run --functions missing %s 2>&1 | FileCheck %s --check-prefix=MISSING

// SOME-NOT: 'second'
// SOME: --- Running 'third':
// SOME-NEXT: 'third' returned 3
// SOME-NEXT: --- Running 'first':
// SOME-NEXT: 'first' returned 1
// SOME-NOT: 'second'

// ONE-NOT: 'first'
// ONE: --- Running 'second':
// ONE-NEXT: 'second' returned 2
// ONE-NOT: 'third'

// DASH: --- Running 'first':
// DASH-NOT: --- Running

// MISSING: missing

func.func @first() -> i32 {
  %x = tfrt.constant.i32 1
  tfrt.return %x : i32
}

func.func @second() -> i32 {
  %x = tfrt.constant.i32 2
  tfrt.return %x : i32
}

func.func @third() -> i32 {
  %x = tfrt.constant.i32 3
  tfrt.return %x : i32
}
