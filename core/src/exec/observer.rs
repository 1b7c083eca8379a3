//! Execution events for tools (profiler, inspector), and the contract they
//! follow.
//!
//! An [`Observer`] attached to an [`ExecutionContext`](super::ExecutionContext)
//! (see [`with_observer`](super::ExecutionContext::with_observer), or
//! `Runner::call` with an observer) receives an [`ExecEvent`] for what
//! every function run under that context does: the asynchronous executor,
//! the sync interpreter and native functions alike, and every function the
//! kernels of those functions run in turn (`tfrt.call`, `tfrt.if`,
//! `tfrt.while`, `tfrt.repeat.i32`, `tfrt.parallel_for.i32`,
//! `tfrt_test.do.async`, ...: they run functions with the context they were
//! given, which carries the observer and the calling kernel).
//!
//! # Cost
//!
//! With no observer attached, execution pays one predictable branch per
//! kernel (the asynchronous executor chooses its observed or unobserved
//! processing loop once per loop, not per kernel) and draws no execution
//! id, no timestamp and no thread id.
//!
//! # Identities
//!
//! Each run of a function is one *execution*, numbered by an
//! [`ExecutionId`] unique within the process. A kernel is named by its
//! index in its function's kernel table; index 0 is the argument pseudo
//! kernel of a BEF function, which never starts (its results, the
//! arguments, are set right after [`FunctionBegin`](ExecEvent::FunctionBegin)).
//! A native function has no kernel table: its body is reported as kernel 0,
//! started and ended around the host call. Registers are named by number.
//!
//! # Delivery
//!
//! [`Observer::on_event`] is called synchronously on the thread where the
//! event happened, possibly from several threads at once. Events a thread
//! emits reach the observer in the order they happened, and when one event
//! happens before another (in the memory-model sense: the same thread, or
//! ordered through a value, a queue or a lock) its `on_event` call returns
//! before the other's begins. So a recorder that appends events under a lock
//! gets a sequence consistent with causality, in which everything below can
//! be checked. Every event carries the thread it happened on and a
//! monotonic timestamp ([`Timestamp`], taken when it happened); an event that
//! happens before another has a timestamp no later than the other's. The
//! events a kernel's return causes at once on its thread (the results it
//! returned available, published, and the kernels they make ready) carry
//! its `KernelEnd`'s timestamp: one clock reading serves them all.
//!
//! # What holds
//!
//! For every execution `E`:
//!
//! 1. `FunctionBegin(E)` is `E`'s first event and `FunctionEnd(E)` its last
//!    (but for `ResultAvailable`, item 6); each comes once. `FunctionEnd`
//!    comes when `E`'s kernels have all run (or been skipped, or can never
//!    run) and the executor holds `E` no longer: for a sync or native
//!    function when the call returns, on the calling thread; for an
//!    asynchronous one when the last thread or continuation working on it
//!    lets go, on that thread. `E`'s results may still be unavailable then
//!    (a kernel completed them asynchronously). After a call has been
//!    awaited and quiesced and its values released (what `Runner` does),
//!    every execution it began has ended, unless async values leaked.
//! 2. Every `KernelStart(E, k)` is followed by exactly one
//!    `KernelEnd(E, k)`, on the same thread; a kernel starts at most once
//!    per execution. On each thread, `KernelStart`/`KernelEnd` pairs of all
//!    executions nest like brackets (a kernel that runs a function, or
//!    completes a value whose waiters run inline, contains their kernels).
//! 3. In an asynchronous (`FunctionKind::Bef`) execution, every
//!    `KernelStart(E, k)` is preceded by exactly one `KernelReady(E, k)`
//!    (its operands are all set; it may then wait in a queue). The sync
//!    interpreter runs kernels in table order and emits no `KernelReady`.
//! 4. `RegisterSet(E, r)` comes at most once per register, when the value
//!    is published into it: after `KernelEnd(E, producer)`, or after
//!    `FunctionBegin(E)` for an argument (producer 0). A value that was not
//!    available when its kernel returned is published when it becomes
//!    available (so possibly long after the kernel ended, on another
//!    thread), unless nothing reads the register, in which case it is
//!    reported at once with its unavailable state. The sync interpreter
//!    and the executor report every register they write; native functions
//!    have none.
//! 5. `FunctionBegin(C)` with `caller: Some(Caller { execution: E, kernel:
//!    k })` comes after `KernelStart(E, k)`: kernel `k` of `E` ran `C`,
//!    either while it ran (then `C` begins on the same thread before
//!    `KernelEnd(E, k)`: `tfrt.call`, `tfrt.if`, the first iterations of a
//!    loop) or from work it left behind (a continuation or a queued task:
//!    later `tfrt.repeat.i32` blocks, `tfrt.while` iterations after an
//!    unavailable condition, `parallel_for` blocks on other threads,
//!    `tfrt_test.do.async`). Nothing else orders `C` and `E`: `C` may begin
//!    after `FunctionEnd(E)` (a task queued by `E`'s kernel), and may end
//!    after `KernelEnd(E, k)` or `FunctionEnd(E)` (its kernels completed
//!    asynchronously). A function run directly by the host (not by a
//!    kernel) has `caller: None`.
//! 6. `ResultAvailable(E, r)` comes once for each result of a kernel of an
//!    asynchronous execution that was unavailable when the kernel returned
//!    (blocking work, `tfrt_test.do.async`, a call's result its callee sets
//!    later), when it becomes available: on the thread that made it
//!    available (the blocking pool's, a worker's, the callee's), at that
//!    moment, after `KernelEnd(E, producer)`. A result that something reads
//!    reports it before its `RegisterSet` (which may come later still, from
//!    a queued continuation); one that nothing reads (a function's result,
//!    an unread value), whose `RegisterSet` came at once, may report it
//!    after `FunctionEnd(E)`, the one event that may follow it. Arguments
//!    (producer 0) are not reported: their values are the caller's.
//!
//! Following `caller` links from any event's execution up to an execution
//! without a caller gives that event's call stack: the chain of (function,
//! kernel) pairs that led to it.
//!
//! # Operands
//!
//! `KernelStart` and `KernelEnd` carry the kernel's operands: its argument
//! registers and the values in them, the same values at both events (a
//! non-strict kernel's operands may still be unavailable). A kernel may
//! write a tensor operand in place (`tfrt_test.relu_inplace`, a matrix
//! product's output, `tfrt_dht.fill_tensor_with_constant`): a tool that
//! compares what it can see of an operand at both events (for tensors,
//! `kernels::value_text::writes`) learns what the kernel changed. Writes
//! a kernel left to queued tasks are done when its results that were
//! unavailable when it returned become available (`ResultAvailable`).
//! Building the events costs nothing more than before: the operands are
//! the executor's own buffers.
//!
//! # Kernel work
//!
//! A kernel whose operands' shapes define its work (a matrix product's
//! 2·M·N·K operations, an element-wise kernel's bytes read and written)
//! reports it with [`KernelFrame::report_work`](super::KernelFrame::report_work),
//! which reaches [`Observer::on_kernel_work`] on the kernel's thread while
//! it runs: between its `KernelStart` and `KernelEnd`, with any kernel
//! nested in it already ended, so the work belongs to the innermost kernel
//! running on that thread. Without an observer the report costs a branch;
//! the work is computed only when observed.

