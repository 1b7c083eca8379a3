// --enable-tracing prints the reference's debug trace after the run's own
// output: the run's scope at the default level, and at the debug level
// each function the runner calls and each kernel, nested as they ran.
// A kernel skipped for an error argument is not traced.
// RUN: bef run --verify-diagnostics --enable-tracing --tracing-level debug %s | FileCheck %s --check-prefix=DEBUG
// RUN: bef_executor --enable_tracing --tracing_level=debug %s | FileCheck %s --check-prefix=DEBUG
// RUN: bef run --verify-diagnostics --enable-tracing %s | FileCheck %s --check-prefix=DEFAULT
// RUN: bef run --verify-diagnostics %s | FileCheck %s --check-prefix=OFF

func.func @add_one(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}

func.func @traced() -> i32 {
  %a = tfrt.constant.i32 41
  %b = tfrt.call @add_one(%a) : (i32) -> i32
  tfrt.return %b : i32
}

func.func @skipped() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32 // expected-error {{something bad happened}}
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}

// DEBUG: --- Not running 'add_one' because it has arguments.
// DEBUG-NEXT: --- Running 'traced':
// DEBUG-NEXT: 'traced' returned 42
// DEBUG-NEXT: --- Running 'skipped':
// DEBUG-NEXT: 'skipped' returned <<error: something bad happened>>
// DEBUG-NEXT: Scope:Bef Executor
// DEBUG-NEXT: Scope:Function: add_one
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: Scope:Function: traced
// DEBUG-NEXT: Scope:tfrt.constant.i32
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: Scope:tfrt.call
// DEBUG-NEXT: Scope:tfrt.constant.i32
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: Scope:tfrt.add.i32
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: Scope:Function: skipped
// DEBUG-NEXT: Scope:tfrt_test.fail
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: Scope:tfrt.constant.i32
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: End Scope
// DEBUG-NEXT: End Scope
// DEBUG-NOT: Scope

// DEFAULT: 'skipped' returned
// DEFAULT-NEXT: Scope:Bef Executor
// DEFAULT-NEXT: End Scope
// DEFAULT-NOT: Scope

// OFF-NOT: Scope
