//! `mstd:N,M`: N compute threads, each owning a work-stealing deque, a
//! shared injector for tasks submitted from other threads, parking when
//! idle, and a blocking pool of up to M threads.
//!
//! Parking protocol (no lost wake-ups): a worker that found no work sets its
//! `sleeping` flag, increments `sleepers`, issues a SeqCst fence and looks
//! for work once more before parking. A submitter publishes its task, issues
//! a SeqCst fence, then reads `sleepers`. By the fences' total order either
//! the worker sees the task or the submitter sees the sleeper, and then it
//! clears that worker's flag (CAS) and unparks it; an unpark that precedes
//! the park makes the park return at once.
//!
//! Quiescence: `pending` counts tasks accepted and not yet finished
//! (compute and blocking). Workers subtract finished tasks in batches, and
//! always before looking for a place to sleep, so `pending` reaches zero
//! exactly when all work is done; whoever brings it to zero wakes the
//! quiescers. Tasks waiting for idleness (`when_idle`) are not counted
//! until then: whoever finds `pending` at zero with idle waiters (under the
//! `idle` lock, so that exactly one does) counts and queues them instead of
//! waking anyone, and a quiescer returns only when `pending` is zero and no
//! idle waiter is left.

use std::cell::Cell;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering, fence};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::{JoinHandle, Thread};

use super::blocking::BlockingPool;
use super::deque::{self, Steal, Stealer, Worker};
use super::{ConcurrentWorkQueue, block_until_available, when_all_available};
use crate::runtime::async_value::AsyncValue;
use crate::runtime::task::Task;

/// Capacity of each worker's deque; overflow goes to the injector.
const DEQUE_CAPACITY: usize = 4096;
/// Most tasks a worker moves from the injector to its deque at once.
const INJECTOR_BATCH: usize = 32;
/// Finished tasks a worker accumulates before updating `pending`.
const FINISH_BATCH: usize = 64;
/// Rounds of looking for work (with a yield) before parking.
const SPIN_ROUNDS: usize = 16;

#[repr(align(64))]
struct Slot {
    sleeping: AtomicBool,
    thread: OnceLock<Thread>,
}

struct Shared {
    stealers: Vec<Stealer<Task>>,
    slots: Vec<Slot>,
    injector: Mutex<VecDeque<Task>>,
    injector_len: AtomicUsize,
    sleepers: AtomicUsize,
    next_wake: AtomicUsize,
    pending: AtomicUsize,
    /// Tasks waiting for `pending` to reach zero (`when_idle`).
    idle: Mutex<Vec<Task>>,
    quiesce_lock: Mutex<()>,
    quiesce_cv: Condvar,
    shutdown: AtomicBool,
    blocking: Arc<BlockingPool>,
}

/// Per-thread state of a compute worker, reachable through `CURRENT`.
struct WorkerContext {
    shared: *const Shared,
    local: Worker<Task>,
    rng: Cell<u64>,
    finished: Cell<usize>,
}

