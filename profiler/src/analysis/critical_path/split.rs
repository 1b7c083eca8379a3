//! Where a path's recorded time went: every instant of it in exactly one
//! category, the first that applies (see the [parent](super) module).

use serde::Serialize;

use crate::analysis::model::Model;

/// How a path's recorded time divides: the categories of the
/// [parent](super) module's documentation, which partition its length.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Split {
    /// A path kernel running (nested path kernels counted once).
    pub running_ns: u64,
    /// A path kernel returned, its value still completing off the path.
    pub async_ns: u64,
    /// The executor's own work for the path: making its next kernel ready
    /// and dispatching it, beginning and ending its executions.
    pub executor_ns: u64,
    /// A path kernel ready, waiting in a queue for a worker.
    pub worker_wait_ns: u64,
    /// None of the above: a value published, its path reader not yet
    /// started while nothing recorded explains the wait.
    pub becoming_ready_ns: u64,
}

impl Split {
    /// The categories together: the path's length.
    pub fn total(&self) -> u64 {
        self.running_ns
            .saturating_add(self.async_ns)
            .saturating_add(self.executor_ns)
            .saturating_add(self.worker_wait_ns)
            .saturating_add(self.becoming_ready_ns)
    }
}

/// Divides the path's recorded time: each run contributes the intervals
/// it was running, completing and queued in, and the executor's slices on
/// its thread and its predecessor's between the predecessor's value being
/// available and the run starting; every stretch goes to the first
/// category whose interval covers it. A stretch none covers waits for a
/// worker when as many threads as the queue has workers were running
/// kernels then, and is becoming ready otherwise.
///
/// `path` is first to last, each run's predecessor the one before it.
pub(super) fn split(model: &Model, path: &[usize], workers: usize) -> Split {
    // (time, category, +1 opening / -1 closing); categories by precedence,
    // then the threads busy in kernels (counted, not a category).
    const RUNNING: usize = 0;
    const ASYNC: usize = 1;
    const EXECUTOR: usize = 2;
    const WORKER_WAIT: usize = 3;
    const BUSY: usize = 4;
    let begin = path.iter().map(|&r| {
        let run = &model.runs[r];
        run.ready().unwrap_or(run.start).min(run.start)
    });
    let end = path.iter().map(|&r| model.results_done(r));
    let (Some(begin), Some(end)) = (begin.min(), end.max()) else {
        return Split::default();
    };
    let by_thread = slices_by_thread(model);
    // (time, category × 2 + 1 opening / + 0 closing): closings sort
    // before openings at one time and category, as -1 before +1 did; 16
    // bytes a change, for a path and segments of millions.
    let mut changes: Vec<(u64, u32)> =
        Vec::with_capacity(path.len() * 6 + 2 * model.segments.len());
    let mut interval = |from: u64, to: u64, category: usize| {
        let (from, to) = (from.max(begin), to.min(end));
        if to > from {
            changes.push((from, category as u32 * 2 + 1));
            changes.push((to, category as u32 * 2));
        }
    };
    let mut previous: Option<usize> = None;
    for &r in path {
        let run = &model.runs[r];
        let ready = run.ready().unwrap_or(run.start).min(run.start);
        interval(run.start, run.end, RUNNING);
        // A caller's late results are its callees', which the path goes
        // through: only a leaf's are completing off the path.
        if run.calls == 0 {
            interval(run.end, model.results_done(r), ASYNC);
        }
        interval(ready, run.start, WORKER_WAIT);
        let (from, threads) = match previous {
            Some(p) => (
                model.results_done(p).min(run.start),
                [Some(run.thread), Some(model.runs[p].thread)],
            ),
            None => (begin, [Some(run.thread), None]),
        };
        for thread in threads.into_iter().flatten() {
            for &i in overlapping(model, &by_thread[thread], from, run.start) {
                let s = &model.executor[i as usize];
                interval(s.start.max(from), s.end.min(run.start), EXECUTOR);
            }
        }
        previous = Some(r);
    }
    drop(by_thread);
    for segment in &model.segments {
        interval(segment.start, segment.end, BUSY);
    }
    changes.sort_unstable();
    let mut open = [0i64; 5];
    let mut split = Split::default();
    let mut at = begin;
    for (time, code) in changes {
        let (category, change) = ((code / 2) as usize, if code % 2 == 1 { 1 } else { -1 });
        let stretch = time - at;
        let slot = match open[..BUSY].iter().position(|&n| n > 0) {
            Some(RUNNING) => &mut split.running_ns,
            Some(ASYNC) => &mut split.async_ns,
            Some(EXECUTOR) => &mut split.executor_ns,
            Some(_) => &mut split.worker_wait_ns,
            None if open[BUSY] >= workers as i64 => &mut split.worker_wait_ns,
            None => &mut split.becoming_ready_ns,
        };
        *slot += stretch;
        at = time;
        open[category] += change;
    }
    split.becoming_ready_ns += end - at;
    split
}

/// The indices into [`Model::executor`] of each thread's slices, in start
/// order (4 bytes a slice, not a copy of it).
fn slices_by_thread(model: &Model) -> Vec<Vec<u32>> {
    let mut by_thread = vec![Vec::new(); model.recording.threads.len()];
    for (i, s) in model.executor.iter().enumerate() {
        // A slice takes events of a recording file, so there are far
        // fewer than 2^32; one beyond would be left out, not misnumbered.
        if let Ok(i) = u32::try_from(i) {
            by_thread[s.thread as usize].push(i);
        }
    }
    by_thread
}

/// The slices of one thread (indices into [`Model::executor`], in start
/// order, not overlapping) that overlap `[from, to)`.
fn overlapping<'s>(model: &Model, slices: &'s [u32], from: u64, to: u64) -> &'s [u32] {
    let slice = |i: &u32| &model.executor[*i as usize];
    let first = slices.partition_point(|i| slice(i).end <= from);
    let last = slices.partition_point(|i| slice(i).start < to);
    &slices[first..last.max(first)]
}
