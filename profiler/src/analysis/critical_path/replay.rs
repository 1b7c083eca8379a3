//! The recorded graph replayed on other numbers of workers, or with some
//! kernels made faster: list scheduling over what each run cost.
//!
//! Each run costs, in order:
//! 1. its *busy* time, holding a worker: its self time, plus the
//!    executor's slices on its thread since the thread's previous kernel
//!    started (dispatching it; [`crate::analysis::model::ExecutorSlice`]), and for a
//!    thread's last kernel the executor's time after it (ending the
//!    function);
//! 2. its *pool* time, holding a worker: an async tail completed by a
//!    thread other than the blocking pool's, which is work the kernel
//!    handed to the workers (a matrix product's other blocks);
//! 3. its *free* time, holding none: an async tail completed on the
//!    blocking pool (a sleep, blocking I/O).
//!
//! Ready nodes take free workers longest remaining path first. What the
//! replay leaves out is counted in [`Costs::left_out_ns`] (executor time
//! on a thread that ran no kernel) and named in the report: contention
//! for memory and caches, and how many workers the pool work really used.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

use super::Graph;
use crate::analysis::model::Model;

/// What each node of the graph costs in a replay (indexed like the
/// graph's nodes; return and iteration nodes cost nothing).
#[derive(Debug, Clone)]
pub(super) struct Costs {
    pub busy: Vec<u64>,
    pub pool: Vec<u64>,
    pub free: Vec<u64>,
    /// Executor time the replay gives to no run.
    pub left_out_ns: u64,
    /// The executor time it gives to runs.
    pub executor_ns: u64,
}

impl Costs {
    /// The costs of `g`'s nodes as recorded, each matching run's own time
    /// and async tail scaled by `scale(run)`.
    pub fn new(model: &Model, g: &Graph, scale: &dyn Fn(usize) -> f64) -> Costs {
        let n = g.nodes.len();
        let runs = model.runs.len();
        let mut costs = Costs {
            busy: vec![0; n],
            pool: vec![0; n],
            free: vec![0; n],
            left_out_ns: 0,
            executor_ns: 0,
        };
        // Each executor slice goes to the next run its thread starts.
        let mut runs_of_thread: Vec<Vec<usize>> = vec![Vec::new(); model.recording.threads.len()];
        for (r, run) in model.runs.iter().enumerate() {
            runs_of_thread[run.thread].push(r);
        }
        for list in &mut runs_of_thread {
            list.sort_by_key(|&r| model.runs[r].start);
        }
        let mut overhead = vec![0u64; runs];
        for s in &model.executor {
            let list = &runs_of_thread[s.thread as usize];
            // The next run it dispatched; after a thread's last run (the
            // end of the function), that run, whose results it hands on.
            let next = list
                .partition_point(|&r| model.runs[r].start < s.end)
                .min(list.len().saturating_sub(1));
            match list.get(next) {
                Some(&r) => {
                    overhead[r] = overhead[r].saturating_add(s.end - s.start);
                    costs.executor_ns = costs.executor_ns.saturating_add(s.end - s.start);
                }
                None => costs.left_out_ns = costs.left_out_ns.saturating_add(s.end - s.start),
            }
        }
        // Work finished on the blocking pool held no worker; work finished
        // on any other thread (a worker, the thread that called) did.
        let blocking: Vec<bool> = (0..model.recording.threads.len())
            .map(|t| model.thread_name(t) == bef::runtime::work_queue::BLOCKING_THREAD_NAME)
            .collect();
        let mut completed_on_worker = vec![false; runs];
        for c in &model.async_completions {
            // The last completion decides: it is what the tail waited for.
            if model.runs[c.run].completed() == Some(c.time) {
                completed_on_worker[c.run] = !blocking.get(c.thread).copied().unwrap_or(true);
            }
        }
        for (r, run) in model.runs.iter().enumerate() {
            let factor = scale(r).clamp(0.0, 1.0);
            let scaled = |t: u64| (t as f64 * factor).round() as u64;
            costs.busy[r] = scaled(run.self_time).saturating_add(overhead[r]);
            let tail = scaled(g.tail[r]);
            if completed_on_worker[r] {
                costs.pool[r] = tail;
            } else {
                costs.free[r] = tail;
            }
        }
        costs
    }

    fn total(&self, v: usize) -> u64 {
        self.busy[v]
            .saturating_add(self.pool[v])
            .saturating_add(self.free[v])
    }

    /// The longest path through the graph by these costs: no number of
    /// workers replays faster.
    pub fn longest_path(&self, g: &Graph, order: &[usize]) -> u64 {
        let mut finish = vec![0u64; g.nodes.len()];
        let mut longest = 0;
        for &v in order {
            let start = g.preds.of(v).iter().map(|&p| finish[p]).max().unwrap_or(0);
            finish[v] = start.saturating_add(self.total(v));
            longest = longest.max(finish[v]);
        }
        longest
    }

    /// The time runs hold workers, summed.
    pub fn worker_time(&self) -> u64 {
        self.busy
            .iter()
            .chain(&self.pool)
            .fold(0u64, |sum, &t| sum.saturating_add(t))
    }
}