thread_local! {
    /// The compute worker running on this thread, or null.
    static CURRENT: Cell<*const WorkerContext> = const { Cell::new(ptr::null()) };
    /// The `Shared` whose blocking pool owns this thread, or null.
    static BLOCKING_OF: Cell<*const Shared> = const { Cell::new(ptr::null()) };
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// The calling thread's worker context if it is a compute worker of
    /// this queue.
    fn current_worker(&self) -> Option<&WorkerContext> {
        let ctx = CURRENT.with(|c| c.get());
        // SAFETY: `CURRENT` points at the `WorkerContext` on the stack of
        // `worker_main`, which outlives every task run on that thread, and is
        // reset before that frame ends.
        let ctx = unsafe { ctx.as_ref()? };
        std::ptr::eq(ctx.shared, self).then_some(ctx)
    }

    fn inject(&self, task: Task) {
        let mut q = lock(&self.injector);
        q.push_back(task);
        self.injector_len.store(q.len(), Ordering::Relaxed);
        drop(q);
        self.notify_one();
    }

    /// Wakes one sleeping worker, if any (see the parking protocol).
    fn notify_one(&self) {
        fence(Ordering::SeqCst);
        if self.sleepers.load(Ordering::Relaxed) == 0 {
            return;
        }
        let n = self.slots.len();
        let start = self.next_wake.fetch_add(1, Ordering::Relaxed);
        for i in 0..n {
            let slot = &self.slots[(start + i) % n];
            if slot
                .sleeping
                .compare_exchange(true, false, Ordering::SeqCst, Ordering::Relaxed)
                .is_ok()
            {
                if let Some(t) = slot.thread.get() {
                    t.unpark();
                }
                return;
            }
        }
    }

    fn has_work(&self) -> bool {
        self.injector_len.load(Ordering::Relaxed) > 0 || self.stealers.iter().any(|s| !s.is_empty())
    }

    /// Marks `n` tasks finished; when none is left, starts the idle
    /// waiters or, if there are none, wakes the quiescers.
    fn finish(&self, n: usize) {
        if n > 0 && self.pending.fetch_sub(n, Ordering::AcqRel) == n && !self.release_idle() {
            drop(lock(&self.quiesce_lock));
            self.quiesce_cv.notify_all();
        }
    }

    /// If no task is pending, counts and queues the idle waiters; whether
    /// there were any (then the queue is busy again).
    fn release_idle(&self) -> bool {
        let mut idle = lock(&self.idle);
        if idle.is_empty() || self.pending.load(Ordering::Acquire) != 0 {
            return false;
        }
        let waiters = std::mem::take(&mut *idle);
        // Counted while the lock is held: a quiescer that then takes the
        // lock sees the queue busy.
        self.pending.fetch_add(waiters.len(), Ordering::AcqRel);
        drop(idle);
        for task in waiters {
            self.inject(task);
        }
        true
    }

    fn pop_injector(&self, ctx: &WorkerContext) -> Option<Task> {
        if self.injector_len.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let mut q = lock(&self.injector);
        let first = q.pop_front()?;
        let batch = (q.len() / self.slots.len()).min(INJECTOR_BATCH);
        for _ in 0..batch {
            let Some(t) = q.pop_front() else { break };
            if let Err(t) = ctx.local.push(t) {
                q.push_front(t);
                break;
            }
        }
        self.injector_len.store(q.len(), Ordering::Relaxed);
        drop(q);
        if batch > 0 {
            self.notify_one();
        }
        Some(first)
    }

    fn steal(&self, ctx: &WorkerContext) -> Option<Task> {
        let n = self.stealers.len();
        // xorshift64 for the first victim.
        let mut x = ctx.rng.get();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ctx.rng.set(x);
        let start = (x % n as u64) as usize;
        loop {
            let mut retry = false;
            for i in 0..n {
                match self.stealers[(start + i) % n].steal() {
                    Steal::Success(t) => return Some(t),
                    Steal::Retry => retry = true,
                    Steal::Empty => {}
                }
            }
            if !retry {
                return None;
            }
        }
    }

    fn find_task(&self, ctx: &WorkerContext) -> Option<Task> {
        ctx.local
            .pop()
            .or_else(|| self.pop_injector(ctx))
            .or_else(|| self.steal(ctx))
    }

    fn run_task(&self, task: Task) {
        // A panicking task must not take the worker down (that would hang
        // quiesce); the panic hook has already reported it.
        let _ = catch_unwind(AssertUnwindSafe(|| task.run()));
    }

    /// Runs one task found by `ctx`, with batched accounting.
    fn run_counted(&self, ctx: &WorkerContext, task: Task) {
        self.run_task(task);
        let f = ctx.finished.get() + 1;
        if f >= FINISH_BATCH {
            ctx.finished.set(0);
            self.finish(f);
        } else {
            ctx.finished.set(f);
        }
    }

    fn flush_finished(&self, ctx: &WorkerContext) {
        let f = ctx.finished.replace(0);
        self.finish(f);
    }
}

fn worker_main(shared: Arc<Shared>, index: usize, local: Worker<Task>) {
    let ctx = WorkerContext {
        shared: Arc::as_ptr(&shared),
        local,
        rng: Cell::new(
            0x9E37_79B9_7F4A_7C15 ^ (index as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03),
        ),
        finished: Cell::new(0),
    };
    CURRENT.with(|c| c.set(&ctx));
    let slot = &shared.slots[index];
    'outer: loop {
        if let Some(task) = shared.find_task(&ctx) {
            shared.run_counted(&ctx, task);
            continue;
        }
        shared.flush_finished(&ctx);
        for _ in 0..SPIN_ROUNDS {
            std::thread::yield_now();
            if let Some(task) = shared.find_task(&ctx) {
                shared.run_counted(&ctx, task);
                continue 'outer;
            }
        }
        // Announce sleep, then look once more (see the parking protocol).
        slot.sleeping.store(true, Ordering::SeqCst);
        shared.sleepers.fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst);
        let stop = shared.shutdown.load(Ordering::SeqCst);
        if !stop && !shared.has_work() {
            std::thread::park();
        }
        slot.sleeping.store(false, Ordering::SeqCst);
        shared.sleepers.fetch_sub(1, Ordering::SeqCst);
        if stop && !shared.has_work() {
            break;
        }
    }
    shared.flush_finished(&ctx);
    CURRENT.with(|c| c.set(ptr::null()));
}

/// The `mstd` work queue. Dropping it waits for queued work (unless dropped
/// from one of its own threads) and joins its threads.
pub struct MultiThreadedWorkQueue {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    max_blocking: usize,
}

