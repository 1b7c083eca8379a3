//! Executing BEF programs: the kernel registry and typed kernel adapters,
//! program loading, the asynchronous BEF executor, the sync interpreter and
//! the observer hooks tools build on.
//!
//! ```text
//! BefBuffer ──Program::load(registry)──▶ Program ──Function::execute(ctx, args)──▶ results
//!                (kernels resolved)          │ tables decoded on first call
//!                                            ▼
//!                 executor (async dataflow) / sync interpreter / native function
//! ```
//!
//! [`Runner`] wraps the whole path for tools: open a file by its magic
//! bytes, choose the work queue and allocator, run functions with or without
//! an [`Observer`], await, quiesce and report leaks.

mod adapters;
#[cfg(feature = "arbitrary")]
mod arbitrary_kernel_calls;
#[cfg(feature = "arbitrary")]
pub mod arbitrary_program;
pub mod attribute;
mod call_depth;
mod context;
#[cfg(test)]
mod dispatch_tests;
mod error;
mod executor;
mod frame;
mod function;
pub mod observer;
mod program;
mod registry;
pub mod runner;
mod signature;
mod sync_interpreter;
mod tables;
#[cfg(test)]
pub(crate) mod tests;
mod typed_call;

pub use adapters::{
    AggregateAttribute, AnyArgument, Argument, ArrayAttribute, Attribute, Cursor, FromFrame,
    IntoResult, IntoResults, KernelErrorHandler, Out, RemainingArguments, RemainingAttributes,
    RemainingFunctions, RemainingResults, StringAttribute,
};
pub use call_depth::current_depth as current_call_depth;
pub use context::{ExecutionContext, ResourceContext};
pub use error::LoadError;
pub use frame::KernelFrame;
pub use function::Function;
pub use observer::{Caller, ExecEvent, ExecutionId, KernelWork, Observer, Operands, Timestamp};
pub use program::{FunctionInfo, Program};
pub use registry::{KernelFn, KernelImpl, KernelRegistry, NativeFn, ValueConverter};
pub use runner::{
    AllocationLeak, AllocatorKind, AsyncValueLeak, Call, Finished, Input, InputFormat, LeakReport,
    OpenError, ResultValue, Runner, RunnerBuilder, RunnerError,
};
pub use signature::{Kernel, Signature, TypeName, VARIADIC};
pub use tables::{FunctionTables, KernelInfo};
pub use typed_call::{TypedCallError, TypedResults};

/// Hooks for the loom models of `core/tests/loom.rs`: the executor's real
/// counter code (compiled with loom's atomics under `cfg(loom)`), so the
/// models check it rather than a copy.
#[cfg(loom)]
#[doc(hidden)]
pub mod loom_hooks {
    /// The executor's use and ready-count decrement, with its exclusive
    /// shortcut (plain load and store) when `exclusive`.
    pub fn count_down(counter: &loom::sync::atomic::AtomicU32, exclusive: bool) -> bool {
        super::executor::count_down(counter, exclusive)
    }

    /// The executor's test of whether the running thread holds its
    /// execution alone (which allows the shortcut).
    pub fn sole_holder<T>(holder: &loom::sync::Arc<T>) -> bool {
        super::executor::sole_holder(holder)
    }
}