use std::sync::OnceLock;
use std::thread::ThreadId;
use std::time::Duration;

use crate::format::FunctionKind;
use crate::runtime::{AsyncState, AsyncValue};

/// Identifies one execution of one function (unique within the process;
/// drawn only when an observer is attached).
pub type ExecutionId = u64;

/// The kernel that ran a function: kernel `kernel` (its index in the
/// function's kernel table) of execution `execution`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Caller {
    /// The calling kernel's execution.
    pub execution: ExecutionId,
    /// The calling kernel's index in its function's kernel table (0 for the
    /// body of a native function).
    pub kernel: u32,
}

/// What happened, with the kernel as its index in the function's kernel
/// table and registers by number. See the [module](self) documentation for
/// the order events come in.
#[derive(Debug, Clone, Copy)]
pub enum ExecEvent<'a> {
    /// An execution of a function began.
    FunctionBegin {
        /// The new execution.
        execution: ExecutionId,
        /// The function's position in the FunctionIndex.
        function: usize,
        /// The function's name.
        name: &'a str,
        /// How the function runs (executor, sync interpreter or native).
        kind: FunctionKind,
        /// The kernel that ran this function; `None` when the host called
        /// it directly.
        caller: Option<Caller>,
        /// The thread that called the function.
        thread: ThreadId,
        /// When the execution began.
        time: Timestamp,
    },
    /// The execution's kernels have all run and the executor let go of it
    /// (its results may still be unavailable if kernels completed them
    /// asynchronously).
    FunctionEnd {
        /// The execution that ended.
        execution: ExecutionId,
        /// The thread that let go of the execution last.
        thread: ThreadId,
        /// When it ended.
        time: Timestamp,
    },
    /// Every operand of a kernel is set: it is ready to run (asynchronous
    /// executor only).
    KernelReady {
        /// The kernel's execution.
        execution: ExecutionId,
        /// The kernel's index in the function's kernel table.
        kernel: u32,
        /// The thread that set its last operand.
        thread: ThreadId,
        /// When it became ready.
        time: Timestamp,
    },
    /// A kernel starts running (or being skipped).
    KernelStart {
        /// The kernel's execution.
        execution: ExecutionId,
        /// The kernel's index in the function's kernel table.
        kernel: u32,
        /// The kernel's name (`tfrt.add.i32`), or a native function's name.
        name: &'a str,
        /// Its operands (see [Operands](self#operands)).
        operands: Operands<'a>,
        /// The thread it runs on.
        thread: ThreadId,
        /// When it started.
        time: Timestamp,
    },
    /// A kernel returned (its results may still be unavailable).
    KernelEnd {
        /// The kernel's execution.
        execution: ExecutionId,
        /// The kernel's index in the function's kernel table.
        kernel: u32,
        /// The kernel was skipped: an argument was an error or execution was
        /// cancelled; its results are that error.
        skipped: bool,
        /// Its operands, the values of its `KernelStart` (see
        /// [Operands](self#operands)).
        operands: Operands<'a>,
        /// The thread it ran on (the one of its `KernelStart`).
        thread: ThreadId,
        /// When it returned.
        time: Timestamp,
    },
    /// A value was published into a register.
    RegisterSet {
        /// The register's execution.
        execution: ExecutionId,
        /// The register's number.
        register: u32,
        /// The kernel that produced the value (0: a function argument).
        producer: u32,
        /// The value's state: `Concrete` or `Error`, or unavailable when
        /// the register has no readers (see the module documentation).
        state: AsyncState,
        /// The value itself, for tools that show it (read it only while
        /// handling the event).
        value: &'a AsyncValue,
        /// The thread that published it.
        thread: ThreadId,
        /// When it was published.
        time: Timestamp,
    },
    /// A kernel's result that was unavailable when the kernel returned
    /// became available (see item 6 of the [module](self) documentation).
    ResultAvailable {
        /// The producing kernel's execution.
        execution: ExecutionId,
        /// The register the result is published into.
        register: u32,
        /// The kernel that produced it.
        producer: u32,
        /// Its state now: `Concrete` or `Error`.
        state: AsyncState,
        /// The value itself, for tools that show it (read it only while
        /// handling the event).
        value: &'a AsyncValue,
        /// The thread that made it available.
        thread: ThreadId,
        /// When it became available.
        time: Timestamp,
    },
}

