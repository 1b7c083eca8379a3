//! `tfrt_test.*` kernels run from MLIR text.

use crate::kernels::test_support::{QUEUES, run, run_with_args, serial};
use crate::runtime::{AsyncValue, Chain};

#[test]
fn hello_strings_and_counting() {
    let _serial = serial();
    let src = r#"
func.func @f() -> (i32, i32, i32, i64, i1, i1) {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain
  %x = "tfrt_test.get_string"() { value = "bark" } : () -> !tfrt.string
  %y = "tfrt_test.get_string"() { value = "rarf" } : () -> !tfrt.string
  %ch2 = "tfrt_test.print_string"(%x, %ch1) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %z = "tfrt_test.append_string"(%x, %y) : (!tfrt.string, !tfrt.string) -> !tfrt.string
  %ch3 = "tfrt_test.print_string"(%z, %ch2) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %c = tfrt.constant.i32 41
  %a1, %a2, %a3 = "tfrt_test.count3.i32"(%c) : (i32) -> (i32, i32, i32)
  %l = tfrt.constant.i64 1
  %l1, %l2, %l3 = "tfrt_test.count3.i64"(%l) : (i64) -> (i64, i64, i64)
  %same = "tfrt_test.string_equal"(%x, %x) : (!tfrt.string, !tfrt.string) -> i1
  %diff = "tfrt_test.string_equal"(%x, %y) : (!tfrt.string, !tfrt.string) -> i1
  %ch4 = "tfrt_test.print_bool"(%ch3, %diff) : (!tfrt.chain, i1) -> !tfrt.chain
  tfrt.return %a1, %a2, %a3, %l3, %same, %diff : i32, i32, i32, i64, i1, i1
}
"#;
    let r = run(src, "f", "s");
    assert_eq!(
        r.lines(),
        [
            "hello host executor!",
            "string = bark",
            "string = barkrarf",
            "false"
        ]
    );
    assert_eq!(r.result::<i32>(0), Ok(42));
    assert_eq!(r.result::<i32>(1), Ok(43));
    assert_eq!(r.result::<i32>(2), Ok(44));
    assert_eq!(r.result::<i64>(3), Ok(4));
    assert_eq!(r.result::<bool>(4), Ok(true));
    assert_eq!(r.result::<bool>(5), Ok(false));
}

#[test]
fn async_kernels_complete_on_the_queue() {
    let _serial = serial();
    let src = r#"
func.func @f(%x: i32) -> (i32, i32, i32, i32, i32, i64, i1, i32) {
  %one = "tfrt_test.async_constant.i32"() {value = 1 : i32} : () -> i32
  %a = "tfrt_test.async_add.i32"(%x, %one) : (i32, i32) -> i32
  %b = "tfrt_test.async_copy.i32"(%a) : (i32) -> i32
  %c = "tfrt_test.async_copy_2.i32"(%b) : (i32) -> i32
  %d = "tfrt_test.async_copy.with_delay.i32"(%c) : (i32) -> i32
  %e = "tfrt_test.copy.with_delay.i32"(%d) : (i32) -> i32
  %l = tfrt.constant.i64 7
  %m = "tfrt_test.async_copy.with_delay.i64"(%l) : (i64) -> i64
  %t = "tfrt_test.async_constant.i1"() {value = 1 : i1} : () -> i1
  %g = "tfrt_test.do.async"(%e, %one) ({
    ^bb0(%p: i32, %q: i32):
      %s = tfrt.add.i32 %p, %q
      tfrt.return %s : i32
  }) : (i32, i32) -> i32
  tfrt.return %a, %b, %c, %d, %e, %m, %t, %g : i32, i32, i32, i32, i32, i64, i1, i32
}
"#;
    for queue in QUEUES {
        let r = run_with_args(src, "f", queue, &[AsyncValue::available(10i32)]);
        for i in 0..5 {
            assert_eq!(r.result::<i32>(i), Ok(11), "result {i} on {queue}");
        }
        assert_eq!(r.result::<i64>(5), Ok(7));
        assert_eq!(r.result::<bool>(6), Ok(true));
        assert_eq!(r.result::<i32>(7), Ok(12));
        assert!(r.errors.is_empty(), "{:?}", r.errors);
    }
}

