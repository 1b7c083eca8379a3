//! Control flow: `tfrt.call`, `tfrt.if` / `tfrt.cond`, `tfrt.case`,
//! `tfrt.repeat.i32`, `tfrt.while` and `tfrt.once`. Branches and bodies
//! are function attributes (regions become functions). Results that are
//! only known later are indirect values forwarded when the loop ends.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::exec::{
    Argument, Attribute, ExecutionContext, Function, KernelRegistry, RemainingArguments,
    RemainingFunctions, RemainingResults,
};
use crate::runtime::{AsyncValue, Diagnostic, ErrorCode};

/// Iterations of `tfrt.repeat.i32` dispatched back to back before waiting
/// for the carried values (bounds the work in flight).
const REPEAT_BLOCK: i32 = 32;

fn invalid(message: String) -> Diagnostic {
    Diagnostic::new(message).with_code(ErrorCode::InvalidArgument)
}

/// Checks that `f` takes `args` arguments and returns `results` results.
fn check_signature(f: &Function, args: usize, results: usize) -> Result<(), Diagnostic> {
    if f.num_arguments() != args || f.num_results() != results {
        return Err(signature_mismatch(f, args, results));
    }
    Ok(())
}

/// Out of line: every nested call's stack frame stays small (deep
/// recursion costs that frame per level).
#[cold]
#[inline(never)]
fn signature_mismatch(f: &Function, args: usize, results: usize) -> Diagnostic {
    invalid(format!(
        "function '{}' has {} arguments and {} results but is called with {} arguments \
         for {} results",
        f.name(),
        f.num_arguments(),
        f.num_results(),
        args,
        results
    ))
}

/// Runs `f` on `args` and makes its results the kernel's results.
fn call_into(
    f: &Function,
    ctx: &ExecutionContext,
    args: &[AsyncValue],
    results: &RemainingResults,
) -> Result<(), Diagnostic> {
    check_signature(f, args.len(), results.len())?;
    for (i, value) in f.execute(ctx, args).into_iter().enumerate() {
        results.set(i, value);
    }
    Ok(())
}

/// Makes every remaining result a new indirect value, to forward later.
fn indirect_results(results: &RemainingResults) -> Vec<AsyncValue> {
    (0..results.len())
        .map(|i| results.allocate_indirect(i))
        .collect()
}

fn forward_all(targets: Vec<AsyncValue>, values: Vec<AsyncValue>) {
    for (target, value) in targets.into_iter().zip(values) {
        target.forward_to(value);
    }
}

/// Runs `f(values)` once every value is available.
pub(crate) fn when_all_available(
    values: Vec<AsyncValue>,
    f: impl FnOnce(Vec<AsyncValue>) + Send + 'static,
) {
    match values.iter().position(AsyncValue::is_unavailable) {
        None => f(values),
        Some(i) => {
            let pending = values[i].clone();
            pending.and_then(move || when_all_available(values, f));
        }
    }
}

crate::kernel! {
    /// `tfrt.call @f(args)`.
    fn call(
        args: RemainingArguments,
        results: RemainingResults,
        f: Function,
        ctx: &ExecutionContext,
    ) -> Result<(), Diagnostic> {
        call_into(&f, ctx, &args, &results)
    }
}

crate::kernel! {
    /// `tfrt.if` / `tfrt.cond`: the first function if the condition holds,
    /// else the second (which may be absent when there are no results).
    fn if_kernel(
        condition: Argument<bool>,
        args: RemainingArguments,
        results: RemainingResults,
        branches: RemainingFunctions,
        ctx: &ExecutionContext,
    ) -> Result<(), Diagnostic> {
        let branch = if *condition { 0 } else { 1 };
        match branches.get(branch) {
            Some(f) => call_into(f, ctx, &args, &results),
            None if results.is_empty() => Ok(()),
            None => Err(invalid(format!(
                "expects a {} branch function",
                if *condition { "true" } else { "false" }
            ))),
        }
    }
}

crate::kernel! {
    /// `tfrt.case %index [@b0, @b1, ...] (args)`.
    fn case(
        index: Argument<i32>,
        args: RemainingArguments,
        results: RemainingResults,
        branches: RemainingFunctions,
        ctx: &ExecutionContext,
    ) -> Result<(), Diagnostic> {
        let branch = usize::try_from(*index)
            .ok()
            .and_then(|i| branches.get(i))
            .ok_or_else(|| {
                invalid(format!(
                    "branch_index invalid. branch index: {} # branches: {}",
                    *index,
                    branches.len()
                ))
            })?;
        call_into(branch, ctx, &args, &results)
    }
}

/// A `tfrt.repeat.i32` loop in progress.
struct Repeat {
    ctx: ExecutionContext,
    body: Function,
    remaining: i32,
    results: Vec<AsyncValue>,
}

impl Repeat {
    /// Runs up to a block of iterations, then waits for the carried values
    /// and continues on the work queue (no recursion, no stack growth).
    fn run(mut self, mut args: Vec<AsyncValue>) {
        for _ in 0..REPEAT_BLOCK {
            if self.remaining <= 0 {
                forward_all(self.results, args);
                return;
            }
            if let Some(cancelled) = self.ctx.host().cancel_value() {
                let cancelled = cancelled.clone();
                for result in self.results {
                    result.forward_to(cancelled.clone());
                }
                return;
            }
            args = self.body.execute(&self.ctx, &args);
            self.remaining -= 1;
        }
        if self.remaining <= 0 {
            forward_all(self.results, args);
            return;
        }
        when_all_available(args, move |args| {
            let ctx = self.ctx.clone();
            ctx.enqueue_work(move || self.run(args));
        });
    }
}

