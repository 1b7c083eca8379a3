//! The blocking-task pool of `mstd`: up to `max_threads` threads started on
//! demand, each exiting after being idle for a while. Blocking tasks are
//! rare and long, so a mutex-protected FIFO is the right tool here.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::runtime::task::Task;

/// The name of the blocking pool's threads: what a profiler tells them
/// from the workers by (work finished there held no worker).
pub const BLOCKING_THREAD_NAME: &str = "bef-blocking";

/// How long an idle blocking thread waits for work before exiting.
const IDLE_TIMEOUT: Duration = Duration::from_secs(2);
/// Queued blocking tasks accepted beyond the running ones.
const MAX_QUEUED: usize = 1 << 16;

struct State {
    queue: VecDeque<Task>,
    /// Threads waiting for a task (each queued task is matched to one).
    idle: usize,
    threads: usize,
    shutdown: bool,
    handles: Vec<JoinHandle<()>>,
}

pub(super) struct BlockingPool {
    max_threads: usize,
    state: Mutex<State>,
    cv: Condvar,
}

impl BlockingPool {
    pub(super) fn new(max_threads: usize) -> Self {
        BlockingPool {
            max_threads,
            state: Mutex::new(State {
                queue: VecDeque::new(),
                idle: 0,
                threads: 0,
                shutdown: false,
                handles: Vec::new(),
            }),
            cv: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Accepts `task` or hands it back. `on_thread_start` is run first on
    /// every new thread; `run` runs each task (with accounting).
    pub(super) fn add(
        self: &Arc<Self>,
        task: Task,
        allow_queuing: bool,
        on_thread_start: impl Fn() + Send + 'static,
        run: impl Fn(Task) + Send + 'static,
    ) -> Option<Task> {
        let mut st = self.lock();
        if st.shutdown {
            return Some(task);
        }
        if st.idle > st.queue.len() {
            st.queue.push_back(task);
            drop(st);
            self.cv.notify_one();
            return None;
        }
        if st.threads < self.max_threads {
            // The new thread will take this task: count it as idle so no
            // other queued task is matched to it.
            st.queue.push_back(task);
            st.threads += 1;
            st.idle += 1;
            st.handles.retain(|h| !h.is_finished());
            let pool = self.clone();
            let spawned = std::thread::Builder::new()
                .name(BLOCKING_THREAD_NAME.to_string())
                .spawn(move || {
                    on_thread_start();
                    pool.thread_main(run);
                });
            match spawned {
                Ok(h) => {
                    st.handles.push(h);
                    return None;
                }
                Err(_) => {
                    st.threads -= 1;
                    st.idle -= 1;
                    let task = st
                        .queue
                        .pop_back()
                        .expect("task pushed under the same lock");
                    if !allow_queuing {
                        return Some(task);
                    }
                    st.queue.push_back(task);
                    return None;
                }
            }
        }
        if allow_queuing && st.queue.len() < MAX_QUEUED {
            st.queue.push_back(task);
            return None;
        }
        Some(task)
    }

    fn thread_main(&self, run: impl Fn(Task)) {
        let mut st = self.lock();
        // A new thread starts counted as idle (see `add`).
        loop {
            if let Some(task) = st.queue.pop_front() {
                st.idle -= 1;
                drop(st);
                run(task);
                st = self.lock();
                st.idle += 1;
                continue;
            }
            if st.shutdown {
                break;
            }
            let (guard, timeout) = self
                .cv
                .wait_timeout(st, IDLE_TIMEOUT)
                .unwrap_or_else(|e| e.into_inner());
            st = guard;
            if timeout.timed_out() && st.queue.is_empty() {
                break;
            }
        }
        st.idle -= 1;
        st.threads -= 1;
    }

    /// Stops accepting tasks, lets the threads drain the queue and joins them.
    pub(super) fn shutdown(&self) {
        let handles = {
            let mut st = self.lock();
            st.shutdown = true;
            std::mem::take(&mut st.handles)
        };
        self.cv.notify_all();
        let me = std::thread::current().id();
        for h in handles {
            if h.thread().id() != me {
                let _ = h.join();
            }
        }
    }
}
