//! `s`: the single-threaded work queue. Tasks are queued (from any thread)
//! and run in FIFO order on the thread that calls `await_values` or
//! `quiesce`, which makes execution deterministic.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use super::{ConcurrentWorkQueue, when_all_available};
use crate::runtime::async_value::AsyncValue;
use crate::runtime::task::Task;

struct Shared {
    tasks: Mutex<VecDeque<Task>>,
    /// Tasks waiting for `tasks` to run empty (`when_idle`).
    idle: Mutex<Vec<Task>>,
    /// Signalled when a task is queued or an awaited set becomes available.
    cv: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, VecDeque<Task>> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Moves the idle waiters into the (empty) task queue `tasks`; whether
    /// there were any.
    fn release_idle(&self, tasks: &mut VecDeque<Task>) -> bool {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        let any = !idle.is_empty();
        tasks.extend(idle.drain(..));
        any
    }
}

thread_local! {
    /// The `Shared` of the single-threaded queue whose task this thread is
    /// running, or 0.
    static RUNNING: Cell<usize> = const { Cell::new(0) };
}

/// The `s` work queue.
pub struct SingleThreadedWorkQueue {
    shared: Arc<Shared>,
}

impl Default for SingleThreadedWorkQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl SingleThreadedWorkQueue {
    /// An empty queue; its tasks run on threads that wait on it.
    pub fn new() -> Self {
        SingleThreadedWorkQueue {
            shared: Arc::new(Shared {
                tasks: Mutex::new(VecDeque::new()),
                idle: Mutex::new(Vec::new()),
                cv: Condvar::new(),
            }),
        }
    }

    fn id(&self) -> usize {
        Arc::as_ptr(&self.shared) as usize
    }

    fn run(&self, task: Task) {
        let prev = RUNNING.with(|r| r.replace(self.id()));
        struct Restore(usize);
        impl Drop for Restore {
            fn drop(&mut self) {
                RUNNING.with(|r| r.set(self.0));
            }
        }
        let _restore = Restore(prev);
        task.run();
    }
}

impl ConcurrentWorkQueue for SingleThreadedWorkQueue {
    fn name(&self) -> String {
        "s".to_string()
    }

    fn add_task(&self, task: Task) {
        self.shared.lock().push_back(task);
        self.shared.cv.notify_all();
    }

    fn add_blocking_task(&self, task: Task, allow_queuing: bool) -> Option<Task> {
        // There is no thread that could start the task right away.
        if !allow_queuing {
            return Some(task);
        }
        self.add_task(task);
        None
    }

    fn await_values(&self, values: &[AsyncValue]) {
        let left = Arc::new(AtomicUsize::new(1));
        let (l, shared) = (left.clone(), self.shared.clone());
        when_all_available(values, move || {
            l.store(0, Ordering::Release);
            // Take the lock so the notification cannot fall between the
            // waiter's check and its wait.
            drop(shared.lock());
            shared.cv.notify_all();
        });
        loop {
            let mut tasks = self.shared.lock();
            loop {
                if left.load(Ordering::Acquire) == 0 {
                    return;
                }
                if let Some(task) = tasks.pop_front() {
                    drop(tasks);
                    self.run(task);
                    break;
                }
                if self.shared.release_idle(&mut tasks) {
                    continue;
                }
                tasks = self
                    .shared
                    .cv
                    .wait(tasks)
                    .unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    fn quiesce(&self) {
        loop {
            let task = {
                let mut tasks = self.shared.lock();
                match tasks.pop_front() {
                    Some(task) => Some(task),
                    None if self.shared.release_idle(&mut tasks) => tasks.pop_front(),
                    None => None,
                }
            };
            match task {
                Some(task) => self.run(task),
                None => return,
            }
        }
    }

    fn when_idle(&self, task: Task) {
        // Tasks run only inside `await_values` and `quiesce`, which release
        // the idle waiters when they run out of tasks.
        self.shared
            .idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(task);
        self.shared.cv.notify_all();
    }

    fn parallelism_level(&self) -> usize {
        1
    }

    fn is_in_worker_thread(&self) -> bool {
        RUNNING.with(|r| r.get()) == self.id()
    }
}
