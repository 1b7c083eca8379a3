//! The critical path of a recording: the longest dependency chain through
//! the recorded graph, each kernel's slack, where the path's time went,
//! and a re-scheduling of the graph on N workers.
//!
//! The graph: a node per kernel run, weighted by the time it ran itself
//! (its self time) plus the time its results took to become available
//! after it returned (async work it left behind: [`Model::async_tail`],
//! from the recorded completions, or in older recordings from when the
//! results were published). Edges are the dataflow edges
//! (values and chains) between runs. A run that called functions
//! continues in a zero-weight *return* node that waits for it and for
//! every run of its callees, and the caller's consumers depend on that
//! node; the caller's operands reach the callee's argument readers through
//! the caller's run. The iterations of a loop kernel (`tfrt.repeat.i32`,
//! `tfrt.while`) are chained: each iteration's arguments are the previous
//! iteration's results, so its argument readers wait for every run of the
//! previous iteration. Earliest and latest start times (the critical path
//! method) give the path and each run's slack.
//!
//! # Where the path's time went
//!
//! The path's *length* is recorded time: from the moment its first kernel
//! was ready (or started) to the moment the last one's results were all
//! available ([`Model::results_done`]). Every instant of it falls in
//! exactly one of four categories, the first that applies ([`Split`]), so
//! they add up to the length:
//!
//! 1. *running*: a kernel of the path is running. A call on the path
//!    contains the kernels it calls, so an instant inside both counts once.
//! 2. *async completion*: a path kernel has returned, and the value the
//!    path continues with is still being completed by work off the path
//!    (the blocking pool, another thread, a callee's late result).
//! 3. *waiting for a worker*: a path kernel has all its operands and waits
//!    in a queue to start; or the path waits while every worker of the
//!    queue runs kernels off the path (its next kernel's function or loop
//!    iteration has yet to begin, behind that work).
//! 4. *becoming ready*: none of those: a value has been published and its
//!    reader is not yet ready while a worker is free (the executor's own
//!    work between kernels).
//!
//! # What if there were N workers
//!
//! [`CriticalOptions::what_if_workers`] replays the recorded graph on N
//! workers by list scheduling: a node starts once its predecessors are
//! done, ready nodes take free workers longest remaining path first, a run
//! holds a worker for its self time and then completes its async tail
//! without one. The speed-up compares that span with the same replay on
//! one worker, so a sequential program predicts ×1.0 whatever N is.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::model::Model;
use crate::stats::human;

/// What to compute besides the path.
#[derive(Debug, Clone, Copy, Default)]
pub struct CriticalOptions {
    /// Re-schedule the graph on this many workers.
    pub what_if_workers: Option<usize>,
    /// Written as JSON ([`to_json`]) instead of text ([`to_text`]).
    pub json: bool,
}

/// Analyses `model` and writes the result, as text or JSON (safe for a
/// terminal: [`crate::display::terminal_json`]).
pub fn write(
    model: &Model,
    options: &CriticalOptions,
    mut out: impl std::io::Write,
) -> std::io::Result<()> {
    let analysis = analyse(model, options);
    let text = if options.json {
        crate::display::terminal_json(&to_json(model, &analysis)).map_err(std::io::Error::from)?
    } else {
        to_text(model, &analysis)
    };
    out.write_all(text.as_bytes())
}

/// A node of the graph: a run, or the return node of a calling run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Run(usize),
    Return(usize),
    /// The end of a loop iteration (an execution index).
    Iteration(usize),
}

/// How a path's recorded time divides: the four categories of the
/// [module](self) documentation, which partition the path's length.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Split {
    /// A path kernel running (nested path kernels counted once).
    pub running_ns: u64,
    /// A path kernel returned, its value still completing off the path.
    pub async_ns: u64,
    /// A path kernel ready, waiting in a queue for a worker.
    pub worker_wait_ns: u64,
    /// A value published, its path reader not yet ready.
    pub becoming_ready_ns: u64,
}

impl Split {
    /// The categories together: the path's length.
    pub fn total(&self) -> u64 {
        self.running_ns
            .saturating_add(self.async_ns)
            .saturating_add(self.worker_wait_ns)
            .saturating_add(self.becoming_ready_ns)
    }
}