impl ExecEvent<'_> {
    /// The execution the event belongs to.
    pub fn execution(&self) -> ExecutionId {
        match *self {
            ExecEvent::FunctionBegin { execution, .. }
            | ExecEvent::FunctionEnd { execution, .. }
            | ExecEvent::KernelReady { execution, .. }
            | ExecEvent::KernelStart { execution, .. }
            | ExecEvent::KernelEnd { execution, .. }
            | ExecEvent::RegisterSet { execution, .. }
            | ExecEvent::ResultAvailable { execution, .. } => execution,
        }
    }

    /// When the event happened.
    pub fn time(&self) -> Timestamp {
        match *self {
            ExecEvent::FunctionBegin { time, .. }
            | ExecEvent::FunctionEnd { time, .. }
            | ExecEvent::KernelReady { time, .. }
            | ExecEvent::KernelStart { time, .. }
            | ExecEvent::KernelEnd { time, .. }
            | ExecEvent::RegisterSet { time, .. }
            | ExecEvent::ResultAvailable { time, .. } => time,
        }
    }

    /// The thread the event happened on.
    pub fn thread(&self) -> ThreadId {
        match *self {
            ExecEvent::FunctionBegin { thread, .. }
            | ExecEvent::FunctionEnd { thread, .. }
            | ExecEvent::KernelReady { thread, .. }
            | ExecEvent::KernelStart { thread, .. }
            | ExecEvent::KernelEnd { thread, .. }
            | ExecEvent::RegisterSet { thread, .. }
            | ExecEvent::ResultAvailable { thread, .. } => thread,
        }
    }
}