impl MultiThreadedWorkQueue {
    /// Starts `threads` compute threads (at least 1); up to `max_blocking`
    /// (at least 1) blocking threads are started on demand.
    pub fn new(threads: usize, max_blocking: usize) -> Self {
        let threads = threads.max(1);
        let max_blocking = max_blocking.max(1);
        let mut workers = Vec::with_capacity(threads);
        let mut stealers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let (w, s) = deque::deque::<Task>(DEQUE_CAPACITY);
            workers.push(w);
            stealers.push(s);
        }
        let shared = Arc::new(Shared {
            stealers,
            slots: (0..threads)
                .map(|_| Slot {
                    sleeping: AtomicBool::new(false),
                    thread: OnceLock::new(),
                })
                .collect(),
            injector: Mutex::new(VecDeque::new()),
            injector_len: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            next_wake: AtomicUsize::new(0),
            pending: AtomicUsize::new(0),
            idle: Mutex::new(Vec::new()),
            quiesce_lock: Mutex::new(()),
            quiesce_cv: Condvar::new(),
            shutdown: AtomicBool::new(false),
            blocking: Arc::new(BlockingPool::new(max_blocking)),
        });
        let handles = workers
            .into_iter()
            .enumerate()
            .map(|(i, w)| {
                let s = shared.clone();
                let h = std::thread::Builder::new()
                    .name(format!("bef-worker-{i}"))
                    .spawn(move || worker_main(s, i, w))
                    .expect("failed to start a work queue thread");
                let _ = shared.slots[i].thread.set(h.thread().clone());
                h
            })
            .collect();
        MultiThreadedWorkQueue {
            shared,
            threads: handles,
            max_blocking,
        }
    }

    fn is_blocking_thread(&self) -> bool {
        BLOCKING_OF.with(|b| b.get()) == Arc::as_ptr(&self.shared)
    }
}

impl ConcurrentWorkQueue for MultiThreadedWorkQueue {
    fn name(&self) -> String {
        format!("mstd:{},{}", self.shared.slots.len(), self.max_blocking)
    }

    #[inline]
    fn add_task(&self, task: Task) {
        let shared = &*self.shared;
        shared.pending.fetch_add(1, Ordering::Relaxed);
        let task = match shared.current_worker() {
            Some(ctx) => match ctx.local.push(task) {
                Ok(()) => {
                    shared.notify_one();
                    return;
                }
                Err(task) => task,
            },
            None => task,
        };
        shared.inject(task);
    }

    fn add_blocking_task(&self, task: Task, allow_queuing: bool) -> Option<Task> {
        let shared = self.shared.clone();
        shared.pending.fetch_add(1, Ordering::Relaxed);
        let id = Arc::as_ptr(&shared) as usize;
        let runner = shared.clone();
        let refused = shared.blocking.add(
            task,
            allow_queuing,
            move || BLOCKING_OF.with(|b| b.set(id as *const Shared)),
            move |t| {
                runner.run_task(t);
                runner.finish(1);
            },
        );
        if refused.is_some() {
            shared.finish(1);
        }
        refused
    }

    fn await_values(&self, values: &[AsyncValue]) {
        let shared = &*self.shared;
        let Some(ctx) = shared.current_worker() else {
            block_until_available(values);
            return;
        };
        // On a compute thread: help with other work instead of blocking.
        let done = Arc::new(AtomicBool::new(false));
        let d = done.clone();
        when_all_available(values, move || d.store(true, Ordering::Release));
        while !done.load(Ordering::Acquire) {
            match shared.find_task(ctx) {
                Some(task) => {
                    shared.run_task(task);
                    shared.finish(1);
                }
                None => std::thread::yield_now(),
            }
        }
    }

    fn quiesce(&self) {
        assert!(
            !self.is_in_worker_thread(),
            "ConcurrentWorkQueue::quiesce called from a thread of the same work queue"
        );
        let shared = &*self.shared;
        let mut g = lock(&shared.quiesce_lock);
        loop {
            while shared.pending.load(Ordering::Acquire) != 0 {
                g = shared.quiesce_cv.wait(g).unwrap_or_else(|e| e.into_inner());
            }
            // Idle waiters may remain if their registration raced with the
            // last task's end; start them and wait for them as well.
            if !shared.release_idle() && shared.pending.load(Ordering::Acquire) == 0 {
                return;
            }
        }
    }

    fn when_idle(&self, task: Task) {
        lock(&self.shared.idle).push(task);
        // If the last task ended before the push, nobody else will release
        // the waiter; otherwise the end of the last pending task does.
        self.shared.release_idle();
    }

    fn parallelism_level(&self) -> usize {
        self.shared.slots.len()
    }

    fn is_in_worker_thread(&self) -> bool {
        self.shared.current_worker().is_some() || self.is_blocking_thread()
    }
}

impl Drop for MultiThreadedWorkQueue {
    fn drop(&mut self) {
        let own_thread = self.is_in_worker_thread();
        if !own_thread {
            self.quiesce();
        }
        self.shared.shutdown.store(true, Ordering::SeqCst);
        for slot in &self.shared.slots {
            slot.sleeping.store(false, Ordering::SeqCst);
            if let Some(t) = slot.thread.get() {
                t.unpark();
            }
        }
        self.shared.blocking.shutdown();
        let me = std::thread::current().id();
        for h in self.threads.drain(..) {
            if h.thread().id() != me {
                let _ = h.join();
            }
        }
    }
}