/// The replay of the graph on other numbers of workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WhatIf {
    /// The workers asked for.
    pub workers: usize,
    /// The simulated span on them.
    pub span_ns: u64,
    /// The simulated span on one worker, what the speed-up compares with.
    pub one_worker_ns: u64,
}

impl WhatIf {
    /// How many times faster than one worker.
    pub fn speed_up(&self) -> f64 {
        self.one_worker_ns as f64 / self.span_ns.max(1) as f64
    }
}

/// The result of [`analyse`].
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The runs on the critical path, first to last.
    pub path: Vec<usize>,
    /// Its length in recorded time (the sum of [`Split`]'s categories).
    pub length_ns: u64,
    /// The path's weight: its runs' self times and async tails, the span
    /// no number of workers can beat.
    pub weight_ns: u64,
    /// Slack of each run (indexed like [`Model::runs`]).
    pub slack: Vec<u64>,
    /// Where the path's recorded time went.
    pub split: Split,
    /// The recorded span.
    pub recorded_ns: u64,
    /// Total weight of all runs (the work).
    pub work_ns: u64,
    /// The re-scheduling asked for.
    pub what_if: Option<WhatIf>,
    /// Runs left out because the recording's edges loop through them.
    pub cyclic: usize,
}

struct Graph {
    nodes: Vec<Node>,
    weight: Vec<u64>,
    /// The part of the weight that needs no worker (async completion).
    tail: Vec<u64>,
    succs: Adjacency,
    preds: Adjacency,
}

/// Each node's neighbours in one array (compressed rows): a recording of
/// millions of runs would otherwise take a vector per node.
struct Adjacency {
    /// `targets[starts[v]..starts[v + 1]]` are node `v`'s.
    starts: Vec<usize>,
    targets: Vec<usize>,
}

impl Adjacency {
    /// The adjacency of `nodes` nodes along `edges` (`from`, `to`), each
    /// node's targets in the order of `edges`.
    fn new(nodes: usize, edges: &[(usize, usize)]) -> Adjacency {
        let mut starts = vec![0usize; nodes + 1];
        for &(a, _) in edges {
            starts[a + 1] += 1;
        }
        for v in 0..nodes {
            starts[v + 1] += starts[v];
        }
        let mut next = starts.clone();
        let mut targets = vec![0usize; edges.len()];
        for &(a, b) in edges {
            targets[next[a]] = b;
            next[a] += 1;
        }
        Adjacency { starts, targets }
    }

    fn of(&self, v: usize) -> &[usize] {
        &self.targets[self.starts[v]..self.starts[v + 1]]
    }

    fn len(&self, v: usize) -> usize {
        self.starts[v + 1] - self.starts[v]
    }
}

fn build(model: &Model) -> Graph {
    let runs = model.runs.len();
    let mut nodes: Vec<Node> = (0..runs).map(Node::Run).collect();
    let mut ret = vec![None; runs];
    for (r, run) in model.runs.iter().enumerate() {
        if !run.callees.is_empty() {
            ret[r] = Some(nodes.len());
            nodes.push(Node::Return(r));
        }
    }
    let out = |r: usize| ret[r].unwrap_or(r);
    let mut weight = vec![0; runs];
    let mut tail = vec![0; runs];
    for (r, run) in model.runs.iter().enumerate() {
        // A caller's results wait for its callees, which its return node
        // already waits for: only a leaf's late results are its own work.
        if run.callees.is_empty() {
            tail[r] = model.async_tail(r);
        }
        weight[r] = run.self_time.saturating_add(tail[r]);
    }
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for e in &model.edges {
        // An argument edge leaves the caller's run; a value leaves the
        // producer once its callees are done.
        let from = if e.call { e.from } else { out(e.from) };
        edges.push((from, e.to));
    }
    for (r, &node) in ret.iter().enumerate() {
        if let Some(node) = node {
            edges.push((r, node));
        }
    }
    loop_edges(model, &out, &mut nodes, &mut edges);
    for (k, run) in model.runs.iter().enumerate() {
        if let Some(caller) = model.executions[run.execution].caller
            && let Some(node) = ret[caller]
        {
            edges.push((out(k), node));
        }
    }
    // Return and iteration nodes weigh nothing.
    weight.resize(nodes.len(), 0);
    tail.resize(nodes.len(), 0);
    edges.sort_unstable();
    edges.dedup();
    edges.retain(|&(a, b)| a != b);
    let succs = Adjacency::new(nodes.len(), &edges);
    let reversed: Vec<(usize, usize)> = edges.iter().map(|&(a, b)| (b, a)).collect();
    drop(edges);
    let preds = Adjacency::new(nodes.len(), &reversed);
    Graph {
        nodes,
        weight,
        tail,
        succs,
        preds,
    }
}

