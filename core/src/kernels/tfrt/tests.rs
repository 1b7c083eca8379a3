//! Basic and control-flow kernels run from MLIR text.

use crate::kernels::test_support::{QUEUES, run, run_with_args, serial};
use crate::kernels::{Bf16, F16};
use crate::runtime::{AsyncValue, Chain};

#[test]
fn constants_of_every_type() {
    let _serial = serial();
    let src = r#"
func.func @f() -> (i1, i1, i32, i64, ui32, ui64, f32, f64) {
  %a = tfrt.constant.i1 0
  %b = tfrt.constant.i1 1
  %c = tfrt.constant.i32 -7
  %d = tfrt.constant.i64 9000000000
  %e = tfrt.constant.ui32 4000000000
  %f = tfrt.constant.ui64 18000000000000000000
  %g = tfrt.constant.f32 2.5
  %h = tfrt.constant.f64 -0.25
  tfrt.return %a, %b, %c, %d, %e, %f, %g, %h : i1, i1, i32, i64, ui32, ui64, f32, f64
}
func.func @half() -> (f16, bf16) {
  %a = tfrt.constant.f16 1.0
  %b = tfrt.constant.bf16 -2.0
  tfrt.return %a, %b : f16, bf16
}
"#;
    let r = run(src, "f", "s");
    assert_eq!(r.result::<bool>(0), Ok(false));
    assert_eq!(r.result::<bool>(1), Ok(true));
    assert_eq!(r.result::<i32>(2), Ok(-7));
    assert_eq!(r.result::<i64>(3), Ok(9_000_000_000));
    assert_eq!(r.result::<u32>(4), Ok(4_000_000_000));
    assert_eq!(r.result::<u64>(5), Ok(18_000_000_000_000_000_000));
    assert_eq!(r.result::<f32>(6), Ok(2.5));
    assert_eq!(r.result::<f64>(7), Ok(-0.25));
    let r = run(src, "half", "s");
    assert_eq!(r.result::<F16>(0).map(F16::to_f32), Ok(1.0));
    assert_eq!(r.result::<Bf16>(1).map(Bf16::to_f32), Ok(-2.0));
}

#[test]
fn arithmetic_and_prints() {
    let _serial = serial();
    let src = r#"
func.func @f() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i32 42
  %c1 = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %c1
  %ch1 = tfrt.print.i32 %y, %ch0
  %q, %r = tfrt.div.i32 %y, %x
  %ch2 = tfrt.print.i32 %q, %ch1
  %ch3 = tfrt.print.i32 %r, %ch2
  %m = "tfrt.minus.i32"(%x, %y) : (i32, i32) -> i32
  %ch4 = tfrt.print.i32 %m, %ch3
  %l = tfrt.constant.i64 -5
  %l2 = tfrt.add.i64 %l, %l
  %ch5 = tfrt.print.i64 %l2, %ch4
  %one = tfrt.constant.f32 1.0
  %six = tfrt.constant.f32 6.0
  %seven = tfrt.add.f32 %one, %six
  %ch6 = tfrt.print.f32 %seven, %ch5
  %d1 = tfrt.constant.f64 1.5
  %d2 = tfrt.constant.f64 -3.0
  %p = "tfrt.multiply.f64"(%d1, %d2) : (f64, f64) -> f64
  %ch7 = tfrt.print.f64 %p, %ch6
  %mn = "tfrt.minimum.f32"(%six, %one) : (f32, f32) -> f32
  %ch8 = tfrt.print.f32 %mn, %ch7
  %dv = "tfrt.div.f64"(%d2, %d1) : (f64, f64) -> f64
  %ch9 = tfrt.print.f64 %dv, %ch8
  %t = tfrt.constant.i1 1
  %fa = tfrt.constant.i1 0
  %and = "tfrt.and.i1"(%t, %fa) : (i1, i1) -> i1
  %ch10 = tfrt.print.i1 %and, %ch9
  %ch11 = tfrt.print.i1 %t, %ch10
  tfrt.return %ch11 : !tfrt.chain
}
"#;
    for queue in QUEUES {
        let r = run(src, "f", queue);
        assert_eq!(
            r.lines(),
            [
                "int32 = 43",
                "int32 = 1",
                "int32 = 1",
                "int32 = -1",
                "int64 = -10",
                "f32 = 7.000000",
                "f64 = -4.500000",
                "f32 = 1.000000",
                "f64 = -2.000000",
                "int1 = 0",
                "int1 = 1",
            ],
            "queue {queue}"
        );
        assert_eq!(r.result::<Chain>(0), Ok(Chain));
        assert!(r.errors.is_empty());
    }
}

