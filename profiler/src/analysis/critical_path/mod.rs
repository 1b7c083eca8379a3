//! The critical path of a recording: the chain of kernels that decided
//! when the program finished, each kernel's slack, where the path's time
//! went, and replays of the graph on N workers or with faster kernels.
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
//! previous iteration.
//!
//! # The path
//!
//! The path is what happened: from the kernel whose results were
//! available last, back through the input that arrived last at each
//! kernel, the one that made it ready. At a join, that is the branch that
//! finished last, whatever the kernels' own costs say (on few workers a
//! short branch can be the one waited for). Slack is by the costs, as the
//! critical path method computes it: how much later a run could have
//! started, on as many workers as it needed, without delaying the end.
//!
//! # Where the path's time went
//!
//! The path's *length* is recorded time: from the moment its first kernel
//! was ready (or started) to the moment the last one's results were all
//! available ([`Model::results_done`]). Every instant of it falls in
//! exactly one of five categories, the first that applies ([`Split`]), so
//! they add up to the length:
//!
//! 1. *running*: a kernel of the path is running. A call on the path
//!    contains the kernels it calls, so an instant inside both counts once.
//! 2. *async completion*: a path kernel (not a call: its callees are on
//!    the path) has returned, and the value the path continues with is
//!    still being completed off the path (the blocking pool, the other
//!    blocks of a matrix product).
//! 3. *executor*: the executor's own work for the path
//!    ([`crate::analysis::model::ExecutorSlice`]): between a path kernel's input
//!    arriving and its start, the thread that runs it (or that published
//!    the input) was running executor code: making it ready, dispatching
//!    it, beginning or ending an execution, invoking a loop's body.
//! 4. *waiting for a worker*: a path kernel has all its operands and waits
//!    in a queue to start; or the path waits while every worker of the
//!    queue runs kernels off the path.
//! 5. *becoming ready*: none of those: nothing recorded explains the wait
//!    (a parked thread waking up, say).
//!
//! # What if
//!
//! [`CriticalOptions::what_if_workers`] replays the recorded graph on N
//! workers by list scheduling (`replay`): each run holds a worker for
//! its self time and the executor time that dispatched it, then for work
//! it handed to the pool, then completes the rest of its async tail
//! without one. The speed-up compares that span with the same replay on
//! one worker, so a sequential program predicts ×1.0 whatever N is.
//! [`CriticalOptions::speedups`] replays it on the recorded workers with
//! the matching kernels taking less time, against the same replay without.

mod replay;
mod split;

use crate::analysis::model::Model;

pub use replay::{Speedup, WhatIf};
pub use split::Split;

/// What to compute besides the path.
#[derive(Debug, Clone, Default)]
pub struct CriticalOptions {
    /// Re-schedule the graph on this many workers.
    pub what_if_workers: Option<usize>,
    /// Replay the graph with the kernels matching each pattern taking
    /// this many percent less time (running and async completion): a
    /// kernel's name containing the pattern, or for `NAME#INDEX` its name
    /// containing NAME and its index INDEX. The first matching change
    /// applies.
    pub speedups: Vec<(String, f64)>,
    /// Written as JSON instead of text (by
    /// [`crate::export::critical_path`]).
    pub json: bool,
}