/// Kernels that run one function after another, each run taking the
/// previous run's results as its arguments.
const LOOPS: [&str; 2] = ["tfrt.repeat.i32", "tfrt.while"];

/// Chains the iterations of each loop kernel: every run of an iteration
/// precedes a zero-weight node, which precedes the argument readers of
/// the next iteration.
fn loop_edges(
    model: &Model,
    out: &dyn Fn(usize) -> usize,
    nodes: &mut Vec<Node>,
    edges: &mut Vec<(usize, usize)>,
) {
    // Per execution: its runs, and the runs that read its arguments.
    let executions = model.executions.len();
    let runs: Vec<(usize, usize)> = (0..model.runs.len())
        .map(|k| (model.runs[k].execution, k))
        .collect();
    let runs_of = Adjacency::new(executions, &runs);
    drop(runs);
    let readers: Vec<(usize, usize)> = model
        .edges
        .iter()
        .filter(|e| e.call)
        .map(|e| (model.runs[e.to].execution, e.to))
        .collect();
    let readers_of = Adjacency::new(executions, &readers);
    drop(readers);
    for (r, run) in model.runs.iter().enumerate() {
        if run.callees.len() < 2 || !LOOPS.contains(&model.kernel_name(r)) {
            continue;
        }
        let mut iterations = run.callees.clone();
        iterations.sort_by_key(|&x| (model.executions[x].begin, x));
        for pair in iterations.windows(2) {
            let end = nodes.len();
            nodes.push(Node::Iteration(pair[0]));
            for &k in runs_of.of(pair[0]) {
                edges.push((out(k), end));
            }
            for &reader in readers_of.of(pair[1]) {
                edges.push((end, reader));
            }
        }
    }
}

/// Kahn's order; nodes on cycles are left out.
fn topological(g: &Graph) -> Vec<usize> {
    let mut indegree: Vec<usize> = (0..g.nodes.len()).map(|v| g.preds.len(v)).collect();
    let mut order: Vec<usize> = (0..g.nodes.len()).filter(|&n| indegree[n] == 0).collect();
    let mut i = 0;
    while i < order.len() {
        let n = order[i];
        i += 1;
        for &s in g.succs.of(n) {
            indegree[s] -= 1;
            if indegree[s] == 0 {
                order.push(s);
            }
        }
    }
    order
}