/// A kernel's operands, as `KernelStart` and `KernelEnd` carry them (see
/// [Operands](self#operands)): read them only while handling the event.
#[derive(Debug, Clone, Copy, Default)]
pub struct Operands<'a> {
    /// The registers the operands are read from, in operand order (empty
    /// for a native function's body, which has no registers).
    pub registers: &'a [u32],
    /// The operands' values, as many as `registers` (empty when
    /// `registers` is).
    pub values: &'a [AsyncValue],
}

/// Work a kernel did, as its operands' shapes define it (see the
/// [module](self) documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KernelWork {
    /// Arithmetic operations: 2·M·N·K for a matrix product (one multiply
    /// and one add per term); 0 for a kernel measured by bytes.
    pub flops: u64,
    /// Bytes of tensor data read and written.
    pub bytes: u64,
}

/// Receives execution events, possibly from several threads at once (see
/// the [module](self) documentation for what the events promise).
pub trait Observer: Send + Sync {
    /// Called on the thread where `event` happened, as it happens. Keep it
    /// short: the executor waits for it.
    fn on_event(&self, event: &ExecEvent<'_>);

    /// Called when the kernel running innermost on `thread` reports the
    /// work it did (see [Kernel work](self#kernel-work)). Ignored unless
    /// implemented.
    fn on_kernel_work(&self, work: KernelWork, thread: ThreadId, time: Timestamp) {
        let _ = (work, thread, time);
    }
}

/// The thread and time of an event.
pub(crate) type Stamp = (ThreadId, Timestamp);

/// When an event happened: a reading of the fastest monotonic clock the
/// machine has (the CPU's time-stamp counter where it is invariant, else
/// the system's monotonic clock), converted to nanoseconds only when a tool
/// asks. A reading costs about a third of what `Instant::now` costs
/// (docs/performance.md), and the executor takes two per observed kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(u64);

/// The process's calibrated clock, made on first use (calibrating the
/// time-stamp counter against the monotonic clock takes milliseconds).
fn clock() -> &'static quanta::Clock {
    static CLOCK: OnceLock<quanta::Clock> = OnceLock::new();
    CLOCK.get_or_init(quanta::Clock::new)
}

impl Timestamp {
    /// Now.
    #[inline]
    pub fn now() -> Timestamp {
        Timestamp(clock().raw())
    }

    /// Nanoseconds from `earlier` to `self`; 0 if `earlier` is later.
    pub fn nanos_since(self, earlier: Timestamp) -> u64 {
        clock().delta_as_nanos(earlier.0, self.0)
    }

    /// The time from `earlier` to `self`; zero if `earlier` is later.
    pub fn duration_since(self, earlier: Timestamp) -> Duration {
        Duration::from_nanos(self.nanos_since(earlier))
    }

    /// The clock's reading, in its own units (to store compactly and
    /// convert later with [`from_raw`](Self::from_raw)).
    pub fn raw(self) -> u64 {
        self.0
    }

    /// The timestamp of a reading [`raw`](Self::raw) gave.
    pub fn from_raw(raw: u64) -> Timestamp {
        Timestamp(raw)
    }

    /// What the readings come from, for a recording's header.
    pub fn source() -> &'static str {
        // quanta scales raw readings by 1 exactly when it fell back to the
        // monotonic clock (whose readings are nanoseconds already).
        let probe = 1u64 << 40;
        if clock().delta_as_nanos(0, probe) == probe {
            "monotonic system clock"
        } else {
            "CPU time-stamp counter, calibrated against the monotonic clock"
        }
    }
}

thread_local! {
    /// This thread's id: `thread::current()` clones a handle each time.
    static THREAD: ThreadId = std::thread::current().id();
}

/// The thread and time of an event happening now.
#[inline]
pub(crate) fn now() -> Stamp {
    let thread = THREAD
        .try_with(|id| *id)
        .unwrap_or_else(|_| std::thread::current().id());
    (thread, Timestamp::now())
}
