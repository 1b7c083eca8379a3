//! The BEF executor: asynchronous dataflow over one function's kernels, as
//! the reference BEFExecutor does it.
//!
//! * Each kernel has a ready count (its operands); a producer publishing a
//!   result decrements the count of every user, and the one that reaches
//!   zero makes the user ready.
//! * Ready kernels of the current stream run inline on this thread, newest
//!   first (LIFO, for locality); ready kernels of other streams are enqueued
//!   on the work queue in stream id order, one task per stream, before the
//!   next inline kernel runs. With nothing inline, the thread first adopts
//!   the stream of the first of those to become ready, whose kernels then
//!   run inline.
//! * An unavailable result defers its users with `and_then`; when the
//!   continuation would nest too deep it is enqueued instead.
//! * A kernel with an error argument (or any kernel once the host context is
//!   cancelled) does not run: its results are that error.
//!
//! Registers hold one reference to their value and a count of the uses
//! still to come (each reading operand, plus the producer itself when a
//! placeholder may be forwarded); readers borrow the value while their
//! kernel runs, and the last use releases it. A register that is a function
//! result (or that a non-strict kernel read before its producer ran) holds
//! an indirect placeholder that the producer forwards to its value.
//!
//! While no continuation or queued task holds the execution (its `Arc` is
//! unshared), only the running thread can touch its counters, so they are
//! updated with plain loads and stores instead of read-modify-write atomics.

use std::cell::Cell;
use std::mem::MaybeUninit;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use super::context::ExecutionContext;
use super::frame::KernelFrame;
use super::observer::{Caller, ExecEvent, ExecutionId, Operands, Stamp, now};
use super::program::Program;
use super::tables::{FunctionTables, KernelInfo, Output, RegisterKind, UserLink};
use crate::format::FunctionKind;
use crate::runtime::sync::{
    AtomicBool, AtomicPtr, AtomicU32, Ordering, ReadMut, StrongCount, fence,
};
use crate::runtime::{AsyncState, AsyncValue, Diagnostic, ErrorCode, HostContext};

/// Continuations nested deeper than this are enqueued instead of run.
const MAX_STACK_DEPTH: u32 = 100;

thread_local! {
    static STACK_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Counts nesting of continuations on this thread while alive.
struct StackGuard;

impl StackGuard {
    fn enter() -> (StackGuard, bool) {
        let depth = STACK_DEPTH.with(|d| {
            let v = d.get() + 1;
            d.set(v);
            v
        });
        (StackGuard, depth >= MAX_STACK_DEPTH)
    }
}

impl Drop for StackGuard {
    fn drop(&mut self) {
        STACK_DEPTH.with(|d| d.set(d.get() - 1));
    }
}

/// A register of one execution: its value (one owned reference, or null)
/// and the uses still to come (the last one releases the value), side by
/// side so a use touches one cache line.
struct Slot {
    value: AtomicPtr<()>,
    remaining: AtomicU32,
}

/// An execution's tables and counters, borrowed once per processing loop:
/// the hot path then indexes from locals instead of reloading each base
/// pointer through the `Arc` after every kernel call.
#[derive(Clone, Copy)]
struct View<'a> {
    tables: &'a FunctionTables,
    /// Read before every kernel (its cancellation flag).
    host: &'a HostContext,
    slots: &'a [Slot],
    ready: &'a [AtomicU32],
}

impl<'a> View<'a> {
    /// Register `register`.
    #[inline(always)]
    fn slot(self, register: u32) -> &'a Slot {
        debug_assert!((register as usize) < self.slots.len());
        // SAFETY: the tables name only registers below their register count
        // (`FunctionTables::decode` refuses files that do not), and `slots`
        // has one entry per register.
        unsafe { self.slots.get_unchecked(register as usize) }
    }

    /// The ready count of kernel `kernel`.
    #[inline(always)]
    fn ready_count(self, kernel: u32) -> &'a AtomicU32 {
        debug_assert!((kernel as usize) < self.ready.len());
        // SAFETY: the tables name only kernels of the function (checked by
        // `FunctionTables::decode`), and `ready` has one entry per kernel.
        unsafe { self.ready.get_unchecked(kernel as usize) }
    }

    /// Records one use of `register`; the last releases its value.
    #[inline(always)]
    fn used(self, register: u32, exclusive: bool) {
        let slot = self.slot(register);
        if count_down(&slot.remaining, exclusive) {
            // The last use: every other use happened before (through the
            // counter), so no atomic exchange is needed.
            let ptr = slot.value.load(Ordering::Acquire);
            slot.value.store(std::ptr::null_mut(), Ordering::Relaxed);
            if let Some(ptr) = NonNull::new(ptr) {
                // SAFETY: the register owned one reference, released by its
                // last use (this one).
                drop(unsafe { AsyncValue::from_raw(ptr) });
            }
        }
    }
}

