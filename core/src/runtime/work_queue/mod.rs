//! Work queues: where kernels' asynchronous and blocking work runs.
//!
//! One trait, [`ConcurrentWorkQueue`], two implementations chosen by name
//! (see [`WorkQueueSpec::parse`]):
//! * `s` — [`SingleThreadedWorkQueue`]: tasks run in FIFO order on the
//!   thread that calls `await_values` or `quiesce`.
//! * `mstd`, `mstd:N`, `mstd:N,M` — [`MultiThreadedWorkQueue`]: N compute
//!   threads with per-thread work-stealing deques that park when idle, and
//!   up to M threads for blocking work.

mod blocking;
pub mod deque;
mod multi;
mod parse;
mod single;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use self::blocking::BLOCKING_THREAD_NAME;
pub use self::multi::MultiThreadedWorkQueue;
pub use self::parse::{
    DEFAULT_BLOCKING_THREADS, MAX_BLOCKING_THREADS, MAX_THREADS, WorkQueueError, WorkQueueSpec,
};
pub use self::single::SingleThreadedWorkQueue;
use super::async_value::AsyncValue;
use super::task::Task;

/// The interface the executor and kernels use to run work.
pub trait ConcurrentWorkQueue: Send + Sync {
    /// The queue's name in the syntax [`WorkQueueSpec::parse`] accepts.
    fn name(&self) -> String;

    /// Enqueues non-blocking work.
    fn add_task(&self, task: Task);

    /// Enqueues work that may block. With `allow_queuing == false` the task
    /// is accepted only if it can start at once (an idle or new blocking
    /// thread), even if every running blocking task blocks forever. A
    /// refused task is handed back.
    #[must_use = "a refused task is handed back and must be run or dropped"]
    fn add_blocking_task(&self, task: Task, allow_queuing: bool) -> Option<Task>;

    /// Blocks until every value is available (concrete or error). On a
    /// thread of the queue it runs other tasks while waiting instead.
    fn await_values(&self, values: &[AsyncValue]);

    /// Blocks until no task is queued or running. Must not be called from a
    /// task of the same queue (it would wait for itself); doing so panics.
    fn quiesce(&self);

    /// Queues `task` to run once no other task is queued or running (the
    /// task calling this counts as finished once it returns): the
    /// non-blocking quiesce, safe to call from the queue's own tasks.
    /// [`quiesce`](Self::quiesce) waits for such tasks too, and for the
    /// work they add.
    fn when_idle(&self, task: Task);

    /// Number of compute threads (a hint for splitting work).
    fn parallelism_level(&self) -> usize;

    /// Whether the calling thread is one of the queue's threads.
    fn is_in_worker_thread(&self) -> bool;
}

/// Creates the work queue a name describes.
pub fn create_work_queue(name: &str) -> Result<Box<dyn ConcurrentWorkQueue>, WorkQueueError> {
    Ok(match WorkQueueSpec::parse(name)? {
        WorkQueueSpec::SingleThreaded => Box::new(SingleThreadedWorkQueue::new()),
        WorkQueueSpec::MultiThreaded {
            threads,
            blocking_threads,
        } => Box::new(MultiThreadedWorkQueue::new(threads, blocking_threads)),
    })
}

/// Calls `done` once every value is available (at once if they all are).
pub(crate) fn when_all_available(values: &[AsyncValue], done: impl FnOnce() + Send + 'static) {
    let pending: Vec<&AsyncValue> = values.iter().filter(|v| !v.is_available()).collect();
    if pending.is_empty() {
        done();
        return;
    }
    struct Countdown<F> {
        left: AtomicUsize,
        done: std::sync::Mutex<Option<F>>,
    }
    let c = Arc::new(Countdown {
        left: AtomicUsize::new(pending.len()),
        done: std::sync::Mutex::new(Some(done)),
    });
    for v in pending {
        let c = c.clone();
        v.and_then(move || {
            if c.left.fetch_sub(1, Ordering::AcqRel) == 1 {
                let f = c.done.lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(f) = f {
                    f();
                }
            }
        });
    }
}

/// Blocks the calling thread until every value is available.
pub(crate) fn block_until_available(values: &[AsyncValue]) {
    if values.iter().all(AsyncValue::is_available) {
        return;
    }
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let f = flag.clone();
    let me = std::thread::current();
    when_all_available(values, move || {
        f.store(true, Ordering::Release);
        me.unpark();
    });
    while !flag.load(Ordering::Acquire) {
        std::thread::park();
    }
}

#[cfg(all(test, not(loom)))]
mod tests;
