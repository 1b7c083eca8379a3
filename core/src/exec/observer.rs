//! Execution events for tools (profiler, inspector). With no observer
//! attached the executor pays one predictable branch per kernel.

use std::time::Instant;

use crate::runtime::AsyncState;

/// Identifies one execution of one function (unique within the process).
pub type ExecutionId = u64;

/// What happened, with the kernel as its index in the function's kernel
/// table (0 is the argument pseudo kernel) and registers by number.
#[derive(Debug, Clone, Copy)]
pub enum ExecEvent<'a> {
    FunctionBegin {
        execution: ExecutionId,
        /// Position in the FunctionIndex.
        function: usize,
        name: &'a str,
        /// The execution that called this one (through a kernel), if known.
        thread: std::thread::ThreadId,
        time: Instant,
    },
    /// The function's kernels have all run (its results may still be
    /// unavailable if kernels completed asynchronously).
    FunctionEnd {
        execution: ExecutionId,
        thread: std::thread::ThreadId,
        time: Instant,
    },
    KernelReady {
        execution: ExecutionId,
        kernel: u32,
    },
    KernelStart {
        execution: ExecutionId,
        kernel: u32,
        /// Kernel name.
        name: &'a str,
        thread: std::thread::ThreadId,
        time: Instant,
    },
    KernelEnd {
        execution: ExecutionId,
        kernel: u32,
        thread: std::thread::ThreadId,
        time: Instant,
        /// The kernel was skipped: an argument was an error or execution was
        /// cancelled; its results are that error.
        skipped: bool,
    },
    RegisterSet {
        execution: ExecutionId,
        register: u32,
        state: AsyncState,
    },
}

/// Receives execution events, possibly from several threads at once.
pub trait Observer: Send + Sync {
    fn on_event(&self, event: &ExecEvent<'_>);
}