#[test]
fn errors_reported_now_and_later() {
    let _serial = serial();
    let src = r#"
func.func @fail() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32
  tfrt.return %x : i32
}
func.func @partial() -> (i32, i32) {
  %x, %y = "tfrt_test.partial_fail"() : () -> (i32, i32)
  tfrt.return %x, %y : i32, i32
}
func.func @concrete(%in: i32) -> i32 {
  %x = "tfrt_test.report_error_concrete_async"(%in) : (i32) -> i32
  tfrt.return %x : i32
}
func.func @indirect(%in: i32) -> i32 {
  %x = "tfrt_test.report_error_indirect_async"(%in) : (i32) -> i32
  tfrt.return %x : i32
}
func.func @later() -> i32 {
  %x = "tfrt_test.report_error_async"() : () -> i32
  tfrt.return %x : i32
}
"#;
    const LATER: &str = "something bad happened asynchronously";
    for queue in QUEUES {
        let r = run(src, "fail", queue);
        assert_eq!(r.result::<i32>(0), Err("something bad happened".into()));
        assert_eq!(r.error_messages(), ["something bad happened"]);
        let r = run(src, "partial", queue);
        assert_eq!(r.result::<i32>(0), Ok(1));
        assert_eq!(r.result::<i32>(1), Err("something bad happened".into()));
        for name in ["concrete", "indirect"] {
            let r = run_with_args(src, name, queue, &[AsyncValue::available(0i32)]);
            assert_eq!(r.result::<i32>(0), Ok(0), "{name}");
            assert!(r.errors.is_empty());
            let r = run_with_args(src, name, queue, &[AsyncValue::available(1i32)]);
            assert_eq!(r.result::<i32>(0), Err(LATER.into()), "{name}");
            assert_eq!(r.error_messages(), [LATER]);
            assert_eq!(
                r.errors[0].location.as_ref().unwrap().line,
                11 + 4 * (name == "indirect") as u32
            );
        }
        let r = run(src, "later", queue);
        assert_eq!(r.result::<i32>(0), Err(LATER.into()));
        assert_eq!(r.error_messages(), [LATER]);
    }
}

#[test]
fn cancel_skips_later_kernels() {
    let _serial = serial();
    let src = r#"
func.func @f() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %x, %ch1 = "tfrt_test.cancel"(%ch0) : (!tfrt.chain) -> (i32, !tfrt.chain)
  %ch2 = tfrt.print.i32 %x, %ch1
  tfrt.return %ch2 : !tfrt.chain
}
func.func @repeat() -> i32 {
  %n = tfrt.constant.i32 5
  %ch0 = tfrt.new.chain
  %v0 = tfrt.constant.i32 0
  %ch1, %v1 = tfrt.repeat.i32 %n, %ch0, %v0 : !tfrt.chain, i32 {
    %ch2 = tfrt.print.i32 %v0, %ch0
    %x, %ch3 = "tfrt_test.cancel"(%ch2) : (!tfrt.chain) -> (i32, !tfrt.chain)
    tfrt.return %ch3, %x : !tfrt.chain, i32
  }
  tfrt.return %v1 : i32
}
"#;
    let r = run(src, "f", "s");
    assert!(r.output.is_empty());
    assert_eq!(r.result::<Chain>(0), Err("Cancelled".into()));
    let r = run(src, "repeat", "s");
    assert_eq!(r.lines(), ["int32 = 0"]);
    assert_eq!(r.result::<i32>(0), Err("Cancelled".into()));
}

#[test]
fn atomics_count_concurrent_increments() {
    let _serial = serial();
    let src = r#"
func.func @f() -> i32 {
  %a = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %c1 = "tfrt_test.atomic.inc.i32"(%a) : (!test.atomic.i32) -> !tfrt.chain
  %c2 = "tfrt_test.atomic.inc.i32"(%a) : (!test.atomic.i32) -> !tfrt.chain
  %five = tfrt.constant.i32 5
  %c3 = "tfrt_test.atomic.add.i32"(%a, %five) : (!test.atomic.i32, i32) -> !tfrt.chain
  %ch = tfrt.merge.chains %c1, %c2, %c3 : !tfrt.chain, !tfrt.chain, !tfrt.chain
  %v, %ch1 = "tfrt_test.atomic.get.i32"(%a, %ch) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  tfrt.return %v : i32
}
"#;
    for queue in QUEUES {
        assert_eq!(run(src, "f", queue).result::<i32>(0), Ok(7));
    }
}

