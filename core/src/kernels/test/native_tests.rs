//! The test native functions called from MLIR text.

use crate::kernels::test_support::{QUEUES, run, serial};

const SRC: &str = r#"
func.func private @native_add(%a: i32, %b: i32) -> i32 attributes {tfrt.native}
func.func private @native_async_add(%a: i32, %b: i32) -> i32 attributes {tfrt.native}

func.func @call_native_add() -> i32 {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  %r = tfrt.call @native_add(%a, %b) : (i32, i32) -> i32
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.print.i32 %r, %ch0
  tfrt.return %r : i32
}

func.func @call_native_async_add() -> i32 {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  %r = tfrt.call @native_async_add(%a, %b) : (i32, i32) -> i32
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.print.i32 %r, %ch0
  tfrt.return %r : i32
}

func.func @call_native_add_with_unavailable_input() -> i32 {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 1
  %c = "tfrt_test.do.async"(%a, %b) ({
    ^bb0(%p: i32, %q: i32):
      %y = tfrt.add.i32 %p, %q
      tfrt.return %y : i32
  }) : (i32, i32) -> i32
  %r = tfrt.call @native_add(%a, %c) : (i32, i32) -> i32
  %ch0 = tfrt.new.chain
  %ch1 = tfrt.print.i32 %r, %ch0
  tfrt.return %r : i32
}

func.func @async_add_of_unavailable() -> i32 {
  %a = tfrt.constant.i32 40
  %b = "tfrt_test.async_constant.i32"() {value = 2 : i32} : () -> i32
  %r = tfrt.call @native_async_add(%a, %b) : (i32, i32) -> i32
  tfrt.return %r : i32
}

func.func @add_of_error() -> i32 {
  %a = tfrt.constant.i32 1
  %e = "tfrt_test.fail"() : () -> i32
  %r = tfrt.call @native_add(%a, %e) : (i32, i32) -> i32
  tfrt.return %r : i32
}

func.func @wrong_types() -> i32 {
  %a = tfrt.constant.i64 1
  %b = tfrt.constant.i64 2
  %r = tfrt.call @native_add(%a, %b) : (i64, i64) -> i32
  tfrt.return %r : i32
}

func.func private @native_error() -> i32 attributes {tfrt.native}
"#;

#[test]
fn native_functions_add_print_and_fail() {
    let _serial = serial();
    for queue in QUEUES {
        for name in [
            "call_native_add",
            "call_native_async_add",
            "call_native_add_with_unavailable_input",
        ] {
            let r = run(SRC, name, queue);
            assert_eq!(r.lines(), ["int32 = 3"], "{name} on {queue}");
            assert_eq!(r.result::<i32>(0), Ok(3), "{name} on {queue}");
            assert!(r.errors.is_empty(), "{:?}", r.errors);
        }
        let r = run(SRC, "async_add_of_unavailable", queue);
        assert_eq!(r.result::<i32>(0), Ok(42));
        let r = run(SRC, "add_of_error", queue);
        assert_eq!(r.result::<i32>(0), Err("something bad happened".into()));
        let r = run(SRC, "wrong_types", queue);
        let message = r.result::<i32>(0).unwrap_err();
        assert!(
            message.contains("native function 'native_add' argument #0"),
            "{message}"
        );
        // Called directly (as the runner does): an error result, not a
        // reported diagnostic.
        let r = run(SRC, "native_error", queue);
        assert_eq!(r.result::<i32>(0), Err("something bad happened".into()));
        assert!(r.errors.is_empty(), "{:?}", r.errors);
    }
}
