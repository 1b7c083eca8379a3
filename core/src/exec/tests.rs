//! Executor tests with a handful of kernels defined here (the standard
//! library lives in `kernels` and has its own tests).

use std::sync::{Arc, Mutex};

use super::*;
use crate::format::BefBuffer;
use crate::runtime::{AsyncValue, Chain, Diagnostic, HostContext, live_async_values};
use crate::translate::{TranslateOptions, mlir_to_bef};

crate::kernel! {
    fn constant_i32(value: Attribute<i32>) -> i32 { *value }
}
crate::kernel! {
    fn add_i32(a: Argument<i32>, b: Argument<i32>) -> i32 { a.wrapping_add(*b) }
}
crate::kernel! {
    fn fail(handler: KernelErrorHandler) { handler.report_error("something bad happened") }
}
crate::kernel! {
    fn async_add_i32(a: Argument<i32>, b: Argument<i32>, out: Out<i32>, host: &ExecutionContext) {
        let result = out.allocate();
        let (a, b) = (*a, *b);
        host.enqueue_work(move || result.emplace(a.wrapping_add(b)));
    }
}
crate::kernel! {
    fn call(args: RemainingArguments, results: RemainingResults, f: Function, ctx: &ExecutionContext) {
        let values = f.execute(ctx, &args);
        for (i, v) in values.into_iter().enumerate() {
            results.set(i, v);
        }
    }
}
crate::kernel! {
    fn new_chain() -> Chain { Chain }
}

crate::kernel! {
    /// Non-strict: runs once the condition is available and forwards the
    /// chosen argument, which may still be unavailable (or unwritten).
    fn select(cond: Argument<bool>, a: AnyArgument, b: AnyArgument, out: Out<i32>) {
        out.set(if *cond { (*a).clone() } else { (*b).clone() });
    }
}
crate::kernel! {
    fn constant_i1(value: Attribute<bool>) -> bool { *value }
}

fn registry() -> KernelRegistry {
    let mut r = KernelRegistry::new();
    r.add_kernel("t.constant.i32", constant_i32);
    r.add_kernel("t.add.i32", add_i32);
    r.add_kernel("t.async_add.i32", async_add_i32);
    r.add_kernel("t.fail", fail);
    r.add_kernel("t.call", call);
    r.add_kernel("t.new.chain", new_chain);
    r.add_kernel("t.constant.i1", constant_i1);
    r.add_non_strict_kernel("t.select", select);
    r
}

/// Serializes tests that count live values (the count is process-wide).
pub(crate) static LEAK_CHECK: Mutex<()> = Mutex::new(());

/// Takes [`LEAK_CHECK`], with live values counted (in release builds too).
fn counting_live_values() -> std::sync::MutexGuard<'static, ()> {
    crate::runtime::track_live_async_values();
    LEAK_CHECK.lock().unwrap_or_else(|e| e.into_inner())
}

fn load(src: &str) -> Result<Arc<Program>, LoadError> {
    let module = crate::text::parse_module(src, "test.mlir").expect("parses");
    let bytes = mlir_to_bef(
        &module,
        TranslateOptions {
            optional_sections: false,
        },
    )
    .expect("translates");
    Program::load(BefBuffer::copy_from(&bytes), "test.bef", &registry())
}

fn run(
    src: &str,
    name: &str,
    queue: &str,
    args: &[AsyncValue],
) -> (Vec<AsyncValue>, Vec<Diagnostic>) {
    let program = load(src).expect("loads");
    let errors = Arc::new(Mutex::new(Vec::new()));
    let sink = errors.clone();
    let host = HostContext::with_work_queue_name(queue)
        .unwrap()
        .with_diagnostic_sink(move |d| sink.lock().unwrap().push(d.clone()));
    let ctx = ExecutionContext::new(Arc::new(host));
    let f = Function::new(program.clone(), program.function_named(name).unwrap());
    let results = f.execute(&ctx, args);
    ctx.host().await_values(&results);
    ctx.host().quiesce();
    let errors = errors.lock().unwrap().clone();
    (results, errors)
}

fn ints(values: &[AsyncValue]) -> Vec<Result<i32, String>> {
    values
        .iter()
        .map(|v| v.get::<i32>().copied().map_err(|e| e.to_string()))
        .collect()
}

const CHAIN: &str = r#"
func.func @chain(%x: i32) -> (i32, i32) {
  %one = "t.constant.i32"() {value = 1 : i32} : () -> i32
  %a = "t.add.i32"(%x, %one) : (i32, i32) -> i32
  %b = "t.async_add.i32"(%a, %a) : (i32, i32) -> i32
  %c = "t.add.i32"(%b, %one) : (i32, i32) -> i32
  tfrt.return %c, %x : i32, i32
}
"#;

#[test]
fn runs_sync_and_async_kernels_on_both_queues() {
    let _serial = counting_live_values();
    for queue in ["s", "mstd:2"] {
        let before = live_async_values();
        let (results, errors) = run(CHAIN, "chain", queue, &[AsyncValue::available(20i32)]);
        assert_eq!(ints(&results), vec![Ok(43), Ok(20)], "queue {queue}");
        assert!(errors.is_empty());
        drop(results);
        assert_eq!(live_async_values(), before, "queue {queue} leaked values");
    }
}