/// Computes the critical path of `model`.
pub fn analyse(model: &Model, options: &CriticalOptions) -> Analysis {
    let g = build(model);
    let order = topological(&g);
    let n = g.nodes.len();
    let mut in_order = vec![false; n];
    for &v in &order {
        in_order[v] = true;
    }
    // Times come from the recording: sums saturate rather than wrap.
    let mut finish = vec![0u64; n];
    for &v in &order {
        let start = g.preds.of(v).iter().map(|&p| finish[p]).max().unwrap_or(0);
        finish[v] = start.saturating_add(g.weight[v]);
    }
    let length = order.iter().map(|&v| finish[v]).max().unwrap_or(0);
    let mut latest_finish = vec![length; n];
    for &v in order.iter().rev() {
        if let Some(min) = g
            .succs
            .of(v)
            .iter()
            .map(|&s| latest_finish[s].saturating_sub(g.weight[s]))
            .min()
        {
            latest_finish[v] = min;
        }
    }
    let mut slack = vec![0u64; model.runs.len()];
    for &v in &order {
        if let Node::Run(r) = g.nodes[v] {
            slack[r] = latest_finish[v].saturating_sub(finish[v]);
        }
    }
    // Walk back from the node finishing last along preds that finish when
    // their successor starts; among equals, the one recorded last.
    let mut path_nodes = Vec::new();
    let mut at = order
        .iter()
        .copied()
        .filter(|&v| finish[v] == length)
        .max_by_key(|&v| (node_end(model, g.nodes[v]), v));
    // Only through nodes in the order: each step goes back in it, so the
    // walk ends (nodes on cycles have no finish time).
    while let Some(v) = at {
        path_nodes.push(v);
        let start = finish[v].saturating_sub(g.weight[v]);
        at = g
            .preds
            .of(v)
            .iter()
            .copied()
            .filter(|&p| in_order[p] && finish[p] == start)
            .max_by_key(|&p| (node_end(model, g.nodes[p]), p));
    }
    path_nodes.reverse();
    let path: Vec<usize> = path_nodes
        .iter()
        .filter_map(|&v| match g.nodes[v] {
            Node::Run(r) => Some(r),
            Node::Return(_) | Node::Iteration(_) => None,
        })
        .collect();
    let split = split(model, &path);
    let what_if = options.what_if_workers.map(|workers| WhatIf {
        workers,
        span_ns: simulate(&g, &order, &in_order, workers.max(1)),
        one_worker_ns: simulate(&g, &order, &in_order, 1),
    });
    Analysis {
        length_ns: split.total(),
        weight_ns: length,
        slack,
        split,
        recorded_ns: model.span.1 - model.span.0,
        work_ns: (0..model.runs.len()).fold(0u64, |sum, r| sum.saturating_add(g.weight[r])),
        what_if,
        cyclic: n - order.len(),
        path,
    }
}

/// When a node's work was recorded to end (for tie-breaking).
fn node_end(model: &Model, node: Node) -> u64 {
    match node {
        Node::Run(r) | Node::Return(r) => model.results_done(r),
        Node::Iteration(x) => model.executions[x].end.unwrap_or(0),
    }
}

/// Divides the path's recorded time into the categories of the
/// [module](self) documentation: each run contributes the intervals it
/// was running, completing and queued in, and every stretch of the path's
/// time goes to the first category whose interval covers it; a stretch
/// none covers waits for a worker when as many threads as the queue has
/// workers were running kernels then, and is becoming ready otherwise.
fn split(model: &Model, path: &[usize]) -> Split {
    // (time, category, +1 opening / -1 closing); categories by precedence,
    // then the threads busy in kernels (counted, not a category).
    const RUNNING: usize = 0;
    const ASYNC: usize = 1;
    const WORKER_WAIT: usize = 2;
    const BUSY: usize = 3;
    let begin = path.iter().map(|&r| {
        let run = &model.runs[r];
        run.ready.unwrap_or(run.start).min(run.start)
    });
    let end = path.iter().map(|&r| model.results_done(r));
    let (Some(begin), Some(end)) = (begin.min(), end.max()) else {
        return Split::default();
    };
    let mut changes: Vec<(u64, usize, i64)> = Vec::with_capacity(path.len() * 6);
    let mut interval = |from: u64, to: u64, category: usize| {
        let (from, to) = (from.max(begin), to.min(end));
        if to > from {
            changes.push((from, category, 1));
            changes.push((to, category, -1));
        }
    };
    for &r in path {
        let run = &model.runs[r];
        let ready = run.ready.unwrap_or(run.start).min(run.start);
        let done = model.results_done(r);
        interval(run.start, run.end, RUNNING);
        interval(run.end, done, ASYNC);
        interval(ready, run.start, WORKER_WAIT);
    }
    for segment in &model.segments {
        interval(segment.start, segment.end, BUSY);
    }
    let workers = recorded_workers(model) as i64;
    changes.sort_unstable();
    let mut open = [0i64; 4];
    let mut split = Split::default();
    let mut at = begin;
    for (time, category, change) in changes {
        let stretch = time - at;
        let slot = match open[..BUSY].iter().position(|&n| n > 0) {
            Some(RUNNING) => &mut split.running_ns,
            Some(ASYNC) => &mut split.async_ns,
            Some(_) => &mut split.worker_wait_ns,
            None if open[BUSY] >= workers => &mut split.worker_wait_ns,
            None => &mut split.becoming_ready_ns,
        };
        *slot += stretch;
        at = time;
        open[category] += change;
    }
    split.becoming_ready_ns += end - at;
    split
}

