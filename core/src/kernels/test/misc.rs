//! `tfrt_test.quiesce` (waits for the work queue to be idle), and the
//! self-checks of async values `tfrt_test.async_value_get` and
//! `tfrt_test.async_value_ref`, which describe what they observed in
//! their string result, and `tfrt_test.logging`.

use std::sync::{Arc, Mutex};

use crate::exec::{Argument, ExecutionContext, KernelRegistry, Out, RemainingArguments};
use crate::runtime::{AsyncValue, AsyncValueRef, Chain, HostContext};

crate::kernel! {
    /// The chain result becomes available once the work queue is idle. On
    /// a thread outside the queue this waits (running the tasks of a
    /// single-threaded queue); on one of the queue's own threads, which
    /// cannot wait for the queue (its own task counts as pending), and
    /// where waiting would nest one drain of the queue inside another, the
    /// chain is completed by an idle waiter instead: no thread per call,
    /// no nesting, and the queue is idle again once it has run.
    fn quiesce(done: Out<Chain>, ctx: &ExecutionContext) {
        let host = ctx.host();
        if !host.is_in_worker_thread() {
            host.quiesce();
            done.emplace(Chain);
            return;
        }
        let result = done.allocate();
        host.when_idle(move || result.emplace(Chain));
    }
}

struct Base {
    base: &'static str,
}

/// A type holding another (the reference reads a derived class through
/// its base).
struct Child {
    base: Base,
}

struct Final {
    name: &'static str,
}

crate::kernel! {
    /// Reads payloads of several types back from available values:
    /// `base1:base2:final_class:3`.
    fn async_value_get() -> Result<String, String> {
        let child1 = AsyncValue::available(Child { base: Base { base: "base1" } });
        let child2 = AsyncValue::available(Child { base: Base { base: "base2" } });
        let final_class = AsyncValue::available(Final { name: "final_class" });
        let int = AsyncValue::available(3i32);
        let err = |e: crate::runtime::GetError<'_>| e.to_string();
        let c1 = child1.get::<Child>().map_err(err)?;
        let c2 = child2.get::<Child>().map_err(err)?;
        Ok(format!(
            "{}:{}:{}:{}",
            c1.base.base,
            c2.base.base,
            final_class.get::<Final>().map_err(err)?.name,
            int.get::<i32>().map_err(err)?
        ))
    }
}

fn describe(value: &AsyncValueRef<i32>) -> String {
    match value.get() {
        Ok(v) if value.as_untyped().is_available() => format!("available:{v}"),
        _ => "unavailable".to_string(),
    }
}

crate::kernel! {
    /// Follows int values through their states, with a continuation:
    /// `available:2;unavailable;(3);available:3;unavailable;available:4`.
    fn async_value_ref() -> String {
        let out = Arc::new(Mutex::new(String::new()));
        let push = |s: &str| out.lock().unwrap_or_else(|e| e.into_inner()).push_str(s);
        let two = AsyncValueRef::<i32>::available(2);
        push(&describe(&two));
        let three = AsyncValueRef::<i32>::unconstructed();
        push(&format!(";{}", describe(&three)));
        let (log, observed) = (out.clone(), three.clone());
        three.as_untyped().and_then(move || {
            let text = match observed.get() {
                Ok(v) => format!("({v})"),
                Err(e) => format!("({e})"),
            };
            log.lock().unwrap_or_else(|e| e.into_inner()).push_str(&text);
        });
        push(";");
        three.emplace(3);
        push(&format!(";{}", describe(&three)));
        let four = AsyncValueRef::<i32>::unconstructed();
        push(&format!(";{}", describe(&four)));
        let four_copy = four.clone();
        let set_later = move || four_copy.emplace(4);
        set_later();
        push(&format!(";{}", describe(&four)));
        out.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

crate::kernel! {
    /// `tfrt_test.logging %s, %chain...`: logs `s` at each severity through
    /// the log macros the reference exercises (the conditional ones with a
    /// false condition log nothing). Lines go to the output sink, prefixed
    /// with the severity letter, so they keep their order with prints.
    fn logging(message: Argument<String>, _rest: RemainingArguments, host: &HostContext) -> Chain {
        let mut out = String::new();
        for (macro_name, condition) in [("TFRT_LOG", None), ("TFRT_LOG_IF", Some(true)), ("TFRT_LOG_IF", Some(false))] {
            if condition == Some(false) {
                continue;
            }
            for (letter, severity) in [('I', "INFO"), ('W', "WARNING"), ('E', "ERROR")] {
                let args = match condition {
                    None => severity.to_string(),
                    Some(c) => format!("{severity}, {c}"),
                };
                out.push_str(&format!("{letter} tfrt_test.logging] from {macro_name}({args}): {}\n", *message));
            }
        }
        host.print(&out);
        Chain
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.logging", logging);
    registry.add_kernel("tfrt_test.quiesce", quiesce);
    registry.add_kernel("tfrt_test.async_value_get", async_value_get);
    registry.add_kernel("tfrt_test.async_value_ref", async_value_ref);
}
