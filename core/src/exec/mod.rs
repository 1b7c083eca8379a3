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

mod adapters;
pub mod arbitrary_program;
pub mod attribute;
mod context;
mod error;
mod executor;
mod frame;
mod function;
mod observer;
mod program;
mod registry;
mod sync_interpreter;
mod tables;
#[cfg(test)]
pub(crate) mod tests;

pub use adapters::{
    AggregateAttribute, AnyArgument, Argument, ArrayAttribute, Attribute, Cursor, FromFrame,
    IntoResult, IntoResults, KernelErrorHandler, Out, RemainingArguments, RemainingFunctions,
    RemainingResults, StringAttribute,
};
pub use context::{ExecutionContext, ResourceContext};
pub use error::LoadError;
pub use frame::KernelFrame;
pub use function::Function;
pub use observer::{Caller, ExecEvent, ExecutionId, Observer};
pub use program::{FunctionInfo, Program};
pub use registry::{KernelFn, KernelImpl, KernelRegistry, NativeFn};
pub use tables::{FunctionTables, KernelInfo};

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
