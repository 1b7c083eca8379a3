//! Asynchronous test kernels: results computed on the work queue (or the
//! blocking pool), with optional random delays so completion order varies,
//! and errors reported after the kernel returned.

use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

use crate::exec::{
    Argument, Attribute, ExecutionContext, Function, KernelFrame, KernelRegistry, Out,
    RemainingArguments, RemainingResults,
};
use crate::runtime::{AsyncValue, Chain, Diagnostic, ErrorCode};

/// Longest sleep `tfrt_test.usleep` and `tfrt_test.blocking.usleep` take,
/// in microseconds (10 s): a longer or negative one is an error value.
pub const MAX_SLEEP_MICROS: i32 = 10_000_000;

/// `micros` if it is a duration the sleep kernels take.
fn sleep_duration(micros: i32) -> Result<i32, Diagnostic> {
    if (0..=MAX_SLEEP_MICROS).contains(&micros) {
        Ok(micros)
    } else {
        Err(Diagnostic::new(format!(
            "cannot sleep {micros} microseconds: durations run from 0 to {MAX_SLEEP_MICROS}"
        ))
        .with_code(ErrorCode::InvalidArgument))
    }
}

/// Sleeps 1 to 10 ms (random), so async values complete in varying order.
pub(crate) fn sleep_random() {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(0);
    std::thread::sleep(Duration::from_millis(1 + hasher.finish() % 10));
}

/// Makes `out` the value `f()` computes on the work queue.
fn on_queue<T: Send + Sync + 'static>(
    ctx: &ExecutionContext,
    out: &Out<T>,
    f: impl FnOnce() -> T + Send + 'static,
) {
    let result = out.allocate();
    ctx.enqueue_work(move || result.emplace(f()));
}

crate::kernel! {
    fn async_add_i32(a: Argument<i32>, b: Argument<i32>, out: Out<i32>, ctx: &ExecutionContext) {
        let (a, b) = (*a, *b);
        on_queue(ctx, &out, move || a.wrapping_add(b));
    }
}

crate::kernel! {
    fn async_constant_i1(value: Attribute<u8>, out: Out<bool>, ctx: &ExecutionContext) {
        let value = *value != 0;
        on_queue(ctx, &out, move || value);
    }
}

crate::kernel! {
    fn async_constant_i32(value: Attribute<i32>, out: Out<i32>, ctx: &ExecutionContext) {
        let value = *value;
        on_queue(ctx, &out, move || value);
    }
}

macro_rules! async_copies {
    ($($name:ident($t:ty, delay = $delay:expr);)*) => {$(
        crate::kernel! {
            fn $name(value: Argument<$t>, out: Out<$t>, ctx: &ExecutionContext) {
                let value = *value;
                on_queue(ctx, &out, move || {
                    if $delay {
                        sleep_random();
                    }
                    value
                });
            }
        }
    )*};
}

async_copies! {
    async_copy_i32(i32, delay = false);
    async_copy_with_delay_i32(i32, delay = true);
    async_copy_with_delay_i64(i64, delay = true);
}

macro_rules! delayed_copies {
    ($($name:ident($t:ty);)*) => {$(
        crate::kernel! {
            /// Sleeps on the caller's thread (a deliberately bad kernel).
            fn $name(value: Argument<$t>) -> $t {
                sleep_random();
                *value
            }
        }
    )*};
}

delayed_copies! {
    copy_with_delay_i32(i32);
    copy_with_delay_i64(i64);
}

crate::kernel! {
    /// `tfrt_test.do.async @f(args)`: runs `f` on the work queue.
    fn do_async(
        args: RemainingArguments,
        results: RemainingResults,
        body: Function,
        ctx: &ExecutionContext,
    ) -> Result<(), String> {
        if body.num_arguments() != args.len() || body.num_results() != results.len() {
            return Err(format!(
                "function '{}' does not match the kernel's {} arguments and {} results",
                body.name(),
                args.len(),
                results.len()
            ));
        }
        let pending: Vec<AsyncValue> = (0..results.len()).map(|i| results.allocate_indirect(i)).collect();
        let args = args.to_vec();
        let task_ctx = ctx.clone();
        ctx.enqueue_work(move || {
            for (target, value) in pending.into_iter().zip(body.execute(&task_ctx, &args)) {
                target.forward_to(value);
            }
        });
        Ok(())
    }
}