#[test]
fn errors_skip_only_downstream_kernels() {
    let _serial = counting_live_values();
    let src = r#"
func.func @f() -> (i32, i32) {
  %one = "t.constant.i32"() {value = 1 : i32} : () -> i32
  %e = "t.fail"() : () -> i32
  %bad = "t.add.i32"(%e, %one) : (i32, i32) -> i32
  %good = "t.add.i32"(%one, %one) : (i32, i32) -> i32
  tfrt.return %bad, %good : i32, i32
}
"#;
    let (results, errors) = run(src, "f", "s", &[]);
    let got = ints(&results);
    assert!(
        got[0]
            .as_ref()
            .unwrap_err()
            .contains("something bad happened"),
        "{got:?}"
    );
    assert_eq!(got[1], Ok(2));
    assert_eq!(errors.len(), 1, "reported once, not per downstream kernel");
    assert_eq!(errors[0].location.as_ref().unwrap().line, 4);
}

#[test]
fn calls_nested_functions_and_returns_arguments() {
    let src = r#"
func.func @inc(%x: i32) -> i32 {
  %one = "t.constant.i32"() {value = 1 : i32} : () -> i32
  %y = "t.async_add.i32"(%x, %one) : (i32, i32) -> i32
  tfrt.return %y : i32
}
func.func @main() -> (i32, i32) {
  %z = "t.constant.i32"() {value = 5 : i32} : () -> i32
  %a = "t.call"(%z) {callee = @inc} : (i32) -> i32
  %b = "t.call"(%a) {callee = @inc} : (i32) -> i32
  tfrt.return %b, %b : i32, i32
}
"#;
    let _serial = counting_live_values();
    for queue in ["s", "mstd:2"] {
        let before = live_async_values();
        let (results, _) = run(src, "main", queue, &[]);
        assert_eq!(ints(&results), vec![Ok(7), Ok(7)]);
        drop(results);
        assert_eq!(live_async_values(), before);
    }
}

#[test]
fn type_mismatch_is_an_error_value() {
    let _serial = counting_live_values();
    let src = r#"
func.func @f() -> i32 {
  %c = "t.new.chain"() : () -> !tfrt.chain
  %one = "t.constant.i32"() {value = 1 : i32} : () -> i32
  %x = "t.add.i32"(%c, %one) : (!tfrt.chain, i32) -> i32
  tfrt.return %x : i32
}
"#;
    let (results, errors) = run(src, "f", "s", &[]);
    let message = ints(&results)[0].clone().unwrap_err();
    assert!(
        message.contains("argument #0") && message.contains("type mismatch"),
        "{message}"
    );
    assert_eq!(errors.len(), 1);
}

#[test]
fn unknown_kernel_is_reported_at_its_first_use() {
    let src = "func.func @f() {\n  \"t.new.chain\"() : () -> !tfrt.chain\n  \"t.nope\"() : () -> ()\n  tfrt.return\n}\n";
    let err = load(src).unwrap_err();
    assert_eq!(err.message, "unknown kernel name 't.nope'");
    let loc = err.location.unwrap();
    assert_eq!((loc.line, loc.column), (3, 3));
}

#[test]
fn cancellation_skips_kernels_not_started() {
    let _serial = counting_live_values();
    let program = load(CHAIN).unwrap();
    let host = Arc::new(HostContext::with_work_queue_name("s").unwrap());
    host.cancel("Cancelled");
    let ctx = ExecutionContext::new(host);
    let f = Function::new(program.clone(), program.function_named("chain").unwrap());
    let results = f.execute(&ctx, &[AsyncValue::available(1i32)]);
    ctx.host().quiesce();
    assert!(results[0].is_error());
    assert_eq!(results[0].error_diagnostic().unwrap().message, "Cancelled");
}

#[test]
fn non_strict_kernels_run_before_their_other_arguments_exist() {
    // %late's producer waits for an asynchronous value, so `t.select` runs
    // first and reads %late's register before anything wrote it.
    let src = r#"
func.func @f() -> (i32, i32) {
  %one = "t.constant.i32"() {value = 1 : i32} : () -> i32
  %yes = "t.constant.i1"() {value = true} : () -> i1
  %no = "t.constant.i1"() {value = false} : () -> i1
  %slow = "t.async_add.i32"(%one, %one) : (i32, i32) -> i32
  %late = "t.add.i32"(%slow, %slow) : (i32, i32) -> i32
  %a = "t.select"(%yes, %one, %late) : (i1, i32, i32) -> i32
  %b = "t.select"(%no, %one, %late) : (i1, i32, i32) -> i32
  tfrt.return %a, %b : i32, i32
}
"#;
    let _serial = counting_live_values();
    for queue in ["s", "mstd:2"] {
        let before = live_async_values();
        let (results, errors) = run(src, "f", queue, &[]);
        assert_eq!(ints(&results), vec![Ok(1), Ok(4)], "queue {queue}");
        assert!(errors.is_empty());
        drop(results);
        assert_eq!(live_async_values(), before, "queue {queue} leaked values");
    }
}