/// The workers of the recorded work queue: `s` has one, `mstd:N` (and
/// `mstd:N,M`) N; otherwise (`mstd` sized by the machine) the threads
/// that ran kernels.
fn recorded_workers(model: &Model) -> usize {
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

/// List scheduling of the graph on `workers`: ready nodes, longest
/// remaining path first, each run holding a worker for its self time; its
/// async tail and zero-weight nodes hold none. The simulated span.
fn simulate(g: &Graph, order: &[usize], in_order: &[bool], workers: usize) -> u64 {
    let n = g.nodes.len();
    let mut level = vec![0u64; n];
    for &v in order.iter().rev() {
        let after = g.succs.of(v).iter().map(|&s| level[s]).max().unwrap_or(0);
        level[v] = g.weight[v].saturating_add(after);
    }
    let mut waiting: Vec<usize> = (0..n)
        .map(|v| g.preds.of(v).iter().filter(|&&p| in_order[p]).count())
        .collect();
    // Ready nodes by longest remaining path; timed events: (time, node, done).
    let mut ready: BinaryHeap<(u64, Reverse<usize>)> = BinaryHeap::new();
    let mut events: BinaryHeap<Reverse<(u64, usize, bool)>> = BinaryHeap::new();
    for &v in order {
        if waiting[v] == 0 {
            ready.push((level[v], Reverse(v)));
        }
    }
    let mut free = workers;
    let mut now = 0u64;
    let mut end = 0u64;
    loop {
        while let Some((_, Reverse(v))) = ready.pop() {
            let busy = g.weight[v] - g.tail[v];
            if busy == 0 {
                events.push(Reverse((now.saturating_add(g.tail[v]), v, true)));
            } else if free > 0 {
                free -= 1;
                events.push(Reverse((now.saturating_add(busy), v, false)));
            } else {
                ready.push((level[v], Reverse(v)));
                break;
            }
        }
        let Some(Reverse((time, v, done))) = events.pop() else {
            break;
        };
        now = time;
        end = end.max(time);
        if !done {
            // The worker is free; the results follow after the tail.
            free += 1;
            events.push(Reverse((now.saturating_add(g.tail[v]), v, true)));
            continue;
        }
        for &s in g.succs.of(v) {
            if in_order[s] {
                waiting[s] -= 1;
                if waiting[s] == 0 {
                    ready.push((level[s], Reverse(s)));
                }
            }
        }
    }
    end
}

/// One path entry as JSON shows it.
#[derive(Debug, Serialize)]
pub struct PathEntry {
    /// `function;kernel#index` stack.
    pub function: String,
    /// The kernel's name.
    pub kernel: String,
    /// Its index.
    pub kernel_index: u32,
    /// Its execution id.
    pub execution: u64,
    /// Self time.
    pub self_ns: u64,
    /// Async completion time after it returned.
    pub async_ns: u64,
    /// Ready → start.
    pub queued_ns: u64,
    /// Start, since the recording began.
    pub start_ns: u64,
}

/// The analysis as JSON.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The run was stopped before it ended: what had not run is missing.
    pub partial: bool,
    /// Readers of published values without an edge in the graph
    /// ([`Model::readers_left_out`]).
    pub readers_left_out: u64,
    /// Length of the path in recorded time (the sum of `split`).
    pub length_ns: u64,
    /// The path's weight: its kernels' self times and async tails.
    pub weight_ns: u64,
    /// The recorded span.
    pub recorded_ns: u64,
    /// All runs' weights.
    pub work_ns: u64,
    /// How the path's time divides.
    pub split: Split,
    /// The path.
    pub path: Vec<PathEntry>,
    /// Runs with the most slack first: `(frame, function, slack)`; every run.
    pub slack: Vec<(String, String, u64)>,
    /// `--what-if-workers`: workers, simulated span, and the simulated
    /// span on one worker.
    pub what_if: Option<WhatIf>,
}