#[test]
fn division_by_zero_is_an_error() {
    let _serial = serial();
    let src = r#"
func.func @i() -> (i32, i32) {
  %zero = tfrt.constant.i32 0
  %x = tfrt.constant.i32 42
  %q, %r = tfrt.div.i32 %x, %zero
  tfrt.return %q, %r : i32, i32
}
func.func @f() -> f32 {
  %zero = tfrt.constant.f32 0.0
  %x = tfrt.constant.f32 1.0
  %q = "tfrt.div.f32"(%x, %zero) : (f32, f32) -> f32
  tfrt.return %q : f32
}
func.func @overflow() -> (i32, i32) {
  %min = tfrt.constant.i32 -2147483648
  %m1 = tfrt.constant.i32 -1
  %q, %r = tfrt.div.i32 %min, %m1
  tfrt.return %q, %r : i32, i32
}
"#;
    let r = run(src, "i", "s");
    assert_eq!(r.result::<i32>(0), Err("Divide by zero".into()));
    assert_eq!(r.result::<i32>(1), Err("Divide by zero".into()));
    assert_eq!(r.error_messages(), ["Divide by zero"]);
    assert_eq!(r.errors[0].location.as_ref().unwrap().line, 5);
    let r = run(src, "f", "s");
    assert_eq!(r.result::<f32>(0), Err("Divide by zero".into()));
    let r = run(src, "overflow", "s");
    assert_eq!(r.result::<i32>(0), Ok(i32::MIN));
    assert_eq!(r.result::<i32>(1), Ok(0));
}

#[test]
fn comparisons_and_casts() {
    let _serial = serial();
    let src = r#"
func.func @f(%a: i32, %b: i32, %big: i64, %x: f64) -> (i1, i1, i1, i1, f32, f64, i64, i64) {
  %e = "tfrt.equal.i32"(%a, %b) : (i32, i32) -> i1
  %le = "tfrt.lessequal.i32"(%a, %b) : (i32, i32) -> i1
  %e64 = "tfrt.equal.i64"(%big, %big) : (i64, i64) -> i1
  %le64 = "tfrt.lessequal.i64"(%big, %big) : (i64, i64) -> i1
  %f = "tfrt.cast.i64_to_f32"(%big) : (i64) -> f32
  %d = "tfrt.cast.i64_to_f64"(%big) : (i64) -> f64
  %i = "tfrt.cast.f64_to_i64"(%x) : (f64) -> i64
  %j = "tfrt.cast.f32_to_i64"(%f) : (f32) -> i64
  tfrt.return %e, %le, %e64, %le64, %f, %d, %i, %j : i1, i1, i1, i1, f32, f64, i64, i64
}
"#;
    let args = [
        AsyncValue::available(3i32),
        AsyncValue::available(4i32),
        AsyncValue::available(1i64 << 40),
        AsyncValue::available(-2.75f64),
    ];
    let r = run_with_args(src, "f", "s", &args);
    assert_eq!(r.result::<bool>(0), Ok(false));
    assert_eq!(r.result::<bool>(1), Ok(true));
    assert_eq!(r.result::<bool>(2), Ok(true));
    assert_eq!(r.result::<bool>(3), Ok(true));
    assert_eq!(r.result::<f32>(4), Ok((1u64 << 40) as f32));
    assert_eq!(r.result::<f64>(5), Ok((1u64 << 40) as f64));
    assert_eq!(r.result::<i64>(6), Ok(-2));
    assert_eq!(r.result::<i64>(7), Ok(1 << 40));
}

#[test]
fn chains_merge_and_alias() {
    let _serial = serial();
    let src = r#"
func.func @f(%v: i32) -> (!tfrt.chain, i32) {
  %a = tfrt.new.chain
  %b = tfrt.new.chain
  %m = tfrt.merge.chains %a, %b, %v : !tfrt.chain, !tfrt.chain, i32
  %x = "tfrt.alias.value"(%m, %v) : (!tfrt.chain, i32) -> i32
  tfrt.return %m, %x : !tfrt.chain, i32
}
"#;
    let r = run_with_args(src, "f", "s", &[AsyncValue::available(5i32)]);
    assert_eq!(r.result::<Chain>(0), Ok(Chain));
    assert_eq!(r.result::<i32>(1), Ok(5));
}