#[test]
fn forwarding_kernels_share_values() {
    let _serial = serial();
    let src = r#"
func.func @f(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32) {
  %ch = tfrt.new.chain
  %a = "tfrt_test.identity"(%ch, %x) : (!tfrt.chain, i32) -> i32
  %b, %c = "tfrt_test.share_to_two"(%y) : (i32) -> (i32, i32)
  %d = "tfrt_test.make_indirect"(%x) : (i32) -> i32
  %e, %f = "tfrt_test.multi_arg_result"(%x, %y) : (i32, i32) -> (i32, i32)
  %s = "tfrt_test.sum"(%x, %y, %a) : (i32, i32, i32) -> i32
  tfrt.return %a, %b, %c, %d, %e, %f, %s : i32, i32, i32, i32, i32, i32, i32
}
"#;
    let args = [AsyncValue::available(3i32), AsyncValue::available(4i32)];
    let r = run_with_args(src, "f", "s", &args);
    let got: Vec<_> = (0..7).map(|i| r.result::<i32>(i)).collect();
    assert_eq!(got, [Ok(3), Ok(4), Ok(4), Ok(3), Ok(3), Ok(4), Ok(10)]);
}

#[test]
fn uniqueness_and_thread_ids() {
    let _serial = serial();
    let src = r#"
func.func @unique() -> (i1, i1) {
  %a = tfrt.constant.i32 1
  %u = "tfrt_test.get_uniqueness"(%a) : (i32) -> i1
  tfrt.return %u, %u : i1, i1
}
func.func @shared(%a: i32) -> i1 {
  %u = "tfrt_test.get_uniqueness"(%a) : (i32) -> i1
  tfrt.return %u : i1
}
func.func @tid() -> (i32, i32) {
  %a = "tfrt_test.get_thread_id"() : () -> i32
  %b = "tfrt_test.get_thread_id"() : () -> i32
  tfrt.return %a, %b : i32, i32
}
"#;
    let r = run(src, "unique", "s");
    assert_eq!(r.result::<bool>(0), Ok(true));
    // The caller keeps a reference to the argument.
    let r = run_with_args(src, "shared", "s", &[AsyncValue::available(1i32)]);
    assert_eq!(r.result::<bool>(0), Ok(false));
    let r = run(src, "tid", "s");
    assert_eq!(r.result::<i32>(0), r.result::<i32>(1));
}

#[test]
fn resources_and_shared_contexts() {
    let _serial = serial();
    let src = r#"
func.func @f() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  %res, %c1 = "tfrt_test.allocate_resource"(%c0) : (!tfrt.chain) -> (!tfrt.test.resource, !tfrt.chain)
  %c2 = "tfrt_test.deallocate_resource"(%res, %c1) : (!tfrt.test.resource, !tfrt.chain) -> !tfrt.chain
  %n1, %c3 = "tfrt_test.use_sample_shared_context"(%c2) : (!tfrt.chain) -> (!tfrt.string, !tfrt.chain)
  %n2, %c4 = "tfrt_test.use_sample_shared_context"(%c2) : (!tfrt.chain) -> (!tfrt.string, !tfrt.chain)
  %c5 = "tfrt_test.print_string"(%n1, %c3) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  %c6 = "tfrt_test.print_string"(%n2, %c5) : (!tfrt.string, !tfrt.chain) -> !tfrt.chain
  tfrt.return %c6 : !tfrt.chain
}
func.func @cancelled() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  %res, %c1 = "tfrt_test.allocate_resource"(%c0) : (!tfrt.chain) -> (!tfrt.test.resource, !tfrt.chain)
  %x, %c2 = "tfrt_test.cancel"(%c1) : (!tfrt.chain) -> (i32, !tfrt.chain)
  %c3 = "tfrt_test.deallocate_resource"(%res, %c2) : (!tfrt.test.resource, !tfrt.chain) -> !tfrt.chain
  tfrt.return %c3 : !tfrt.chain
}
func.func @flat() -> (!tfrt.string, i32, i32, f32) {
  %a, %b, %c, %d = "tfrt_test.flat"() { value = [["string", [1 : i32, 0 : i32]], [1.0 : f32]]} : () -> (!tfrt.string, i32, i32, f32)
  tfrt.return %a, %b, %c, %d : !tfrt.string, i32, i32, f32
}
func.func @bad_flat() -> (!tfrt.string, i32, i32, f32) {
  %a, %b, %c, %d = "tfrt_test.flat"() { value = [1 : i32, 2 : i32] } : () -> (!tfrt.string, i32, i32, f32)
  tfrt.return %a, %b, %c, %d : !tfrt.string, i32, i32, f32
}
"#;
    let r = run(src, "f", "s");
    let lines = r.lines();
    assert_eq!(
        lines[..3],
        [
            "Allocated TestResource",
            "Destroyed TestResource",
            "tfrt_test.deallocate_resource done"
        ]
    );
    assert!(
        lines[3].starts_with("string = sample_shared_context"),
        "{lines:?}"
    );
    assert_eq!(lines[3], lines[4], "one shared context per host");
    let r = run(src, "cancelled", "s");
    assert_eq!(
        r.lines(),
        ["Allocated TestResource", "Destroyed TestResource"]
    );
    assert_eq!(r.result::<Chain>(0), Err("Cancelled".into()));
    let r = run(src, "flat", "s");
    assert_eq!(r.result::<String>(0), Ok("string".into()));
    assert_eq!(r.result::<i32>(1), Ok(1));
    assert_eq!(r.result::<i32>(2), Ok(0));
    assert_eq!(r.result::<f32>(3), Ok(1.0));
    let r = run(src, "bad_flat", "s");
    let message = r.result::<i32>(1).unwrap_err();
    assert!(message.contains("tfrt_test.flat"), "{message}");
}