/// Decrements `counter`; true when it reached zero. `exclusive`: only this
/// thread can touch the counter (see [`Execution::exclusive`]).
#[inline(always)]
pub(crate) fn count_down(counter: &AtomicU32, exclusive: bool) -> bool {
    if exclusive {
        let v = counter.load(Ordering::Relaxed);
        counter.store(v.wrapping_sub(1), Ordering::Relaxed);
        v == 1
    } else {
        counter.load(Ordering::Acquire) == 1 || counter.fetch_sub(1, Ordering::AcqRel) == 1
    }
}

/// The event of result `register` of kernel `producer` of `execution`
/// having become available as `value`, on this thread, now.
fn result_available(
    execution: ExecutionId,
    register: u32,
    producer: u32,
    value: &AsyncValue,
) -> ExecEvent<'_> {
    let (thread, time) = now();
    ExecEvent::ResultAvailable {
        execution,
        register,
        producer,
        state: value.state(),
        value,
        thread,
        time,
    }
}

/// One execution of one function.
struct Execution {
    program: Arc<Program>,
    tables: Arc<FunctionTables>,
    ctx: ExecutionContext,
    slots: Box<[Slot]>,
    ready: Box<[AtomicU32]>,
    /// Set when an error value is first published into a register: until
    /// then no kernel can have an error argument, and the per-argument
    /// check is skipped. Stored before the publication that makes the
    /// error readable, so every reader of that error sees it set.
    errors_published: AtomicBool,
    /// Owned stand-ins for registers found empty (a broken invariant,
    /// reported as an error value rather than undefined behaviour), kept
    /// until the execution ends.
    stand_ins: Mutex<Vec<AsyncValue>>,
    /// Non-zero when an observer is attached.
    id: ExecutionId,
}

/// Runs BEF function `tables` of `program` on `args`, appending one value
/// per function result to `results` (unavailable until computed).
pub(crate) fn execute(
    program: &Arc<Program>,
    tables: &Arc<FunctionTables>,
    ctx: &ExecutionContext,
    args: &[AsyncValue],
    results: &mut Vec<AsyncValue>,
) {
    let id = match ctx.observer() {
        Some(observer) => {
            let id = ExecutionContext::next_execution_id();
            let (thread, time) = now();
            observer.on_event(&ExecEvent::FunctionBegin {
                execution: id,
                function: tables.index,
                name: &tables.name,
                kind: FunctionKind::Bef,
                caller: ctx.caller(),
                thread,
                time,
            });
            id
        }
        None => 0,
    };
    let exec = Arc::new(Execution {
        program: program.clone(),
        tables: tables.clone(),
        ctx: ctx.clone(),
        slots: tables
            .initial_uses
            .iter()
            .map(|&n| Slot {
                value: AtomicPtr::new(std::ptr::null_mut()),
                remaining: AtomicU32::new(n),
            })
            .collect(),
        ready: tables
            .initial_ready
            .iter()
            .map(|&n| AtomicU32::new(n))
            .collect(),
        errors_published: AtomicBool::new(false),
        stand_ins: Mutex::new(Vec::new()),
        id,
    });
    // Results are indirect placeholders, forwarded when their producers run.
    for &register in tables.results.iter() {
        let slot = &exec.slots[register as usize].value;
        let current = slot.load(Ordering::Relaxed);
        if let Some(existing) = NonNull::new(current) {
            // SAFETY: the register holds its reference until its last use,
            // which cannot happen before execution starts.
            results.push(unsafe { AsyncValue::borrow_raw(&existing) }.clone());
            continue;
        }
        // The register owns the clone's reference; `results` the original.
        let placeholder = AsyncValue::indirect();
        slot.store(placeholder.clone().into_raw().as_ptr(), Ordering::Relaxed);
        results.push(placeholder);
    }
    exec.run(args);
}

/// No kernel (the empty [`ReadyQueue::next`]).
const NO_KERNEL: u32 = u32::MAX;

/// Ready kernels found while processing one sequential path. The scalar
/// fields are only ever handed by value to out-of-line code, so the
/// processing loop keeps them in registers (the chain of `next` is on every
/// kernel's critical path); the lists live apart in [`Waiting`].
struct ReadyQueue<'w> {
    stream: u32,
    /// The newest ready kernel of the current stream, kept apart from the
    /// inline list so that a chain (one kernel making the next ready) runs
    /// without touching a vector: the inline list then `next` is the LIFO
    /// stack.
    next: u32,
    /// Whether this thread alone holds the execution (see
    /// [`Execution::exclusive`]); cleared whenever this thread shares the
    /// execution with a continuation or task, and re-checked before each
    /// kernel while false (the others may have finished since).
    exclusive: bool,
    /// A separate local of the caller: were the lists part of this struct,
    /// their growth calls would take its address and pin it in memory.
    waiting: &'w mut Waiting,
}

/// The ready kernels besides [`ReadyQueue::next`].
struct Waiting {
    /// Of the current stream, run on this thread (newest last).
    inline: Vec<u32>,
    /// Of other streams, enqueued before the next kernel runs.
    outline: Vec<u32>,
}

/// What [`Waiting::refill`] decided.
struct Refill {
    kernel: Option<u32>,
    stream: u32,
    /// Kernels were enqueued: the execution is shared now.
    enqueued: bool,
}