#[test]
fn print_f16_shows_raw_bits_and_complex_prints() {
    let _serial = serial();
    let src = r#"
func.func @f() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %h = tfrt.constant.f16 1.0
  %ch1 = "tfrt.print.f16"(%h, %ch0) : (f16, !tfrt.chain) -> !tfrt.chain
  %c = "tfrt.constant.complex64"() {real = 1.5 : f32, imaginary = -2.0 : f32} : () -> complex<f32>
  %ch2 = "tfrt.print.complex64"(%c, %ch1) : (complex<f32>, !tfrt.chain) -> !tfrt.chain
  %d = "tfrt.constant.complex128"() {real = 0.5 : f64, imaginary = 3.0 : f64} : () -> complex<f64>
  %ch3 = "tfrt.print.complex128"(%d, %ch2) : (complex<f64>, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch3 : !tfrt.chain
}
"#;
    let r = run(src, "f", "s");
    assert_eq!(
        r.lines(),
        [
            "f16 = 15360",
            "complex64 = 1.500000+-2.000000i",
            "complex128 = 0.500000+3.000000i"
        ]
    );
}

#[test]
fn wrong_argument_type_is_an_error_value() {
    let _serial = serial();
    let src = r#"
func.func @f() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %x = tfrt.constant.i64 1
  %ch1 = "tfrt.print.i32"(%x, %ch0) : (i64, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch1 : !tfrt.chain
}
"#;
    let r = run(src, "f", "s");
    assert!(r.output.is_empty());
    let message = r.result::<Chain>(0).unwrap_err();
    assert!(message.contains("type mismatch"), "{message}");
}

const CONTROL_FLOW: &str = r#"
func.func @add_one(%x: i32) -> i32 {
  %c1 = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %c1
  tfrt.return %y : i32
}
func.func @call() -> i32 {
  %c1 = tfrt.constant.i32 1
  %x = tfrt.call @add_one(%c1) : (i32) -> i32
  %y = tfrt.call @add_one(%x) : (i32) -> i32
  tfrt.return %y : i32
}
func.func @if(%cond: i1, %a: i32, %b: i32) -> i32 {
  %r = tfrt.if %cond, %a, %b : (i32, i32) -> (i32) {
    %s = tfrt.add.i32 %a, %b
    tfrt.return %s : i32
  } else {
    %d = "tfrt.minus.i32"(%a, %b) : (i32, i32) -> i32
    tfrt.return %d : i32
  }
  tfrt.return %r : i32
}
func.func @neg(%x: i32) -> i32 {
  %z = tfrt.constant.i32 0
  %y = "tfrt.minus.i32"(%z, %x) : (i32, i32) -> i32
  tfrt.return %y : i32
}
func.func @cond(%c: i1, %x: i32) -> i32 {
  %r = tfrt.cond %c @add_one @neg (%x) : (i32) -> (i32)
  tfrt.return %r : i32
}
func.func @case(%i: i32, %x: i32) -> i32 {
  %r = tfrt.case %i [@add_one, @neg] (%x) : (i32) -> (i32)
  tfrt.return %r : i32
}
func.func @repeat(%n: i32) -> (i32, !tfrt.chain) {
  %ch0 = tfrt.new.chain
  %v0 = tfrt.constant.i32 0
  %ch1, %v1 = tfrt.repeat.i32 %n, %ch0, %v0 : !tfrt.chain, i32 {
    %c1 = tfrt.constant.i32 1
    %v2 = "tfrt_test.async_add.i32"(%v0, %c1) : (i32, i32) -> i32
    %ch2 = tfrt.print.i32 %v2, %ch0
    tfrt.return %ch2, %v2 : !tfrt.chain, i32
  }
  tfrt.return %v1, %ch1 : i32, !tfrt.chain
}
func.func @while_body(%ch: !tfrt.chain, %i: i32) -> (!tfrt.chain, i32, i1) {
  %c1 = tfrt.constant.i32 1
  %ten = tfrt.constant.i32 10
  %next = "tfrt_test.async_add.i32"(%i, %c1) : (i32, i32) -> i32
  %ch1 = tfrt.print.i32 %i, %ch
  %more = "tfrt.lessequal.i32"(%next, %ten) : (i32, i32) -> i1
  tfrt.return %ch1, %next, %more : !tfrt.chain, i32, i1
}
func.func @while(%start: i32, %go: i1) -> (!tfrt.chain, i32) {
  %ch = tfrt.new.chain
  %ch1, %r = tfrt.while %go @while_body(%ch, %start) parallel_iterations(1) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  tfrt.return %ch1, %r : !tfrt.chain, i32
}
func.func @while_parallel(%start: i32, %go: i1) -> (!tfrt.chain, i32) {
  %ch = tfrt.new.chain
  %ch1, %r = tfrt.while %go @while_body(%ch, %start) parallel_iterations(4) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  tfrt.return %ch1, %r : !tfrt.chain, i32
}
func.func @once_body(%x: i32) -> i32 {
  %ch = tfrt.new.chain
  %ch1 = tfrt.print.i32 %x, %ch
  %y = "tfrt.alias.value"(%ch1, %x) : (!tfrt.chain, i32) -> i32
  tfrt.return %y : i32
}
func.func @once(%x: i32) -> (i32, i32) {
  %a = tfrt.once @once_body(%x) : (i32) -> (i32)
  %b = tfrt.once @once_body(%a) : (i32) -> (i32)
  tfrt.return %a, %b : i32, i32
}
"#;