/// A node of the graph: a run, or the return node of a calling run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Run(usize),
    Return(usize),
    /// The end of a loop iteration (an execution index).
    Iteration(usize),
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
    /// The replay with faster kernels asked for.
    pub speedup: Option<Speedup>,
    /// Executor time the replays give to the kernels it dispatched.
    pub replay_executor_ns: u64,
    /// Executor time the replays leave out (on threads that ran no kernel).
    pub replay_left_out_ns: u64,
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
        if run.calls > 0 {
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
        if run.calls == 0 {
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
        if run.calls < 2 || !LOOPS.contains(&model.kernel_name(r)) {
            continue;
        }
        let mut iterations: Vec<usize> = model.callees(r).collect();
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
    let path = last_arrival_path(model, &g, &order, &in_order);
    let workers = replay::recorded_workers(model);
    let split = split::split(model, &path, workers);
    let recorded = replay::Costs::new(model, &g, &|_| 1.0);
    let what_if = options.what_if_workers.map(|workers| {
        let workers = workers.max(1);
        let span_ns = replay::replay(&g, &recorded, &order, &in_order, workers);
        let bound = recorded
            .longest_path(&g, &order)
            .max(recorded.worker_time() / workers as u64);
        WhatIf {
            workers,
            span_ns,
            one_worker_ns: replay::replay(&g, &recorded, &order, &in_order, 1),
            // List scheduling never beats either bound; the minimum only
            // guards against rounding in the division.
            lower_bound_ns: bound.min(span_ns),
            executor_ns: recorded.executor_ns,
            left_out_ns: recorded.left_out_ns,
        }
    });
    let speedup = (!options.speedups.is_empty()).then(|| {
        let change = |r: usize| {
            options
                .speedups
                .iter()
                .find(|(pattern, _)| replay::matches(model, r, pattern))
                .map(|&(_, percent)| percent)
        };
        let runs_matched = (0..model.runs.len())
            .filter(|&r| change(r).is_some())
            .count() as u64;
        let faster = replay::Costs::new(model, &g, &|r| {
            change(r).map_or(1.0, |percent| 1.0 - percent / 100.0)
        });
        Speedup {
            changes: options.speedups.clone(),
            runs_matched,
            span_ns: replay::replay(&g, &faster, &order, &in_order, workers),
            baseline_ns: replay::replay(&g, &recorded, &order, &in_order, workers),
        }
    });
    Analysis {
        length_ns: split.total(),
        weight_ns: length,
        slack,
        split,
        recorded_ns: model.span.1 - model.span.0,
        work_ns: (0..model.runs.len()).fold(0u64, |sum, r| sum.saturating_add(g.weight[r])),
        what_if,
        speedup,
        replay_executor_ns: recorded.executor_ns,
        replay_left_out_ns: recorded.left_out_ns,
        cyclic: n - order.len(),
        path,
    }
}

/// The path as it happened: from the node whose output was available
/// last, back through the predecessor whose output arrived last at each
/// node, the one that made it ready (at a join, the branch that finished
/// last, whatever the weights say); among equals, the later node.
fn last_arrival_path(model: &Model, g: &Graph, order: &[usize], in_order: &[bool]) -> Vec<usize> {
    // An iteration is done when its kernels' results were all available
    // (its execution's end may wait for values it passed on).
    let mut iteration_done = vec![0u64; model.executions.len()];
    for (r, run) in model.runs.iter().enumerate() {
        let done = &mut iteration_done[run.execution];
        *done = (*done).max(model.results_done(r));
    }
    let available = |v: usize| match g.nodes[v] {
        // A caller's run leads to its return node, which waits for its
        // callees, and passes its operands on to the callees' argument
        // readers, which have them from the moment the call starts.
        Node::Run(r) if model.runs[r].calls > 0 => model.runs[r].start,
        Node::Run(r) | Node::Return(r) => model.results_done(r),
        Node::Iteration(x) => iteration_done[x],
    };
    let mut position = vec![usize::MAX; g.nodes.len()];
    for (i, &v) in order.iter().enumerate() {
        position[v] = i;
    }
    let mut path_nodes = Vec::new();
    let mut at = order
        .iter()
        .copied()
        .filter(|&v| !matches!(g.nodes[v], Node::Iteration(_)))
        .max_by_key(|&v| (available(v), v));
    // Each step goes to a node earlier in the topological order, so the
    // walk ends (nodes on cycles are not in it).
    while let Some(v) = at {
        path_nodes.push(v);

        // A return node goes on through its callees' work, not through
        // the calling run, whose own end (a loop run inline) includes it.
        let caller = match g.nodes[v] {
            Node::Return(r) => Some(r),
            _ => None,
        };
        let earlier = |p: &usize| in_order[*p] && position[*p] < position[v];
        let preds = g.preds.of(v);
        let callees_only =
            caller.is_some() && preds.iter().any(|&p| earlier(&p) && Some(p) != caller);
        at = preds
            .iter()
            .copied()
            .filter(|p| earlier(p) && !(callees_only && Some(*p) == caller))
            .max_by_key(|&p| (available(p), p));
    }
    path_nodes.reverse();
    path_nodes
        .iter()
        .filter_map(|&v| match g.nodes[v] {
            Node::Run(r) => Some(r),
            Node::Return(_) | Node::Iteration(_) => None,
        })
        .collect()
}