impl<'w> ReadyQueue<'w> {
    fn new(stream: u32, waiting: &'w mut Waiting) -> Self {
        ReadyQueue {
            stream,
            next: NO_KERNEL,
            exclusive: false,
            waiting,
        }
    }

    /// Adds a ready kernel of the current stream (run before the others).
    #[inline(always)]
    fn push_inline(&mut self, kernel: u32) {
        if self.next != NO_KERNEL {
            self.waiting.inline.push(self.next);
        }
        self.next = kernel;
    }

    /// The next kernel to run on this thread, after enqueueing the ready
    /// kernels of other streams.
    #[inline(always)]
    fn pop(&mut self, exec: &Arc<Execution>) -> Option<u32> {
        let next = std::mem::replace(&mut self.next, NO_KERNEL);
        if next != NO_KERNEL && self.waiting.outline.is_empty() {
            return Some(next);
        }
        let refill = self.waiting.refill(exec, next, self.stream);
        self.stream = refill.stream;
        if refill.enqueued {
            self.exclusive = false;
        }
        refill.kernel
    }
}

impl Waiting {
    fn new(inline: Vec<u32>) -> Self {
        Waiting {
            inline,
            outline: Vec::new(),
        }
    }

    /// The slow half of [`ReadyQueue::pop`]: `next` joins the inline list,
    /// the stream switches when it has nothing left, and the other streams'
    /// kernels are enqueued.
    #[inline(never)]
    fn refill(&mut self, exec: &Arc<Execution>, next: u32, mut stream: u32) -> Refill {
        if next != NO_KERNEL {
            self.inline.push(next);
        }
        if self.inline.is_empty()
            && let Some(&first) = self.outline.first()
        {
            stream = exec.tables.kernel(first).stream_id;
            self.adopt_stream(exec, stream);
        }
        let enqueued = !self.outline.is_empty();
        if enqueued {
            exec.enqueue_outline(&mut self.outline);
        }
        Refill {
            kernel: self.inline.pop(),
            stream,
            enqueued,
        }
    }

    /// Moves the outline kernels of `stream` (the new current stream) to
    /// the (empty) inline list, both lists in the order the reference's
    /// `std::partition` leaves them: that order decides which adopted
    /// kernel runs first and the order within each enqueued stream.
    fn adopt_stream(&mut self, exec: &Execution, stream: u32) {
        let kernels = &exec.tables.kernels;
        let split = partition(&mut self.outline, |id| {
            kernels[id as usize].stream_id != stream
        });
        self.inline.extend_from_slice(&self.outline[split..]);
        self.outline.truncate(split);
    }
}

/// Reorders `ids` so that those `front` accepts come first, and returns
/// how many there are, moving them as C++'s `std::partition` on a vector
/// does (libstdc++ and libc++ alike): the first rejected id from the front
/// swaps with the last accepted id from the back, until the two meet. The
/// order is not stable, and the executor's dispatch order depends on it.
fn partition(ids: &mut [u32], front: impl Fn(u32) -> bool) -> usize {
    let (mut first, mut last) = (0, ids.len());
    loop {
        while first != last && front(ids[first]) {
            first += 1;
        }
        loop {
            if first == last {
                return first;
            }
            last -= 1;
            if first != last && front(ids[last]) {
                break;
            }
        }
        ids.swap(first, last);
        first += 1;
    }
}

/// Argument and result buffers of one processing loop, sized once for the
/// function's largest kernel. Arguments are borrowed from registers (never
/// dropped here).
struct FrameBuffers {
    args: Box<[MaybeUninit<AsyncValue>]>,
    results: Box<[Cell<Option<AsyncValue>>]>,
}

impl FrameBuffers {
    fn new(tables: &FunctionTables) -> Self {
        FrameBuffers {
            args: Box::new_uninit_slice(tables.max_arguments),
            results: (0..tables.max_results).map(|_| Cell::new(None)).collect(),
        }
    }
}