fn i32s(values: &[i32]) -> Vec<AsyncValue> {
    values.iter().map(|&v| AsyncValue::available(v)).collect()
}

#[test]
fn call_if_cond_and_case() {
    let _serial = serial();
    for queue in QUEUES {
        assert_eq!(run(CONTROL_FLOW, "call", queue).result::<i32>(0), Ok(3));
        let mut args = vec![AsyncValue::available(true)];
        args.extend(i32s(&[7, 2]));
        assert_eq!(
            run_with_args(CONTROL_FLOW, "if", queue, &args).result::<i32>(0),
            Ok(9)
        );
        args[0] = AsyncValue::available(false);
        assert_eq!(
            run_with_args(CONTROL_FLOW, "if", queue, &args).result::<i32>(0),
            Ok(5)
        );
        for (c, want) in [(true, 6), (false, -5)] {
            let args = [AsyncValue::available(c), AsyncValue::available(5i32)];
            let r = run_with_args(CONTROL_FLOW, "cond", queue, &args);
            assert_eq!(r.result::<i32>(0), Ok(want));
        }
        for (i, want) in [(0, 6), (1, -5)] {
            let r = run_with_args(CONTROL_FLOW, "case", queue, &i32s(&[i, 5]));
            assert_eq!(r.result::<i32>(0), Ok(want));
        }
    }
}

#[test]
fn case_index_out_of_range_is_an_error() {
    let _serial = serial();
    for index in [2, -1] {
        let r = run_with_args(CONTROL_FLOW, "case", "s", &i32s(&[index, 5]));
        let want = format!("branch_index invalid. branch index: {index} # branches: 2");
        assert_eq!(r.result::<i32>(0), Err(want.clone()));
        assert_eq!(r.error_messages(), [want]);
    }
}

#[test]
fn repeat_runs_the_body_n_times_in_order() {
    let _serial = serial();
    for queue in QUEUES {
        // 70 iterations span several blocks.
        let r = run_with_args(CONTROL_FLOW, "repeat", queue, &i32s(&[70]));
        assert_eq!(r.result::<i32>(0), Ok(70), "queue {queue}");
        assert_eq!(r.result::<Chain>(1), Ok(Chain));
        let want: Vec<String> = (1..=70).map(|i| format!("int32 = {i}")).collect();
        assert_eq!(r.lines(), want, "queue {queue}");
        for n in [0, -3] {
            let r = run_with_args(CONTROL_FLOW, "repeat", queue, &i32s(&[n]));
            assert_eq!(r.result::<i32>(0), Ok(0));
            assert!(r.output.is_empty());
        }
    }
}

#[test]
fn while_loops_until_the_body_says_stop() {
    let _serial = serial();
    for queue in QUEUES {
        for name in ["while", "while_parallel"] {
            let args = [AsyncValue::available(7i32), AsyncValue::available(true)];
            let r = run_with_args(CONTROL_FLOW, name, queue, &args);
            assert_eq!(r.result::<i32>(1), Ok(11), "{name} on {queue}");
            assert_eq!(
                r.lines(),
                ["int32 = 7", "int32 = 8", "int32 = 9", "int32 = 10"],
                "{name} on {queue}"
            );
            let args = [AsyncValue::available(7i32), AsyncValue::available(false)];
            let r = run_with_args(CONTROL_FLOW, name, queue, &args);
            assert_eq!(r.result::<i32>(1), Ok(7));
            assert!(r.output.is_empty());
        }
    }
}