crate::kernel! {
    /// `tfrt.repeat.i32 %n, args { body }`: runs the body `n` times, each
    /// iteration on the previous one's results; `n <= 0` returns `args`.
    fn repeat_i32(
        count: Argument<i32>,
        args: RemainingArguments,
        results: RemainingResults,
        body: Function,
        ctx: &ExecutionContext,
    ) -> Result<(), Diagnostic> {
        check_signature(&body, args.len(), args.len())?;
        if results.len() != args.len() {
            return Err(invalid(format!(
                "expects as many results as loop values ({}), got {}",
                args.len(),
                results.len()
            )));
        }
        let repeat = Repeat {
            ctx: ctx.clone(),
            body,
            remaining: *count,
            results: indirect_results(&results),
        };
        repeat.run(args.to_vec());
        Ok(())
    }
}

/// A `tfrt.while` loop in progress.
struct While {
    ctx: ExecutionContext,
    body: Function,
    results: Vec<AsyncValue>,
}

impl While {
    /// Iterates while the condition is available and true; an unavailable
    /// condition continues the loop on the work queue once it is ready.
    fn run(self, mut condition: AsyncValue, mut args: Vec<AsyncValue>) {
        loop {
            if condition.is_unavailable() {
                let pending = condition.clone();
                pending.and_then(move || {
                    let ctx = self.ctx.clone();
                    ctx.enqueue_work(move || self.run(condition, args));
                });
                return;
            }
            if condition.is_error() {
                // Wait for the loop values so nothing is still running
                // when the results become errors.
                let results = self.results;
                when_all_available(args, move |_| {
                    for result in results {
                        result.forward_to(condition.clone());
                    }
                });
                return;
            }
            match condition.get::<bool>() {
                Ok(true) => {}
                Ok(false) => {
                    forward_all(self.results, args);
                    return;
                }
                Err(e) => {
                    let error = AsyncValue::error(invalid(format!(
                        "tfrt.while condition is not an i1: {e}"
                    )));
                    for result in self.results {
                        result.forward_to(error.clone());
                    }
                    return;
                }
            }
            if let Some(cancelled) = self.ctx.host().cancel_value() {
                condition = cancelled.clone();
                continue;
            }
            let mut next = self.body.execute(&self.ctx, &args);
            // The body returns one value per declared result (checked).
            condition = next.pop().unwrap_or_else(|| {
                AsyncValue::error(invalid("tfrt.while body returned no condition".into()))
            });
            args = next;
        }
    }
}

crate::kernel! {
    /// `tfrt.while %cond @body(args) parallel_iterations(n)`: while the
    /// condition holds, `(args..., cond) = body(args...)`. The reference
    /// does not bound concurrency by `parallel_iterations` either; it only
    /// must be positive here.
    fn while_kernel(
        condition: Argument<bool>,
        args: RemainingArguments,
        results: RemainingResults,
        parallel_iterations: Attribute<i64>,
        body: Function,
        ctx: &ExecutionContext,
    ) -> Result<(), Diagnostic> {
        if *parallel_iterations < 1 {
            return Err(invalid(format!(
                "parallel_iterations must be positive, got {}",
                *parallel_iterations
            )));
        }
        check_signature(&body, args.len(), args.len() + 1)?;
        if results.len() != args.len() {
            return Err(invalid(format!(
                "expects as many results as loop values ({}), got {}",
                args.len(),
                results.len()
            )));
        }
        let state = While {
            ctx: ctx.clone(),
            body,
            results: indirect_results(&results),
        };
        state.run(condition.value().clone(), args.to_vec());
        Ok(())
    }
}

/// The results of one `tfrt.once` function within a request.
struct OnceEntry {
    started: AtomicBool,
    results: Vec<AsyncValue>,
}

crate::kernel! {
    /// `tfrt.once @f(args)`: runs `f` the first time only (per function and
    /// request); every call returns the first call's results.
    fn once(
        args: RemainingArguments,
        results: RemainingResults,
        f: Function,
        ctx: &ExecutionContext,
    ) -> Result<(), Diagnostic> {
        check_signature(&f, args.len(), results.len())?;
        // Kept in the request's resource context, as the reference does:
        // released when the request (the runner's function) ends.
        let key = format!("tfrt.once @{} #{}", f.name(), f.index());
        let entry = ctx
            .resources()
            .get_or_create(&key, || OnceEntry {
                started: AtomicBool::new(false),
                results: (0..f.num_results()).map(|_| AsyncValue::indirect()).collect(),
            })
            .ok_or_else(|| Diagnostic::new(format!("resource '{key}' has another type")))?;
        // Run outside the lock: the function may itself use tfrt.once.
        if !entry.started.swap(true, Ordering::AcqRel) {
            let values = f.execute(ctx, &args);
            forward_all(entry.results.clone(), values);
        }
        for (i, value) in entry.results.iter().enumerate() {
            results.set(i, value.clone());
        }
        Ok(())
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt.call", call);
    registry.add_kernel("tfrt.if", if_kernel);
    registry.add_kernel("tfrt.cond", if_kernel);
    registry.add_kernel("tfrt.case", case);
    registry.add_kernel("tfrt.repeat.i32", repeat_i32);
    registry.add_kernel("tfrt.while", while_kernel);
    registry.add_kernel("tfrt.once", once);
}
