//! The test native functions `native_function.mlir` declares:
//! `native_add` (i32 + i32), `native_async_add` (the sum computed on the
//! work queue) and `native_error` (an error result); and the ones the
//! parallel benchmarks call for their overhead alone: `native_sink` (no
//! result) and `native_async_sink` (a chain completed on the work queue). Arguments may still
//! be unavailable when a native function is called (e.g. the result of a
//! `tfrt_test.do.async`): the results are then indirect values forwarded
//! once every argument is available.

use crate::exec::{ExecutionContext, KernelRegistry};
use crate::kernels::tfrt::when_all_available;
use crate::runtime::{AsyncValue, AsyncValueRef, Chain, Diagnostic, ErrorCode};

const SOMETHING_BAD: &str = "something bad happened";

fn invalid(message: String) -> AsyncValue {
    AsyncValue::error(Diagnostic::new(message).with_code(ErrorCode::InvalidArgument))
}

/// Sets every result slot to `value`.
fn set_all(results: &mut [Option<AsyncValue>], value: AsyncValue) {
    for slot in results {
        *slot = Some(value.clone());
    }
}

/// Reads the two i32 operands of `name` (an argument error is returned as
/// the error value itself).
fn two_i32(name: &str, args: &[AsyncValue]) -> Result<(i32, i32), AsyncValue> {
    if let Some(error) = args.iter().find(|a| a.is_error()) {
        return Err(error.clone());
    }
    let read = |i: usize| {
        args[i]
            .get::<i32>()
            .copied()
            .map_err(|e| invalid(format!("native function '{name}' argument #{i}: {e}")))
    };
    Ok((read(0)?, read(1)?))
}

/// Checks the arity of `name` and runs `f` on the arguments once they are
/// all available; `f` returns the single result.
fn binary_i32(
    name: &'static str,
    ctx: &ExecutionContext,
    args: &[AsyncValue],
    results: &mut [Option<AsyncValue>],
    f: fn(&ExecutionContext, i32, i32) -> AsyncValue,
) {
    if args.len() != 2 || results.len() != 1 {
        set_all(
            results,
            invalid(format!(
                "native function '{name}' takes 2 arguments and returns 1 result, \
                 called with {} arguments for {} results",
                args.len(),
                results.len()
            )),
        );
        return;
    }
    let compute = move |ctx: &ExecutionContext, args: &[AsyncValue]| match two_i32(name, args) {
        Ok((a, b)) => f(ctx, a, b),
        Err(error) => error,
    };
    if args.iter().all(AsyncValue::is_available) {
        results[0] = Some(compute(ctx, args));
        return;
    }
    let result = AsyncValue::indirect();
    results[0] = Some(result.clone());
    let ctx = ctx.clone();
    when_all_available(args.to_vec(), move |args| {
        result.forward_to(compute(&ctx, &args));
    });
}

fn native_add(ctx: &ExecutionContext, args: &[AsyncValue], results: &mut [Option<AsyncValue>]) {
    binary_i32("native_add", ctx, args, results, |_, a, b| {
        AsyncValue::available(a.wrapping_add(b))
    });
}

fn native_async_add(
    ctx: &ExecutionContext,
    args: &[AsyncValue],
    results: &mut [Option<AsyncValue>],
) {
    binary_i32("native_async_add", ctx, args, results, |ctx, a, b| {
        let sum = AsyncValueRef::<i32>::unconstructed();
        let on_queue = sum.clone();
        ctx.enqueue_work(move || on_queue.emplace(a.wrapping_add(b)));
        sum.into_untyped()
    });
}

/// An error value, not a reported diagnostic (as the reference: the
/// runner shows it as the function's returned error).
fn native_error(_: &ExecutionContext, _: &[AsyncValue], results: &mut [Option<AsyncValue>]) {
    set_all(results, AsyncValue::error(Diagnostic::new(SOMETHING_BAD)));
}

/// Takes any arguments and returns nothing.
fn native_sink(_: &ExecutionContext, _: &[AsyncValue], results: &mut [Option<AsyncValue>]) {
    if !results.is_empty() {
        set_all(
            results,
            invalid(format!(
                "native function 'native_sink' returns no results, called for {}",
                results.len()
            )),
        );
    }
}

/// Takes any arguments and returns a chain that a task on the work queue
/// completes.
fn native_async_sink(ctx: &ExecutionContext, _: &[AsyncValue], results: &mut [Option<AsyncValue>]) {
    if results.len() != 1 {
        set_all(
            results,
            invalid(format!(
                "native function 'native_async_sink' returns 1 result, called for {}",
                results.len()
            )),
        );
        return;
    }
    let done = AsyncValueRef::<Chain>::unconstructed();
    let on_queue = done.clone();
    ctx.enqueue_work(move || on_queue.emplace(Chain));
    results[0] = Some(done.into_untyped());
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_native_function("native_sink", native_sink);
    registry.add_native_function("native_async_sink", native_async_sink);
    registry.add_native_function("native_add", native_add);
    registry.add_native_function("native_async_add", native_async_add);
    registry.add_native_function("native_error", native_error);
}
