//! Sync-function kernels, `tfrt_test.quiesce` and the async value
//! self-checks, run from MLIR text.

use crate::kernels::test_support::{QUEUES, run, serial};

fn attributes(n: i32) -> String {
    (0..n)
        .map(|i| {
            format!(
                "v{i} = {} : i32",
                if i <= 10 { i } else { (i - 1) % 10 + 1 }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn sync_basics() {
    let _serial = serial();
    let src = format!(
        r#"
func.func @basic.i32() -> i32 attributes {{tfrt.sync}} {{
  %x = "tfrt.constant_s.i32"() {{value = 42 : i32}} : () -> i32
  %y = "tfrt.constant_s.i32"() {{value = 1 : i32}} : () -> i32
  %z = "tfrt.add_s.i32"(%x, %y) : (i32, i32) -> i32
  tfrt.return %z : i32
}}
func.func @test_fail() -> i32 attributes {{tfrt.sync}} {{
  %x = "tfrt_test.fail_s"() : () -> i32
  tfrt.return %x : i32
}}
func.func @test_error_result() -> i32 attributes {{tfrt.sync}} {{
  %x = "tfrt_test.error_s"() : () -> i32
  tfrt.return %x : i32
}}
func.func @sums() -> (i32, i32, i32) attributes {{tfrt.sync}} {{
  %0 = "tfrt.constant_s.i32"() {{value = 0 : i32}} : () -> i32
  %1 = "tfrt.constant_s.i32"() {{value = 1 : i32}} : () -> i32
  %2 = "tfrt.constant_s.i32"() {{value = 2 : i32}} : () -> i32
  %3 = "tfrt.constant_s.i32"() {{value = 3 : i32}} : () -> i32
  %x = "tfrt_test.sync_sum"(%0, %1, %2, %3) : (i32, i32, i32, i32) -> i32
  %y = "tfrt_test.sync_sum2"(%3, %3) : (i32, i32) -> i32
  %z = "tfrt_test.sync_sum"(%2) : (i32) -> i32
  tfrt.return %x, %y, %z : i32, i32, i32
}}
func.func @test_many_attributes() -> i32 attributes {{tfrt.sync}} {{
  %x = "tfrt_test.sync_sum_attributes"() {{{}}} : () -> i32
  tfrt.return %x : i32
}}
func.func @bad_sum() -> i32 {{
  %0 = tfrt.constant.i32 1
  %1 = tfrt.constant.i64 2
  %x = "tfrt_test.sync_sum"(%0, %1) : (i32, i64) -> i32
  tfrt.return %x : i32
}}
func.func @two_results() -> i32 {{
  %x, %y = "tfrt_test.sync_sum_attributes"() {{a = 1 : i32, b = 2 : i32}} : () -> (i32, i32)
  tfrt.return %y : i32
}}
"#,
        attributes(31)
    );
    for queue in QUEUES {
        let r = run(&src, "basic.i32", queue);
        assert_eq!(r.result::<i32>(0), Ok(43));
        for name in ["test_fail", "test_error_result"] {
            let r = run(&src, name, queue);
            assert_eq!(r.result::<i32>(0), Err("something bad happened".into()));
            assert_eq!(r.error_messages(), ["something bad happened"], "{name}");
        }
        let r = run(&src, "sums", queue);
        assert_eq!(r.result::<i32>(0), Ok(6));
        assert_eq!(r.result::<i32>(1), Ok(6));
        assert_eq!(r.result::<i32>(2), Ok(2));
        let r = run(&src, "test_many_attributes", queue);
        assert_eq!(r.result::<i32>(0), Ok(165));
        let r = run(&src, "bad_sum", queue);
        let message = r.result::<i32>(0).unwrap_err();
        assert!(message.starts_with("argument #1:"), "{message}");
        let r = run(&src, "two_results", queue);
        assert_eq!(
            r.error_messages(),
            ["'tfrt_test.sync_sum_attributes' returns 1 result but the program declares 2"]
        );
    }
}

#[test]
fn quiesce_finishes_queued_work() {
    let _serial = serial();
    let src = r#"
func.func @async_incs(%counter: !test.atomic.i32, %ch: !tfrt.chain) -> !tfrt.chain {
  %c1 = "tfrt_test.atomic.inc.i32"(%counter, %ch) : (!test.atomic.i32, !tfrt.chain) -> !tfrt.chain
  tfrt.return %c1 : !tfrt.chain
}
func.func @after_quiesce() -> i32 {
  %n = tfrt.constant.i32 64
  %counter = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %res = tfrt.repeat.i32 %n, %counter : !test.atomic.i32 {
    %ch = tfrt.new.chain
    %d = "tfrt_test.do.async"(%counter, %ch) ({
      ^bb0(%c: !test.atomic.i32, %k: !tfrt.chain):
        %r = tfrt.call @async_incs(%c, %k) : (!test.atomic.i32, !tfrt.chain) -> !tfrt.chain
        tfrt.return %r : !tfrt.chain
    }) : (!test.atomic.i32, !tfrt.chain) -> !tfrt.chain
    tfrt.return %counter : !test.atomic.i32
  }
  %q = "tfrt_test.quiesce"() : () -> !tfrt.chain
  %v:2 = "tfrt_test.atomic.get.i32"(%res, %q) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  tfrt.return %v#0 : i32
}
"#;
    for queue in QUEUES {
        let r = run(src, "after_quiesce", queue);
        assert_eq!(r.result::<i32>(0), Ok(64), "{queue}");
        assert!(r.errors.is_empty(), "{:?}", r.errors);
    }
}

#[test]
fn async_value_self_checks() {
    let _serial = serial();
    let src = r#"
func.func @f() -> (!tfrt.string, !tfrt.string) {
  %a = "tfrt_test.async_value_get"() : () -> !tfrt.string
  %b = "tfrt_test.async_value_ref"() : () -> !tfrt.string
  tfrt.return %a, %b : !tfrt.string, !tfrt.string
}
"#;
    for queue in QUEUES {
        let r = run(src, "f", queue);
        assert_eq!(
            r.result::<String>(0).as_deref(),
            Ok("base1:base2:final_class:3")
        );
        assert_eq!(
            r.result::<String>(1).as_deref(),
            Ok("available:2;unavailable;(3);available:3;unavailable;available:4")
        );
    }
}

#[test]
fn logging_writes_each_enabled_severity() {
    let _serial = serial();
    let src = r#"
func.func @test_logging() -> !tfrt.chain {
  %x = "tfrt_test.get_string"() { value = "hello world" } : () -> !tfrt.string
  %c1 = tfrt.new.chain
  %c2 = "tfrt_test.logging" (%x, %c1) : (!tfrt.string, !tfrt.chain) -> (!tfrt.chain)
  tfrt.return %c2 : !tfrt.chain
}
func.func @not_a_string() -> !tfrt.chain {
  %x = tfrt.constant.i32 1
  %c2 = "tfrt_test.logging" (%x) : (i32) -> (!tfrt.chain)
  tfrt.return %c2 : !tfrt.chain
}
"#;
    for queue in QUEUES {
        let r = run(src, "test_logging", queue);
        assert_eq!(
            r.lines(),
            [
                "I tfrt_test.logging] from TFRT_LOG(INFO): hello world",
                "W tfrt_test.logging] from TFRT_LOG(WARNING): hello world",
                "E tfrt_test.logging] from TFRT_LOG(ERROR): hello world",
                "I tfrt_test.logging] from TFRT_LOG_IF(INFO, true): hello world",
                "W tfrt_test.logging] from TFRT_LOG_IF(WARNING, true): hello world",
                "E tfrt_test.logging] from TFRT_LOG_IF(ERROR, true): hello world",
            ]
        );
        let r = run(src, "not_a_string", queue);
        assert!(r.output.is_empty());
        assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    }
}
