//! The executor's own time, found from the events: the time a thread spent
//! running executor code (making kernels ready, dispatching them, beginning
//! and ending executions, invoking loop bodies) rather than a kernel or
//! nothing.
//!
//! ```text
//!  thread  ──[ kernel A ]──·····──[ kernel B ]──────────[ kernel C ]──
//!                     end A ↑  ↑ start B   ↑ end B  ↑ C ready  ↑ start C
//!                executor ───  (B ready      idle ───  executor ─
//!                              before A ended)
//! ```
//!
//! Between two consecutive events of a thread outside any kernel, the
//! thread was either running the executor or idle, waiting for work. It
//! cannot have been woken before what woke it happened: the gap ending in
//! a kernel's start is executor time only from when that kernel became
//! ready, and a gap during which another thread recorded an event may
//! have been idle until that event. The rest of the gap is executor time:
//! nothing could have handed the thread work, so it was busy.
//!
//! Threads that never run a kernel or begin an execution (the blocking
//! pool) have no executor time; a gap ending in a result completing
//! asynchronously is the async work that completed it, never the
//! executor's.

use crate::capture::recording::EventKind;

use super::Model;

/// A stretch of a thread's time in executor code (24 bytes: a recording
/// has millions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecutorSlice {
    /// Start time.
    pub start: u64,
    /// End time.
    pub end: u64,
    /// Index into [`crate::capture::recording::Recording::threads`].
    pub thread: u32,
    /// The execution it served (index into [`Model::executions`]): the one
    /// of the event that ended it.
    pub execution: u32,
}

impl Model {
    /// Finds [`Model::executor`]; needs the runs, their ready times and
    /// the executions.
    pub(super) fn collect_executor(&mut self) {
        let recording = std::sync::Arc::clone(&self.recording);
        let threads = recording.threads.len();
        // Every event's time and thread, in time order, to find the latest
        // event of another thread inside a gap (only needed when several
        // threads recorded events).
        let mut others: Vec<(u64, u32)> = Vec::new();
        if threads > 1 {
            for (thread, track) in recording.threads.iter().enumerate() {
                others.extend(track.events.iter().map(|e| (e.time, thread as u32)));
            }
            others.sort_unstable();
        }
        // Counted first, then kept in a vector of that size: growing it
        // would hold it about twice over at the end.
        let mut count = 0usize;
        self.find_executor_slices(&others, |_| count += 1);
        let mut slices = Vec::with_capacity(count);
        self.find_executor_slices(&others, |slice| slices.push(slice));
        // A thread's slices start one after another: the keys are unique,
        // and an unstable sort needs no second buffer.
        slices.sort_unstable_by_key(|s| (s.start, s.thread));
        self.executor = slices;
    }

    /// Hands each slice of executor time to `emit`, thread by thread;
    /// `others` is every event's time and thread in time order when
    /// several threads recorded events.
    fn find_executor_slices(&self, others: &[(u64, u32)], mut emit: impl FnMut(ExecutorSlice)) {
        let recording = &self.recording;
        // The runs open on the thread, and where each sits among them, so
        // that an end finds its run in one step whatever the nesting (as
        // `collect_runs` does); both reset between threads.
        let mut open: Vec<usize> = Vec::new();
        let mut position: Vec<usize> = vec![usize::MAX; self.runs.len()];
        for (thread, track) in recording.threads.iter().enumerate() {
            for closed in open.drain(..) {
                position[closed] = usize::MAX;
            }
            let runs_executor = track.events.iter().any(|e| {
                matches!(
                    e.kind,
                    EventKind::KernelStart { .. } | EventKind::FunctionBegin { .. }
                )
            });
            if !runs_executor {
                continue;
            }
            let mut previous: Option<u64> = None;
            for e in &track.events {
                if matches!(e.kind, EventKind::KernelWork { .. }) {
                    continue;
                }
                let run = match e.kind {
                    EventKind::KernelStart { kernel } | EventKind::KernelEnd { kernel, .. } => self
                        .run_of(e.execution, kernel)
                        .filter(|&r| self.runs[r].thread == thread),
                    _ => None,
                };
                if open.is_empty()
                    && let Some(from) = previous
                    && e.time > from
                    && !matches!(e.kind, EventKind::ResultAvailable { .. })
                    && let Some(&execution) = self.execution_index.get(&e.execution)
                {
                    let starting = match e.kind {
                        EventKind::KernelStart { .. } => run,
                        _ => None,
                    };
                    let mut woken = latest_other(others, thread as u32, from, e.time);
                    if let Some(r) = starting
                        && let Some(ready) = self.runs[r].ready()
                    {
                        woken = woken.max(ready);
                    }
                    let start = from.max(woken);
                    // Threads and executions come from a file's events:
                    // far fewer than 2^32 (one beyond is left out).
                    if e.time > start
                        && let (Ok(thread), Ok(execution)) =
                            (u32::try_from(thread), u32::try_from(execution))
                    {
                        emit(ExecutorSlice {
                            start,
                            end: e.time,
                            thread,
                            execution,
                        });
                    }
                }
                match (&e.kind, run) {
                    (EventKind::KernelStart { .. }, Some(r)) if self.runs[r].start == e.time => {
                        position[r] = open.len();
                        open.push(r);
                    }
                    (EventKind::KernelEnd { .. }, Some(r)) => {
                        let at = position[r];
                        if open.get(at) == Some(&r) {
                            for closed in open.drain(at..) {
                                position[closed] = usize::MAX;
                            }
                        }
                    }
                    _ => {}
                }
                previous = Some(previous.map_or(e.time, |p| p.max(e.time)));
            }
        }
    }

    /// Executor time per thread (indexed like the recording's threads).
    pub fn executor_time_by_thread(&self) -> Vec<u64> {
        let mut time = vec![0u64; self.recording.threads.len()];
        for s in &self.executor {
            let t = s.thread as usize;
            time[t] = time[t].saturating_add(s.end - s.start);
        }
        time
    }
}

/// The time of the latest event of a thread other than `thread` after
/// `from` and at or before `to`; `from` when there is none.
fn latest_other(events: &[(u64, u32)], thread: u32, from: u64, to: u64) -> u64 {
    let mut at = events.partition_point(|&(time, _)| time <= to);
    // Only `thread`'s events at `to` itself can come between: it has none
    // inside the gap.
    while at > 0 {
        at -= 1;
        let (time, other) = events[at];
        if time <= from {
            break;
        }
        if other != thread {
            return time;
        }
    }
    from
}
