//! Simple synchronous test kernels: hello, counting, sums, sharing and
//! forwarding values, uniqueness, thread ids, failures and cancellation.

use std::sync::atomic::{AtomicI32, Ordering};

use crate::exec::{
    AnyArgument, Argument, ExecutionContext, KernelErrorHandler, KernelRegistry, Out,
    RemainingArguments, RemainingResults,
};
use crate::runtime::{Chain, HostContext};

const SOMETHING_BAD: &str = "something bad happened";

crate::kernel! {
    fn print_hello(host: &HostContext) -> Chain {
        host.print("hello host executor!\n");
        Chain
    }
}

crate::kernel! {
    /// `tfrt_test.print_bool %chain, %b`: prints `true` or `false`.
    fn print_bool(_chain: Argument<Chain>, value: Argument<bool>, host: &HostContext) -> Chain {
        host.print(if *value { "true\n" } else { "false\n" });
        Chain
    }
}

macro_rules! count3 {
    ($($name:ident($t:ty);)*) => {$(
        crate::kernel! {
            /// x + 1, x + 2, x + 3.
            fn $name(x: Argument<$t>) -> ($t, $t, $t) {
                (x.wrapping_add(1), x.wrapping_add(2), x.wrapping_add(3))
            }
        }
    )*};
}

count3! {
    count3_i32(i32);
    count3_i64(i64);
}

crate::kernel! {
    /// The sum of any number of i32 arguments.
    fn sum(args: RemainingArguments) -> Result<i32, String> {
        args.iter().enumerate().try_fold(0i32, |acc, (i, v)| {
            v.get::<i32>()
                .map(|x| acc.wrapping_add(*x))
                .map_err(|e| format!("argument #{i}: {e}"))
        })
    }
}

crate::kernel! {
    /// Both results are the argument itself (no copy).
    fn share_to_two(value: AnyArgument, a: Out<crate::runtime::AsyncValue>, b: Out<crate::runtime::AsyncValue>) {
        a.set((*value).clone());
        b.set((*value).clone());
    }
}

crate::kernel! {
    /// `tfrt_test.identity %chain, %x`: returns `x` once `chain` is ready.
    fn identity(_chain: Argument<Chain>, value: AnyArgument, out: Out<crate::runtime::AsyncValue>) {
        out.set((*value).clone());
    }
}

crate::kernel! {
    /// Returns each argument as the result at the same position.
    fn multi_arg_result(args: RemainingArguments, results: RemainingResults) {
        for (i, value) in args.iter().enumerate().take(results.len()) {
            results.set(i, value.clone());
        }
    }
}

crate::kernel! {
    /// Returns an indirect value forwarded to the argument.
    fn make_indirect(value: AnyArgument, results: RemainingResults) {
        let indirect = results.allocate_indirect(0);
        indirect.forward_to((*value).clone());
    }
}

crate::kernel! {
    /// Whether the kernel's argument is the only reference to its value
    /// (and, for an indirect value, to its target).
    fn get_uniqueness(value: AnyArgument) -> bool {
        value.is_unique()
    }
}

static NEXT_THREAD_ID: AtomicI32 = AtomicI32::new(0);

thread_local! {
    static THREAD_ID: i32 = NEXT_THREAD_ID.fetch_add(1, Ordering::Relaxed);
}

crate::kernel! {
    /// A small id of the thread running the kernel (stable per thread).
    fn get_thread_id(_args: RemainingArguments) -> i32 {
        THREAD_ID.with(|id| *id)
    }
}

crate::kernel! {
    fn fail() -> Result<i32, String> {
        Err(SOMETHING_BAD.into())
    }
}

crate::kernel! {
    /// The first result is 1, the second an error.
    fn partial_fail(one: Out<i32>, handler: KernelErrorHandler) {
        one.emplace(1);
        handler.report_error(SOMETHING_BAD);
    }
}

crate::kernel! {
    /// Cancels the host context (tests only: clients cancel, not kernels).
    fn cancel(chain: Argument<Chain>, int_out: Out<i32>, chain_out: Out<Chain>, host: &HostContext) {
        host.cancel("Cancelled");
        int_out.emplace(0);
        chain_out.set(chain.value().clone());
    }
}

crate::kernel! {
    /// Allocates an i32 from the host allocator and never frees it, to test
    /// leak detection.
    fn memory_leak_one_int32(ctx: &ExecutionContext) {
        let _leaked = ctx.host().allocate::<i32>(1);
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    for (name, kernel) in [
        ("tfrt_test.print_hello", print_hello),
        ("tfrt_test.print_bool", print_bool),
        ("tfrt_test.count3.i32", count3_i32),
        ("tfrt_test.count3.i64", count3_i64),
        ("tfrt_test.sum", sum),
        ("tfrt_test.share_to_two", share_to_two),
        ("tfrt_test.identity", identity),
        ("tfrt_test.multi_arg_result", multi_arg_result),
        ("tfrt_test.make_indirect", make_indirect),
        ("tfrt_test.get_uniqueness", get_uniqueness),
        ("tfrt_test.get_thread_id", get_thread_id),
        ("tfrt_test.fail", fail),
        ("tfrt_test.partial_fail", partial_fail),
        ("tfrt_test.cancel", cancel),
        ("tfrt_test.memory_leak_one_int32", memory_leak_one_int32),
    ] {
        registry.add_kernel(name, kernel);
    }
}