/// The analysis in JSON form.
pub fn to_json(model: &Model, analysis: &Analysis) -> Report {
    let mut slack: Vec<(String, String, u64)> = analysis
        .slack
        .iter()
        .enumerate()
        .map(|(r, &s)| (model.frame(r), model.function_label(r), s))
        .collect();
    slack.sort_by_key(|b| Reverse(b.2));
    Report {
        partial: model.recording.header.partial,
        readers_left_out: model.readers_left_out,
        length_ns: analysis.length_ns,
        weight_ns: analysis.weight_ns,
        recorded_ns: analysis.recorded_ns,
        work_ns: analysis.work_ns,
        split: analysis.split,
        path: analysis
            .path
            .iter()
            .map(|&r| {
                let run = &model.runs[r];
                PathEntry {
                    function: model.function_label(r),
                    kernel: crate::display::name(model.kernel_name(r)).into_owned(),
                    kernel_index: run.kernel,
                    execution: model.executions[run.execution].id,
                    self_ns: run.self_time,
                    async_ns: model.async_tail(r),
                    queued_ns: run.ready.map_or(0, |ready| run.start.saturating_sub(ready)),
                    start_ns: run.start,
                }
            })
            .collect(),
        slack,
        what_if: analysis.what_if,
    }
}

/// Kernels listed from each end of a long path.
const PATH_ROWS: usize = 50;

/// The analysis as text.
pub fn to_text(model: &Model, analysis: &Analysis) -> String {
    let mut out = String::new();
    let s = &analysis.split;
    let _ = writeln!(
        out,
        "critical path: {} kernels, {} (recorded span {}, total work {})",
        analysis.path.len(),
        human(analysis.length_ns),
        human(analysis.recorded_ns),
        human(analysis.work_ns)
    );
    let _ = writeln!(
        out,
        "  running {}, async completion {}, waiting for a worker {}, becoming ready {}",
        human(s.running_ns),
        human(s.async_ns),
        human(s.worker_wait_ns),
        human(s.becoming_ready_ns)
    );
    if model.recording.header.partial {
        let _ = writeln!(out, "  ({})", crate::display::PARTIAL);
    }
    if model.readers_left_out > 0 {
        let _ = writeln!(
            out,
            "  ({})",
            crate::stats::readers_left_out(model.readers_left_out)
        );
    }
    if analysis.cyclic > 0 {
        let _ = writeln!(
            out,
            "  ({} nodes left out: the recording's edges loop)",
            analysis.cyclic
        );
    }
    let _ = writeln!(out, "\n{:>12} {:>10}  kernel", "start", "self");
    // A long path: its first and last kernels.
    let shown: Vec<usize> = if analysis.path.len() > 2 * PATH_ROWS {
        let p = &analysis.path;
        p[..PATH_ROWS]
            .iter()
            .chain(&p[p.len() - PATH_ROWS..])
            .copied()
            .collect()
    } else {
        analysis.path.clone()
    };
    for (i, &r) in shown.iter().enumerate() {
        if i == PATH_ROWS && shown.len() < analysis.path.len() {
            let _ = writeln!(
                out,
                "{:>12}  ... {} more kernels",
                "",
                analysis.path.len() - shown.len()
            );
        }
        let run = &model.runs[r];
        let _ = writeln!(
            out,
            "{:>12} {:>10}  {} in {}",
            human(run.start),
            human(run.self_time),
            crate::model::presentation::kernel_frame(model, r),
            model.function_label(r)
        );
    }
    let mut slack: Vec<(u64, usize)> = analysis
        .slack
        .iter()
        .enumerate()
        .filter(|(_, s)| **s > 0)
        .map(|(r, &s)| (s, r))
        .collect();
    slack.sort_by(|a, b| b.cmp(a));
    if !slack.is_empty() {
        let _ = writeln!(out, "\nmost slack (could start this much later):");
        for &(s, r) in slack.iter().take(10) {
            let _ = writeln!(
                out,
                "{:>12}  {} in {}",
                human(s),
                model.frame(r),
                model.function_label(r)
            );
        }
    }
    if let Some(what_if) = analysis.what_if {
        let workers = what_if.workers;
        let bound = analysis
            .weight_ns
            .max(analysis.work_ns / workers.max(1) as u64);
        let _ = writeln!(
            out,
            "\nwhat if {workers} workers: span {}, ×{:.2} against one worker's {} \
             (lower bound {}; replayed from the recorded durations)",
            human(what_if.span_ns),
            what_if.speed_up(),
            human(what_if.one_worker_ns),
            human(bound),
        );
    }
    out
}