impl Execution {
    #[inline(always)]
    fn view(&self) -> View<'_> {
        View {
            tables: &self.tables,
            host: self.ctx.host(),
            slots: &self.slots,
            ready: &self.ready,
        }
    }

    fn run(self: &Arc<Self>, args: &[AsyncValue]) {
        let tables = &*self.tables;
        let pseudo = &tables.kernels[0];
        let mut waiting = Waiting::new(Vec::new());
        let mut queue = ReadyQueue::new(pseudo.stream_id, &mut waiting);
        let outputs = tables.outputs_of(pseudo);
        queue.exclusive = self.exclusive();
        // Result 0 triggers the kernels without operands.
        self.decrement::<true>(self.view(), tables.users_of(&outputs[0]), &mut queue, None);
        for (n, output) in outputs.iter().enumerate().skip(1) {
            let value = match args.get(n - 1) {
                Some(arg) => arg.clone(),
                None => AsyncValue::error(
                    Diagnostic::new(format!(
                        "function '{}' takes {} arguments but was called with {}",
                        tables.name,
                        tables.num_arguments,
                        args.len()
                    ))
                    .with_code(ErrorCode::InvalidArgument),
                ),
            };
            self.publish::<true>(self.view(), value, 0, n, output, &mut queue, None);
        }
        self.process(queue);
    }

    #[inline]
    fn observe<'e>(&self, event: impl FnOnce() -> ExecEvent<'e>) {
        if let Some(observer) = self.ctx.observer() {
            observer.on_event(&event());
        }
    }

    /// Makes `value` the content of `output` (result `n` of kernel
    /// `producer`) and schedules its users, now if the value is available,
    /// otherwise when it becomes available.
    #[inline(always)]
    ///
    /// `stamp`: the thread and time of the producer's `KernelEnd`, which an
    /// observed result published with it, and the kernels that makes
    /// ready, report as theirs (see `observer`'s Delivery). Returns the
    /// stamp the next result may still use: none once this one may have
    /// run other code on this thread (forwarded to a placeholder whose
    /// waiters run inline, or waited for a value that may complete at
    /// once), whose events came later.
    #[allow(clippy::too_many_arguments)]
    fn publish<const OBSERVED: bool>(
        self: &Arc<Self>,
        view: View<'_>,
        value: AsyncValue,
        producer: u32,
        n: usize,
        output: &Output,
        queue: &mut ReadyQueue<'_>,
        stamp: Option<Stamp>,
    ) -> Option<Stamp> {
        let state = value.state();
        if state.is_available() || output.num_users == 0 {
            if state == AsyncState::Error {
                self.errors_published.store(true, Ordering::Relaxed);
            }
            // Nothing waits for an unavailable result no one reads: an
            // observer is told when it completes all the same.
            let watched = (OBSERVED && !state.is_available() && producer != 0 && self.id != 0)
                .then(|| value.clone());
            self.set_register::<OBSERVED>(view, producer, output, value, state, stamp);
            if let Some(value) = watched {
                self.watch_result(value, producer, output.register);
            }
            let stamp = match output.kind {
                RegisterKind::Plain | RegisterKind::Unread => stamp,
                RegisterKind::Result | RegisterKind::ReadEarly => None,
            };
            self.decrement::<OBSERVED>(view, view.tables.users_of(output), queue, stamp);
            stamp
        } else {
            // Arguments (producer 0) are the caller's values, whose
            // completion the caller's execution reports.
            let observed = (OBSERVED && producer != 0 && self.id != 0).then_some(output.register);
            self.publish_later(value, producer, n, queue.stream, observed);
            queue.exclusive = false;
            None
        }
    }

    /// Defers [`publish`](Self::publish) of an unavailable value until it
    /// resolves; with `observed` (its register), first tells the observer
    /// when and where it became available.
    #[inline(never)]
    fn publish_later(
        self: &Arc<Self>,
        value: AsyncValue,
        producer: u32,
        n: usize,
        stream: u32,
        observed: Option<u32>,
    ) {
        let exec = self.clone();
        let waiting = value.clone();
        waiting.and_then(move || {
            if let Some(register) = observed {
                exec.observe(|| result_available(exec.id, register, producer, &value));
            }
            let (_guard, must_enqueue) = StackGuard::enter();
            if must_enqueue {
                let ctx = exec.ctx.clone();
                ctx.enqueue_work(move || exec.resume(stream, value, producer, n));
            } else {
                exec.resume(stream, value, producer, n);
            }
        });
    }

    /// Tells the observer when `value`, a result of kernel `producer` that
    /// nothing reads, becomes available. The waiter holds the observer,
    /// not the execution, which may end first.
    #[cold]
    fn watch_result(&self, value: AsyncValue, producer: u32, register: u32) {
        let Some(observer) = self.ctx.observer_arc() else {
            return;
        };
        let execution = self.id;
        let waiting = value.clone();
        waiting.and_then(move || {
            observer.on_event(&result_available(execution, register, producer, &value));
        });
    }

    /// The deferred half of [`publish`](Self::publish).
    fn resume(self: &Arc<Self>, stream: u32, value: AsyncValue, producer: u32, n: usize) {
        let mut waiting = Waiting::new(Vec::new());
        let mut queue = ReadyQueue::new(stream, &mut waiting);
        let tables = &*self.tables;
        let output = &tables.outputs_of(tables.kernel(producer))[n];
        if value.is_error() {
            self.errors_published.store(true, Ordering::Relaxed);
        }
        let state = value.state();
        self.set_register::<true>(self.view(), producer, output, value, state, None);
        queue.exclusive = self.exclusive();
        self.decrement::<true>(self.view(), tables.users_of(output), &mut queue, None);
        self.process(queue);
    }

    /// Whether only the running thread can touch this execution's
    /// counters: nothing else holds it (continuations and queued tasks each
    /// hold an `Arc`). The acquire fence pairs with the release decrement of
    /// the last other holder, so its updates are visible. Only this thread
    /// can make the answer false again (by cloning the `Arc`), so it stays
    /// valid until this thread publishes or enqueues.
    #[inline(always)]
    fn exclusive(self: &Arc<Self>) -> bool {
        sole_holder(self)
    }

    /// Publishes `value` (result of kernel `producer`) into `output`'s
    /// register; `state` is the value's as the publisher saw it (an
    /// observer hears of an unread value that completed since through
    /// [`watch_result`](Self::watch_result)).
    #[inline(always)]
    fn set_register<const OBSERVED: bool>(
        self: &Arc<Self>,
        view: View<'_>,
        producer: u32,
        output: &Output,
        value: AsyncValue,
        state: AsyncState,
        stamp: Option<Stamp>,
    ) {
        if OBSERVED && self.id != 0 {
            self.observe(|| {
                let (thread, time) = stamp.unwrap_or_else(now);
                ExecEvent::RegisterSet {
                    execution: self.id,
                    register: output.register,
                    producer,
                    state,
                    value: &value,
                    thread,
                    time,
                }
            });
        }
        let slot = &view.slot(output.register).value;
        match output.kind {
            // Only this producer writes the register.
            RegisterKind::Plain => slot.store(value.into_raw().as_ptr(), Ordering::Release),
            RegisterKind::Unread => drop(value),
            RegisterKind::Result | RegisterKind::ReadEarly => {
                self.set_shared_register(output, value)
            }
        }
    }

    /// Sets a register that may hold a placeholder: a function result (the
    /// placeholder installed before execution started) or one a non-strict
    /// reader may have read first.
    #[cold]
    fn set_shared_register(self: &Arc<Self>, output: &Output, value: AsyncValue) {
        let slot = &self.view().slot(output.register).value;
        if output.kind == RegisterKind::Result {
            self.forward_placeholder(slot, value);
        } else {
            let raw = value.into_raw();
            if slot
                .compare_exchange(
                    std::ptr::null_mut(),
                    raw.as_ptr(),
                    Ordering::Release,
                    Ordering::Acquire,
                )
                .is_err()
            {
                // A non-strict reader installed a placeholder first.
                // SAFETY: the reference the value came with (not published).
                let value = unsafe { AsyncValue::from_raw(raw) };
                self.forward_placeholder(slot, value);
            }
        }
        // The producer's own use of the register.
        self.view().used(output.register, self.exclusive());
    }

    /// Forwards the placeholder in `slot` to `value`.
    fn forward_placeholder(&self, slot: &AtomicPtr<()>, value: AsyncValue) {
        let Some(placeholder) = NonNull::new(slot.load(Ordering::Acquire)) else {
            return;
        };
        // SAFETY: the register keeps its reference until its last use, and
        // the producer's own use (counted in `remaining`) is still to come.
        let indirect = unsafe { AsyncValue::borrow_raw(&placeholder) };
        let _ = indirect.try_forward_to(value);
    }

    /// Decrements the ready count of each user; collects those now ready.
    #[inline(always)]
    fn decrement<const OBSERVED: bool>(
        self: &Arc<Self>,
        view: View<'_>,
        users: &[UserLink],
        queue: &mut ReadyQueue<'_>,
        stamp: Option<Stamp>,
    ) {
        // Hoisted, so the loop has no branch on it.
        if queue.exclusive {
            self.decrement_with::<OBSERVED, true>(view, users, queue, stamp)
        } else {
            self.decrement_with::<OBSERVED, false>(view, users, queue, stamp)
        }
    }

    #[inline(always)]
    fn decrement_with<const OBSERVED: bool, const EXCLUSIVE: bool>(
        self: &Arc<Self>,
        view: View<'_>,
        users: &[UserLink],
        queue: &mut ReadyQueue<'_>,
        stamp: Option<Stamp>,
    ) {
        for link in users {
            if count_down(view.ready_count(link.kernel), EXCLUSIVE) {
                if OBSERVED && self.id != 0 {
                    self.observe(|| {
                        let (thread, time) = stamp.unwrap_or_else(now);
                        ExecEvent::KernelReady {
                            execution: self.id,
                            kernel: link.kernel,
                            thread,
                            time,
                        }
                    });
                }
                if link.stream == queue.stream {
                    queue.push_inline(link.kernel);
                } else {
                    queue.waiting.outline.push(link.kernel);
                }
            }
        }
    }

    /// Runs ready kernels until none is left on this path. The observer
    /// check is made once here, so the loop of an unobserved execution has
    /// none.
    fn process(self: &Arc<Self>, queue: ReadyQueue<'_>) {
        if self.id != 0 {
            self.process_with::<true>(queue)
        } else {
            self.process_with::<false>(queue)
        }
    }

    fn process_with<const OBSERVED: bool>(self: &Arc<Self>, queue: ReadyQueue<'_>) {
        // Rebuilt as a local so the optimizer can keep its scalars in
        // registers (a by-value parameter stays in the caller's memory).
        let ReadyQueue {
            stream,
            next,
            exclusive,
            waiting,
        } = queue;
        let mut queue = ReadyQueue {
            stream,
            next,
            exclusive,
            waiting,
        };
        let view = self.view();
        let tables = view.tables;
        let mut buffers = FrameBuffers::new(tables);
        let FrameBuffers { args, results } = &mut buffers;
        let args = args.as_mut_ptr().cast::<AsyncValue>();
        // One frame for the whole loop: only the per-kernel fields change.
        // SAFETY: `run_kernel` writes a kernel's argument handles before it
        // sets the frame to that kernel and hands it over, and the registers
        // they are borrowed from keep them until the kernel returns.
        let mut frame = unsafe {
            KernelFrame::over_buffers(
                args,
                results,
                &self.program,
                &self.ctx,
                tables,
                tables.kernel(0),
            )
        };
        // Observed, the context handed to the last kernel, reused for the
        // next when the kernel kept no clone of it.
        let mut kernel_ctx = None;
        while let Some(id) = queue.pop(self) {
            // Only this thread can make the execution shared, so a `true`
            // stays valid; a `false` may have become `true` since.
            if !queue.exclusive {
                queue.exclusive = self.exclusive();
            }
            self.run_kernel::<OBSERVED>(view, id, &mut frame, args, &mut queue, &mut kernel_ctx);
        }
    }

    /// Enqueues outline kernels, one task per stream, in stream id order;
    /// each task's kernels keep their order here and run last-first. The
    /// reference sorts with `std::sort`, which is this stable sort for up
    /// to 16 kernels (libstdc++'s insertion sort below its threshold);
    /// beyond that its order within a stream is its library's.
    #[cold]
    fn enqueue_outline(self: &Arc<Self>, ids: &mut Vec<u32>) {
        let kernels = &self.tables.kernels;
        ids.sort_by_key(|&id| kernels[id as usize].stream_id);
        for group in
            ids.chunk_by(|&a, &b| kernels[a as usize].stream_id == kernels[b as usize].stream_id)
        {
            let stream = kernels[group[0] as usize].stream_id;
            let exec = self.clone();
            let inline = group.to_vec();
            self.ctx.enqueue_work(move || {
                let mut waiting = Waiting::new(inline);
                exec.process(ReadyQueue::new(stream, &mut waiting));
            });
        }
        ids.clear();
    }

    /// Borrows the argument registers of a strict kernel into `args` (room
    /// for the function's largest kernel).
    #[inline(always)]
    fn borrow_arguments(&self, view: View<'_>, arguments: &[u32], args: *mut AsyncValue) {
        debug_assert!(arguments.len() <= view.tables.max_arguments);
        // A moving output pointer rather than an index: fewer live values
        // in the loop.
        let mut out = args;
        for &register in arguments {
            let ptr = match NonNull::new(view.slot(register).value.load(Ordering::Acquire)) {
                Some(ptr) => ptr,
                None => self.empty_register(register),
            };
            // SAFETY: `args` has room for `max_arguments` handles, at least
            // this kernel's argument count, so `out` stays inside it; the
            // register (or `stand_ins`) keeps its reference until this
            // reader's use is recorded after the kernel returns, and the
            // buffer never drops what it holds (`MaybeUninit`).
            unsafe {
                out.write(AsyncValue::from_raw(ptr));
                out = out.add(1);
            }
        }
    }

    /// A register read before it was written (a broken invariant): an
    /// error value owned by `stand_ins` until the execution ends,
    /// rather than undefined behaviour.
    #[cold]
    #[inline(never)]
    fn empty_register(&self, register: u32) -> NonNull<()> {
        let value = AsyncValue::error(
            Diagnostic::new(format!(
                "register {register} of '{}' was read before it was written",
                self.tables.name
            ))
            .with_code(ErrorCode::Internal),
        );
        self.errors_published.store(true, Ordering::Relaxed);
        let ptr = value.into_raw();
        // SAFETY: `stand_ins` owns the reference the value came with and
        // keeps it alive while the kernel runs.
        let owned = unsafe { AsyncValue::from_raw(ptr) };
        self.stand_ins
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(owned);
        ptr
    }

    /// Borrows the argument registers of a non-strict kernel into `args`,
    /// installing a placeholder in each whose producer has not run.
    fn borrow_or_placeholder(&self, arguments: &[u32], args: *mut AsyncValue) {
        debug_assert!(arguments.len() <= self.tables.max_arguments);
        for (i, &register) in arguments.iter().enumerate() {
            let slot = &self.view().slot(register).value;
            let mut current = slot.load(Ordering::Acquire);
            if current.is_null() {
                let raw = AsyncValue::indirect().into_raw();
                match slot.compare_exchange(
                    std::ptr::null_mut(),
                    raw.as_ptr(),
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => current = raw.as_ptr(),
                    Err(published) => {
                        // SAFETY: nobody saw the placeholder; release it.
                        drop(unsafe { AsyncValue::from_raw(raw) });
                        current = published;
                    }
                }
            }
            let ptr = NonNull::new(current).expect("set above");
            // SAFETY: as in `borrow_arguments`.
            unsafe { args.add(i).write(AsyncValue::from_raw(ptr)) };
        }
    }

    /// The skip value of a kernel that must not run: its first error
    /// argument (a strict kernel's), or else the cancellation value; `None`
    /// when the kernel runs.
    #[cold]
    #[inline(never)]
    fn skip_value(&self, args: &[AsyncValue], non_strict: bool) -> Option<AsyncValue> {
        // An error argument wins over the cancellation, as in the reference.
        let error = if non_strict {
            None
        } else {
            args.iter().find(|a| a.is_error()).cloned()
        };
        error.or_else(|| self.ctx.host().cancel_value())
    }

    /// Runs kernel `id` (ready) in `frame`, then releases its arguments
    /// and publishes its results.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run_kernel<'a, const OBSERVED: bool>(
        self: &Arc<Self>,
        view: View<'a>,
        id: u32,
        frame: &mut KernelFrame<'a>,
        args: *mut AsyncValue,
        queue: &mut ReadyQueue<'_>,
        kernel_ctx: &mut Option<ExecutionContext>,
    ) {
        let tables = view.tables;
        let info = tables.kernel(id);
        let arguments = tables.operands_of(info).0;
        let num_results = info.header.num_results as usize;
        if info.non_strict {
            self.borrow_or_placeholder(arguments, args);
        } else {
            self.borrow_arguments(view, arguments, args);
        }
        // SAFETY: the first `arguments.len()` handles were written above;
        // the frame's view of them ends before the buffer is written again
        // (the next kernel's `set_kernel` comes after its own writes). The
        // result buffer has `max_results` slots, at least this kernel's
        // result count, left empty by the previous kernel (its results were
        // taken).
        unsafe { frame.set_kernel(info, arguments.len(), num_results) };
        if OBSERVED {
            let operands = Operands {
                registers: arguments,
                values: frame.arguments(),
            };
            self.observe_kernel_start(id, info.header.code, operands);
        }
        // A strict kernel cannot have an error argument before the first
        // error is published, so the arguments are looked at only after.
        let skip = if self.errors_published.load(Ordering::Relaxed) || view.host.is_cancelled() {
            self.skip_value(frame.arguments(), info.non_strict)
        } else {
            None
        };
        match &skip {
            None if OBSERVED => self.invoke_observed(id, info, frame, kernel_ctx),
            None => info.invoke(frame),
            Some(e) => {
                for slot in frame.result_slots() {
                    slot.set(Some(e.clone()));
                }
            }
        }
        // Observed, the end's thread and time are its results' too.
        let stamp = if OBSERVED {
            let operands = Operands {
                registers: arguments,
                values: frame.arguments(),
            };
            self.observe_kernel_end(id, skip.is_some(), operands)
        } else {
            None
        };
        drop(skip);
        // Arguments are released before results are published, as the
        // reference does (so a value's last reader can observe uniqueness).
        // The exclusivity test is hoisted so the release loop has no branch
        // besides the last-use test.
        if queue.exclusive {
            for &register in arguments {
                view.used(register, true);
            }
        } else {
            for &register in arguments {
                view.used(register, false);
            }
        }
        let outputs = tables.outputs_of(info);
        if num_results == 1 {
            // The common single result, without the loop's bookkeeping.
            debug_assert!(outputs.len() == 1 && frame.result_slots().len() == 1);
            // SAFETY: a kernel has as many outputs as its result count, and
            // the frame as many result slots (`set_kernel` above).
            let (output, slot) = unsafe {
                (
                    outputs.get_unchecked(0),
                    frame.result_slots().get_unchecked(0),
                )
            };
            let value = self.take_result(slot, info, 0);
            self.publish::<OBSERVED>(view, value, id, 0, output, queue, stamp);
        } else {
            let mut stamp = stamp;
            for (n, (output, slot)) in outputs.iter().zip(frame.result_slots()).enumerate() {
                let value = self.take_result(slot, info, n);
                stamp = self.publish::<OBSERVED>(view, value, id, n, output, queue, stamp);
            }
        }
    }

    /// Invokes kernel `id` of an observed execution with a context of its
    /// own, naming it as the caller of the functions it runs (the reused
    /// frame keeps the execution's context). `cached`: the previous
    /// kernel's context, renamed instead of made anew (an allocation and
    /// three reference counts) when that kernel kept no clone of it. Out of
    /// line, so that the unobserved loop is compiled as before observers
    /// knew callers.
    #[inline(never)]
    fn invoke_observed(
        &self,
        id: u32,
        info: &KernelInfo,
        frame: &KernelFrame<'_>,
        cached: &mut Option<ExecutionContext>,
    ) {
        let caller = Caller {
            execution: self.id,
            kernel: id,
        };
        let reused = cached.as_mut().is_some_and(|ctx| ctx.rename_caller(caller));
        if !reused {
            *cached = Some(self.ctx.called_from(caller));
        }
        let Some(kernel_ctx) = cached.as_ref() else {
            return;
        };
        info.invoke(&frame.with_context(kernel_ctx));
    }

    /// Result `n` of kernel `info`, as the kernel set it.
    #[inline(always)]
    fn take_result(
        &self,
        slot: &Cell<Option<AsyncValue>>,
        info: &KernelInfo,
        n: usize,
    ) -> AsyncValue {
        match slot.take() {
            Some(value) => value,
            None => self.missing_result(info.header.code, info.header.location, n),
        }
    }

    /// Reports kernel `id`'s end; its thread and time, for the events it
    /// causes at once.
    #[cold]
    fn observe_kernel_end(&self, id: u32, skipped: bool, operands: Operands<'_>) -> Option<Stamp> {
        let observer = self.ctx.observer()?;
        let (thread, time) = now();
        observer.on_event(&ExecEvent::KernelEnd {
            execution: self.id,
            kernel: id,
            skipped,
            operands,
            thread,
            time,
        });
        Some((thread, time))
    }

    #[cold]
    fn observe_kernel_start(&self, id: u32, code: u32, operands: Operands<'_>) {
        let name = self.program.kernel_names()[code as usize].as_str();
        if let Some(observer) = self.ctx.observer() {
            let (thread, time) = now();
            observer.on_event(&ExecEvent::KernelStart {
                execution: self.id,
                kernel: id,
                name,
                operands,
                thread,
                time,
            });
        }
    }

    #[cold]
    fn missing_result(&self, code: u32, location: u32, n: usize) -> AsyncValue {
        let message = format!("did not set its result #{n}");
        self.ctx.emit_error(self.program.kernel_diagnostic(
            code,
            location,
            &message,
            ErrorCode::Internal,
        ))
    }
}

