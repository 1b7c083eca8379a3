//! Host runtime primitives: [`AsyncValue`], [`Chain`], work queues,
//! host allocators and the [`HostContext`].
//!
//! The lock-free primitives are here: `AsyncValue`'s state machine and
//! waiter list, the work queues, the allocators' counters. Atomics, cells
//! and threads come from `sync`, which swaps in `loom` under `cfg(loom)`;
//! see `core/tests/loom.rs`. The executor (`exec::executor`) has `unsafe`
//! of its own: register slots that hold raw `AsyncValue` pointers
//! published by compare-and-swap, and kernel frames over its buffers.

pub mod allocator;
pub mod async_value;
pub mod chain;
pub mod diagnostic;
#[doc(hidden)]
pub mod host_buffer;
pub mod host_context;
pub(crate) mod stack_room;
pub(crate) mod sync;
pub mod task;
pub mod work_queue;

pub use allocator::{
    AllocationStats, FixedSizeAllocator, HostAllocator, LeakCheckAllocator, MallocAllocator,
    ProfiledAllocator,
};
pub use async_value::{
    AsyncState, AsyncValue, AsyncValueKind, AsyncValueRef, GetError, Rejected, SetError,
    live_async_values, live_async_values_tracked, track_live_async_values,
};
pub use chain::{Chain, ready_chain, unavailable_chain};
pub use diagnostic::{Diagnostic, ErrorCode, Location};
pub use host_buffer::HostBuffer;
pub use host_context::{DEFAULT_MAX_CALL_DEPTH, HostContext, SharedContext};
pub use task::Task;
pub use work_queue::{
    ConcurrentWorkQueue, MultiThreadedWorkQueue, SingleThreadedWorkQueue, WorkQueueError,
    WorkQueueSpec, create_work_queue,
};