#[test]
fn sleeps_print_after_the_blocking_work() {
    let _serial = serial();
    let src = r#"
func.func @f() -> !tfrt.chain {
  %t = tfrt.constant.i32 100
  %ch = "tfrt_test.blocking.usleep"(%t) : (i32) -> !tfrt.chain
  "tfrt_test.usleep"(%t) : (i32) -> ()
  tfrt.return %ch : !tfrt.chain
}
"#;
    let r = run(src, "f", "mstd:1,2");
    assert_eq!(r.result::<Chain>(0), Ok(Chain));
    // The result chain waits for the blocking sleep; the fire-and-forget
    // sleep may finish later, so look for at least the first.
    assert!(
        r.output.contains("Slept for 100 microseconds\n"),
        "{}",
        r.output
    );
}

#[test]
fn sizes_and_durations_from_the_program_are_checked() {
    let _serial = serial();
    let src = r#"
func.func @sleep(%us: i32) -> !tfrt.chain {
  %done = "tfrt_test.blocking.usleep"(%us) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}
func.func @fire_and_forget(%us: i32) {
  "tfrt_test.usleep"(%us) : (i32) -> ()
  tfrt.return
}
func.func @doubling(%n: i32) -> !tfrt.string {
  %s0 = "tfrt_test.get_string"() { value = "0123456789abcdef" } : () -> !tfrt.string
  %s = tfrt.repeat.i32 %n, %s0 : !tfrt.string {
    %t = "tfrt_test.append_string"(%s0, %s0) : (!tfrt.string, !tfrt.string) -> !tfrt.string
    tfrt.return %t : !tfrt.string
  }
  tfrt.return %s : !tfrt.string
}
"#;
    for queue in QUEUES {
        let started = std::time::Instant::now();
        for us in [i32::MAX, super::MAX_SLEEP_MICROS + 1, -1] {
            let r = run_with_args(src, "sleep", queue, &[AsyncValue::available(us)]);
            assert_eq!(
                r.result::<Chain>(0).unwrap_err(),
                format!("cannot sleep {us} microseconds: durations run from 0 to 10000000")
            );
            let r = run_with_args(src, "fire_and_forget", queue, &[AsyncValue::available(us)]);
            assert_eq!(
                r.error_messages(),
                [format!(
                    "cannot sleep {us} microseconds: durations run from 0 to 10000000"
                )]
            );
        }
        // Nothing slept.
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        let r = run_with_args(src, "sleep", queue, &[AsyncValue::available(1000)]);
        assert_eq!(r.result::<Chain>(0), Ok(Chain));
        // A string doubled 30 times would be 16 GiB; 22 times is 64 MiB,
        // the most allowed.
        let r = run_with_args(src, "doubling", queue, &[AsyncValue::available(30)]);
        assert_eq!(
            r.result::<String>(0).unwrap_err(),
            "appending makes a string of 134217728 bytes, more than the 67108864 allowed"
        );
        let r = run_with_args(src, "doubling", queue, &[AsyncValue::available(3)]);
        assert_eq!(r.result::<String>(0).map(|s| s.len()), Ok(128));
    }
}
