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
#[cfg(feature = "arbitrary")]
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
pub use observer::{ExecEvent, ExecutionId, Observer};
pub use program::{FunctionInfo, Program};
pub use registry::{KernelFn, KernelImpl, KernelRegistry, NativeFn};
pub use tables::{FunctionTables, KernelInfo};