impl Drop for Execution {
    fn drop(&mut self) {
        // Registers whose uses never all came (a value that never became
        // available) still own their reference. Normally none do: one
        // branch-free pass (vectorised) checks that before the walk.
        let any_held = self
            .slots
            .iter_mut()
            .fold(0usize, |held, slot| held | slot.value.read_mut().addr());
        if any_held == 0 {
            return self.end_observed();
        }
        for slot in self.slots.iter_mut() {
            if let Some(ptr) = NonNull::new(slot.value.read_mut()) {
                // SAFETY: a non-null register owns one reference; `&mut self`
                // means nothing else can reach it any more.
                drop(unsafe { AsyncValue::from_raw(ptr) });
            }
        }
        self.end_observed();
    }
}

impl Execution {
    /// Tells an attached observer that the function ended.
    fn end_observed(&self) {
        if self.id != 0
            && let Some(observer) = self.ctx.observer()
        {
            let (thread, time) = now();
            observer.on_event(&ExecEvent::FunctionEnd {
                execution: self.id,
                thread,
                time,
            });
        }
    }
}

/// Whether `holder` is the only reference to what it holds (for an
/// [`Execution`]: whether only the running thread can touch its counters).
/// The acquire fence pairs with the release decrement of the last other
/// reference, so that reference's updates are visible to the caller.
#[inline(always)]
pub(crate) fn sole_holder(holder: &impl StrongCount) -> bool {
    if holder.strong_count() == 1 {
        fence(Ordering::Acquire);
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::partition;

    /// `partition` of `ids` keeping `front` first: the reordered ids and
    /// the split.
    fn split(mut ids: Vec<u32>, front: &[u32]) -> (Vec<u32>, usize) {
        let at = partition(&mut ids, |id| front.contains(&id));
        (ids, at)
    }

    #[test]
    fn partition_swaps_from_both_ends_as_cpp_does() {
        // Derived by hand from the C++ loop: 1 (rejected) swaps with 4,
        // then 2 and 3 are kept in place.
        assert_eq!(split(vec![1, 2, 3, 4], &[2, 3, 4]), (vec![4, 2, 3, 1], 3));
        // 1 swaps with 4, 3 (rejected) meets the back: 3 and 1 are moved.
        assert_eq!(split(vec![1, 2, 3, 4], &[2, 4]), (vec![4, 2, 3, 1], 2));
        // Two rejected at the front swap with the last two accepted.
        assert_eq!(
            split(vec![1, 2, 3, 4, 5], &[3, 4, 5]),
            (vec![5, 4, 3, 2, 1], 3)
        );
        assert_eq!(split(vec![], &[1]), (vec![], 0));
        assert_eq!(split(vec![7, 8], &[]), (vec![7, 8], 0));
        assert_eq!(split(vec![7, 8], &[7, 8]), (vec![7, 8], 2));
        assert_eq!(split(vec![7], &[]), (vec![7], 0));
    }

    #[test]
    fn partition_keeps_every_id_and_puts_the_accepted_first() {
        let mut state = 0x9e37_79b9u32;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let ids: Vec<u32> = (0..state % 12).collect();
            let front: Vec<u32> = ids
                .iter()
                .copied()
                .filter(|i| state >> (i + 4) & 1 == 1)
                .collect();
            let (out, at) = split(ids.clone(), &front);
            assert_eq!(at, front.len());
            assert!(
                out[..at].iter().all(|i| front.contains(i)),
                "{ids:?} {front:?}"
            );
            let mut sorted = out.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, ids);
        }
    }
}