#[test]
fn once_runs_its_function_once_per_request() {
    let _serial = serial();
    for queue in QUEUES {
        let program = crate::kernels::test_support::load(CONTROL_FLOW);
        let r = crate::kernels::test_support::run_program(&program, "once", queue, &i32s(&[4]));
        assert_eq!(r.result::<i32>(0), Ok(4));
        assert_eq!(r.result::<i32>(1), Ok(4));
        assert_eq!(r.lines(), ["int32 = 4"]);
        // A second call in the same request returns the cached result; a
        // new request runs the function again.
        let f =
            crate::exec::Function::new(program.clone(), program.function_named("once").unwrap());
        let request = crate::exec::ExecutionContext::new(r.host.clone());
        let first = f.execute(&request, &i32s(&[9]));
        let again = f.execute(&request, &i32s(&[5]));
        r.host.await_values(&first);
        r.host.await_values(&again);
        r.host.quiesce();
        assert_eq!(first[0].get::<i32>().copied(), Ok(9));
        assert_eq!(again[0].get::<i32>().copied(), Ok(9));
    }
}

#[test]
fn parallel_for_and_parallel_call_cover_the_range() {
    let _serial = serial();
    let src = r#"
func.func @block(%start: i32, %end: i32, %counter: !test.atomic.i32) -> !tfrt.chain {
  %n = "tfrt.minus.i32"(%end, %start) : (i32, i32) -> i32
  %ch = "tfrt_test.atomic.add.i32"(%counter, %n) : (!test.atomic.i32, i32) -> !tfrt.chain
  tfrt.return %ch : !tfrt.chain
}
func.func @call(%start: i32, %end: i32, %block: i32) -> i32 {
  %counter = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %done = tfrt.parallel_call.i32 %start to %end fixed %block @block(%counter) : !test.atomic.i32
  %v, %ch = "tfrt_test.atomic.get.i32"(%counter, %done) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  tfrt.return %v : i32
}
func.func @for(%start: i32, %end: i32, %block: i32) -> i32 {
  %counter = "tfrt_test.atomic.create.i32"() : () -> !test.atomic.i32
  %done = tfrt.parallel_for.i32 %start to %end fixed %block, %counter : !test.atomic.i32 {
    %n = "tfrt.minus.i32"(%end, %start) : (i32, i32) -> i32
    "tfrt_test.atomic.add.i32"(%counter, %n) : (!test.atomic.i32, i32) -> !tfrt.chain
    tfrt.return
  }
  %v, %ch = "tfrt_test.atomic.get.i32"(%counter, %done) : (!test.atomic.i32, !tfrt.chain) -> (i32, !tfrt.chain)
  tfrt.return %v : i32
}
"#;
    for queue in QUEUES {
        for name in ["call", "for"] {
            for (start, end, block, want) in [(0, 100, 10, 100), (5, 28, 7, 23), (3, 3, 4, 0)] {
                let r = run_with_args(src, name, queue, &i32s(&[start, end, block]));
                assert_eq!(
                    r.result::<i32>(0),
                    Ok(want),
                    "{name} {start}..{end} on {queue}"
                );
            }
            let r = run_with_args(src, name, queue, &i32s(&[0, 10, 0]));
            assert_eq!(
                r.result::<i32>(0),
                Err("block size must be positive, got 0".into())
            );
            // More blocks than are queued at a time.
            let blocks = 10 * super::MAX_BLOCKS_QUEUED as i32 + 7;
            let r = run_with_args(src, name, queue, &i32s(&[-3, blocks - 3, 1]));
            assert_eq!(r.result::<i32>(0), Ok(blocks), "{name} on {queue}");
        }
    }
}

#[test]
fn parallel_loops_refuse_more_blocks_than_the_limit() {
    let _serial = serial();
    let src = r#"
func.func @for(%start: i32, %end: i32, %block: i32) -> !tfrt.chain {
  %done = tfrt.parallel_for.i32 %start to %end fixed %block {
    tfrt.return
  }
  tfrt.return %done : !tfrt.chain
}
"#;
    for queue in QUEUES {
        // The whole i32 range in blocks of 1 would be 2^32 - 1 blocks (the
        // list of them alone 32 GiB): an error value, at once.
        let started = std::time::Instant::now();
        let r = run_with_args(src, "for", queue, &i32s(&[i32::MIN, i32::MAX, 1]));
        assert_eq!(
            r.result::<crate::runtime::Chain>(0).unwrap_err(),
            "[-2147483648, 2147483647) in blocks of 1 makes 4294967295 blocks, \
             more than the 1048576 one parallel loop may have"
        );
        assert_eq!(
            r.results[0].error_diagnostic().map(|d| d.code),
            Some(crate::runtime::ErrorCode::ResourceExhausted)
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        // One block more than the limit.
        let r = run_with_args(src, "for", queue, &i32s(&[i32::MIN, i32::MAX, 4095]));
        assert!(
            r.result::<crate::runtime::Chain>(0)
                .unwrap_err()
                .contains("makes 1048833 blocks"),
        );
    }
}