/// The replay of the graph on other numbers of workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WhatIf {
    /// The workers asked for.
    pub workers: usize,
    /// The replayed span on them.
    pub span_ns: u64,
    /// The replayed span on one worker, what the speed-up compares with.
    pub one_worker_ns: u64,
    /// No replay on `workers` can be shorter: the longest path by the
    /// replay's costs, or the time runs hold workers shared among them,
    /// whichever is longer. At most `span_ns`.
    pub lower_bound_ns: u64,
    /// The executor time replayed, as part of the kernels it dispatched.
    pub executor_ns: u64,
    /// Executor time left out of the replay (on threads that ran no
    /// kernel).
    pub left_out_ns: u64,
}

impl WhatIf {
    /// How many times faster than one worker.
    pub fn speed_up(&self) -> f64 {
        self.one_worker_ns as f64 / self.span_ns.max(1) as f64
    }
}

/// The replay with some kernels made faster (`--speedup`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Speedup {
    /// The changes asked for: kernel pattern and how much less time, in
    /// percent.
    pub changes: Vec<(String, f64)>,
    /// How many runs they matched.
    pub runs_matched: u64,
    /// The replayed span with the changes, on the recorded workers.
    pub span_ns: u64,
    /// The replayed span without them, on the recorded workers.
    pub baseline_ns: u64,
}

/// List scheduling of the graph on `workers` with `costs`; the replayed
/// span.
pub(super) fn replay(
    g: &Graph,
    costs: &Costs,
    order: &[usize],
    in_order: &[bool],
    workers: usize,
) -> u64 {
    let n = g.nodes.len();
    let mut level = vec![0u64; n];
    for &v in order.iter().rev() {
        let after = g.succs.of(v).iter().map(|&s| level[s]).max().unwrap_or(0);
        level[v] = costs.total(v).saturating_add(after);
    }
    let mut waiting: Vec<usize> = (0..n)
        .map(|v| g.preds.of(v).iter().filter(|&&p| in_order[p]).count())
        .collect();
    // Work waiting for a worker, by longest remaining path: (level, node,
    // phase); timed events: (time, node, phase ended).
    let mut ready: BinaryHeap<(u64, Reverse<usize>, Phase)> = BinaryHeap::new();
    let mut events: BinaryHeap<Reverse<(u64, usize, Phase)>> = BinaryHeap::new();
    for &v in order {
        if waiting[v] == 0 {
            ready.push((level[v], Reverse(v), Phase::Busy));
        }
    }
    let mut free = workers.max(1);
    let mut now = 0u64;
    let mut end = 0u64;
    loop {
        while let Some(&(_, Reverse(v), phase)) = ready.peek() {
            let work = match phase {
                Phase::Busy => costs.busy[v],
                _ => costs.pool[v],
            };
            if work > 0 && free == 0 {
                break;
            }
            ready.pop();
            if work == 0 {
                events.push(Reverse((now, v, phase)));
            } else {
                free -= 1;
                events.push(Reverse((now.saturating_add(work), v, phase)));
            }
        }
        let Some(Reverse((time, v, phase))) = events.pop() else {
            break;
        };
        now = time;
        end = end.max(time);
        match phase {
            Phase::Busy | Phase::Pool => {
                let work = match phase {
                    Phase::Busy => costs.busy[v],
                    _ => costs.pool[v],
                };
                if work > 0 {
                    free += 1;
                }
                if phase == Phase::Busy {
                    ready.push((level[v], Reverse(v), Phase::Pool));
                } else {
                    events.push(Reverse((now.saturating_add(costs.free[v]), v, Phase::Done)));
                }
            }
            Phase::Done => {
                for &s in g.succs.of(v) {
                    if in_order[s] {
                        waiting[s] -= 1;
                        if waiting[s] == 0 {
                            ready.push((level[s], Reverse(s), Phase::Busy));
                        }
                    }
                }
            }
        }
    }
    end
}

/// What a node is doing in the replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    /// Its own time and dispatch, on a worker.
    Busy,
    /// Work it handed to the pool, on a worker.
    Pool,
    /// Its results completing off the workers; done after.
    Done,
}

/// The workers of the recorded work queue: `s` has one, `mstd:N` (and
/// `mstd:N,M`) N; otherwise (`mstd` sized by the machine) the threads
/// that ran kernels.
pub(super) fn recorded_workers(model: &Model) -> usize {
    let queue = model.recording.header.work_queue.as_str();
    if queue == "s" {
        return 1;
    }
    let named = queue
        .strip_prefix("mstd:")
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.trim().parse::<usize>().ok());
    named.filter(|&n| n > 0).unwrap_or_else(|| {
        let mut ran = vec![false; model.recording.threads.len()];
        for run in &model.runs {
            ran[run.thread] = true;
        }
        ran.iter().filter(|&&r| r).count().max(1)
    })
}

/// Whether run `run` matches a `--speedup` pattern: its kernel's name
/// contains the pattern, or, for `NAME#INDEX`, contains NAME and the
/// kernel's index is INDEX (`usleep#6`, `tfrt.add.i32#12`).
pub(super) fn matches(model: &Model, run: usize, pattern: &str) -> bool {
    crate::capture::flight::kernel_matches(model.kernel_name(run), model.runs[run].kernel, pattern)
}