fn slept(host: &crate::runtime::HostContext, micros: i32) {
    std::thread::sleep(Duration::from_micros(u64::try_from(micros).unwrap_or(0)));
    host.print(&format!("Slept for {micros} microseconds\n"));
}

const BLOCKING_QUEUE_FULL: &str =
    "Failed to enqueue blocking work. Maximum number of pending blocking tasks reached.";

crate::kernel! {
    /// Sleeps on the blocking pool; nothing waits for it.
    fn usleep(micros: Argument<i32>, ctx: &ExecutionContext) -> Result<(), Diagnostic> {
        let (micros, host) = (sleep_duration(*micros)?, ctx.host_arc().clone());
        if !ctx.host().enqueue_blocking_work(move || slept(&host, micros)) {
            eprintln!("{BLOCKING_QUEUE_FULL}");
        }
        Ok(())
    }
}

crate::kernel! {
    /// Sleeps on the blocking pool; the chain completes after the sleep.
    fn blocking_usleep(micros: Argument<i32>, done: Out<Chain>, ctx: &ExecutionContext) -> Result<(), Diagnostic> {
        let (micros, host) = (sleep_duration(*micros)?, ctx.host_arc().clone());
        let result = done.allocate();
        let on_pool = result.clone();
        if !ctx.host().enqueue_blocking_work(move || {
            slept(&host, micros);
            on_pool.emplace(Chain);
        }) {
            result.set_error(Diagnostic::new(BLOCKING_QUEUE_FULL));
        }
        Ok(())
    }
}

/// Reports `message` at the frame's location from the work queue and makes
/// `target` that error.
fn report_later(frame: &KernelFrame<'_>, ctx: &ExecutionContext, target: AsyncValue) {
    let diag = frame.diagnostic("something bad happened asynchronously");
    let task_ctx = ctx.clone();
    ctx.enqueue_work(move || {
        task_ctx.host().emit_diagnostic(&diag);
        if target.kind() == crate::runtime::AsyncValueKind::Indirect {
            target.forward_to(AsyncValue::error(diag));
        } else {
            target.set_error(diag);
        }
    });
}

crate::kernel! {
    /// Returns its input (0) or an error (otherwise), asynchronously, through
    /// an unavailable concrete value.
    fn report_error_concrete_async(input: Argument<i32>, out: Out<i32>, ctx: &ExecutionContext, frame: &KernelFrame) {
        let result = out.allocate();
        if *input == 0 {
            ctx.enqueue_work(move || result.emplace(0));
        } else {
            report_later(frame, ctx, result.into_untyped());
        }
    }
}

crate::kernel! {
    /// As `report_error_concrete_async`, through an indirect value.
    fn report_error_indirect_async(input: Argument<i32>, results: RemainingResults, ctx: &ExecutionContext, frame: &KernelFrame) {
        let result = results.allocate_indirect(0);
        if *input == 0 {
            ctx.enqueue_work(move || result.forward_to(AsyncValue::available(0i32)));
        } else {
            report_later(frame, ctx, result);
        }
    }
}

crate::kernel! {
    fn report_error_async(out: Out<i32>, ctx: &ExecutionContext, frame: &KernelFrame) {
        report_later(frame, ctx, out.allocate().into_untyped());
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    for (name, kernel) in [
        ("tfrt_test.async_add.i32", async_add_i32),
        ("tfrt_test.async_constant.i1", async_constant_i1),
        ("tfrt_test.async_constant.i32", async_constant_i32),
        ("tfrt_test.async_copy.i32", async_copy_i32),
        ("tfrt_test.async_copy_2.i32", async_copy_i32),
        (
            "tfrt_test.async_copy.with_delay.i32",
            async_copy_with_delay_i32,
        ),
        (
            "tfrt_test.async_copy.with_delay.i64",
            async_copy_with_delay_i64,
        ),
        ("tfrt_test.copy.with_delay.i32", copy_with_delay_i32),
        ("tfrt_test.copy.with_delay.i64", copy_with_delay_i64),
        ("tfrt_test.do.async", do_async),
        ("tfrt_test.usleep", usleep),
        ("tfrt_test.blocking.usleep", blocking_usleep),
        (
            "tfrt_test.report_error_concrete_async",
            report_error_concrete_async,
        ),
        (
            "tfrt_test.report_error_indirect_async",
            report_error_indirect_async,
        ),
        ("tfrt_test.report_error_async", report_error_async),
    ] {
        registry.add_kernel(name, kernel);
    }
}
