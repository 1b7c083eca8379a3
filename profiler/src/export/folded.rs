//! Folded stacks (`frame;frame;frame count`, counts in nanoseconds): the
//! call stack of each slice of kernel time, `function;kernel#index` pair
//! by pair through every call, with error marks on the kernel frames.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};

use std::io::{self, Write};

use crate::analysis::model::Model;
use crate::analysis::model::presentation::kernel_frame;
use crate::display;
use crate::export::Export;
use crate::progress::Progress;

/// Which time a stack is charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// Time threads spent in kernels, summed over threads.
    #[default]
    Cpu,
    /// The recording's wall time: each moment shared among the kernels
    /// running then and the executor's work then (an `(executor)` frame
    /// under the function it serves), moments when none runs charged to
    /// `(idle)`. With lanes, each thread's whole span, its idle gaps
    /// included.
    Wall,
    /// Off-CPU time: each kernel charged the time its results took to
    /// become available after it returned ([`KernelRun::off_cpu`]), on the
    /// thread it ran on: what the program waited for.
    ///
    /// [`KernelRun::off_cpu`]: crate::analysis::model::KernelRun::off_cpu
    OffCpu,
}

impl Clock {
    /// What the clock measures, for titles.
    pub fn describe(self) -> &'static str {
        match self {
            Clock::Cpu => "CPU time in kernels",
            Clock::Wall => "wall-clock time",
            Clock::OffCpu => "off-CPU time (results completing after their kernel returned)",
        }
    }
}

/// How stacks are folded.
#[derive(Debug, Clone, Copy, Default)]
pub struct FoldOptions {
    /// Which time.
    pub clock: Clock,
    /// One lane per thread: stacks start with the thread's name.
    pub per_thread: bool,
    /// Keep time order (for flame charts): consecutive slices with the same
    /// stack merge, nothing else does.
    pub time_order: bool,
}

/// Calls kept in a stack: deeper recursion keeps its innermost calls,
/// under one [`OUTER`] frame (as profilers cap stack depth).
pub const MAX_DEPTH: usize = 128;

/// The folded text may take [`TEXT_BASE`] bytes and this many per line;
/// when stacks of [`MAX_DEPTH`] calls would take more, every stack keeps
/// fewer of its innermost calls (the most that fit, at least one). Without
/// it, a recording could hang thousands of kernels, each its own line,
/// under a chain of calls of long names.
pub const TEXT_PER_LINE: usize = 256;

/// See [`TEXT_PER_LINE`].
pub const TEXT_BASE: usize = 16 << 20;

/// The frame standing for the calls beyond [`MAX_DEPTH`].
pub const OUTER: &str = "(outer calls)";

/// The frame of idle time.
pub const IDLE: &str = "(idle)";

/// The frame of the executor's own time, under the function it serves
/// (wall clock only; see [`crate::analysis::model::ExecutorSlice`]).
pub const EXECUTOR: &str = "(executor)";

/// Folded stacks of `model`: sorted by stack and merged, or in time order.
/// The text of the lines is at most [`TEXT_BASE`] + [`TEXT_PER_LINE`] per
/// line, or every stack is one call deep; the counts add up to at most
/// [`MAX_TOTAL`].
pub fn fold(model: &Model, options: &FoldOptions) -> Vec<(String, u64)> {
    let stacks = Stacks::new(model);
    let mut slices = match options.clock {
        Clock::Cpu => cpu_slices(model),
        Clock::Wall => wall_slices(model, options.per_thread),
        Clock::OffCpu => off_cpu_slices(model),
    };
    let key = |slice: &Slice| Line {
        thread: options.per_thread.then_some(slice.thread),
        node: match slice.owner {
            Owner::Run(run) => Some(stacks.node_of_run[run]),
            Owner::Executor(execution) => Some(stacks.node_of_executor[execution]),
            Owner::Idle => None,
        },
    };
    // The lines, before they are named: a stack is a node of the call tree.
    let mut lines: Vec<(Line, u64)> = Vec::new();
    if options.time_order {
        slices.sort_by_key(|s| (options.per_thread.then_some(s.thread), s.start));
        for slice in &slices {
            let line = key(slice);
            match lines.last_mut() {
                Some(last) if last.0 == line => last.1 = last.1.saturating_add(slice.time),
                _ => lines.push((line, slice.time)),
            }
        }
    } else {
        let mut merged: HashMap<Line, u64> = HashMap::new();
        for slice in &slices {
            let total = merged.entry(key(slice)).or_default();
            *total = total.saturating_add(slice.time);
        }
        lines = merged.into_iter().collect();
    }
    drop(slices);
    lines.retain(|l| l.1 > 0);
    let thread_names: Vec<String> = (0..model.recording.threads.len())
        .map(|t| frame_text(model.thread_label(t)))
        .collect();
    let depth = stacks.depth_within(&lines, &thread_names);
    let name = |line: &Line| {
        let mut text = String::new();
        if let Some(thread) = line.thread {
            text.push_str(&thread_names[thread]);
            text.push(';');
        }
        match line.node {
            Some(node) => stacks.write(node, depth, &mut text),
            None => text.push_str(IDLE),
        }
        text
    };
    if options.time_order {
        // Lines that differ only beyond the depth kept read the same.
        let mut out: Vec<(String, u64)> = Vec::new();
        for (line, time) in &lines {
            let text = name(line);
            match out.last_mut() {
                Some(last) if last.0 == text => last.1 = last.1.saturating_add(*time),
                _ => out.push((text, *time)),
            }
        }
        return fit_total(out);
    }
    let mut merged: BTreeMap<String, u64> = BTreeMap::new();
    for (line, time) in &lines {
        let total = merged.entry(name(line)).or_default();
        *total = total.saturating_add(*time);
    }
    fit_total(merged.into_iter().collect())
}

/// The most the counts of one folded output may add up to: 2^53 ns (104
/// days), which renderers can sum in a `u64` (inferno does, unchecked)
/// and hold exactly in an `f64`.
pub const MAX_TOTAL: u64 = 1 << 53;

/// `lines` with every count divided by one factor when their total would
/// pass [`MAX_TOTAL`] (only a recording with impossible timestamps gets
/// there): the proportions stay, the sums cannot overflow.
fn fit_total(mut lines: Vec<(String, u64)>) -> Vec<(String, u64)> {
    let total: u128 = lines.iter().map(|l| u128::from(l.1)).sum();
    if total > u128::from(MAX_TOTAL) {
        let factor = total.div_ceil(u128::from(MAX_TOTAL));
        for line in &mut lines {
            // At most the count itself: fits.
            line.1 = (u128::from(line.1) / factor) as u64;
        }
        lines.retain(|l| l.1 > 0);
    }
    lines
}

impl Export for FoldOptions {
    /// Writes the folded stacks of `model` (see [`fold`]), a `stack count`
    /// line each.
    fn write(&self, model: &Model, out: &mut dyn Write, progress: Progress) -> io::Result<()> {
        progress.step("folding", || {
            for (stack, count) in fold(model, self) {
                writeln!(out, "{stack} {count}")?;
            }
            Ok(())
        })
    }
}

/// The wall clock of [`Clock::Wall`] (one timeline, no lanes), by owner:
/// what other exports charge it to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WallTime {
    /// Each run's share, by run.
    pub runs: Vec<u64>,
    /// The executor's share serving each execution on each thread:
    /// `(execution, thread, time)`, each pair once, by execution.
    pub executor: Vec<(usize, usize, u64)>,
    /// The time nothing ran.
    pub idle: u64,
}

/// The wall clock of `model` shared as [`Clock::Wall`] shares it: the
/// runs', the executor's and the idle time add up to the model's span.
pub fn wall_time(model: &Model) -> WallTime {
    let mut wall = WallTime {
        runs: vec![0; model.runs.len()],
        ..WallTime::default()
    };
    let mut executor: HashMap<(usize, usize), u64> = HashMap::new();
    for slice in wall_slices(model, false) {
        match slice.owner {
            Owner::Run(run) => wall.runs[run] = wall.runs[run].saturating_add(slice.time),
            Owner::Executor(execution) => {
                let time = executor.entry((execution, slice.thread)).or_default();
                *time = time.saturating_add(slice.time);
            }
            Owner::Idle => wall.idle = wall.idle.saturating_add(slice.time),
        }
    }
    wall.executor = executor
        .into_iter()
        .map(|((execution, thread), time)| (execution, thread, time))
        .collect();
    wall.executor.sort_unstable();
    wall
}

/// The folded text: one `stack count` line each.
pub fn to_text(lines: &[(String, u64)]) -> String {
    lines.iter().map(|(s, n)| format!("{s} {n}\n")).collect()
}

/// A line of folded output before it is named: its lane and its stack
/// (`None`: idle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Line {
    thread: Option<usize>,
    node: Option<u32>,
}

/// Time charged to a stack: a run's, the executor's for an execution, or
/// idle time.
struct Slice {
    thread: usize,
    start: u64,
    time: u64,
    owner: Owner,
}

/// Whose time a slice is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// A kernel run's.
    Run(usize),
    /// The executor's, serving an execution (index into
    /// [`Model::executions`]): an `(executor)` frame under its function.
    Executor(usize),
    /// Nobody's.
    Idle,
}

/// A stretch of a thread's time in a kernel or in the executor: 24
/// bytes, as the wall clock cuts one per segment and executor slice.
#[derive(Debug, Clone, Copy)]
struct Busy {
    start: u64,
    end: u64,
    thread: u32,
    /// A run, or with [`Busy::EXECUTOR`] set an execution.
    owner: u32,
}

impl Busy {
    const EXECUTOR: u32 = 1 << 31;

    /// `None` past 2^31 runs or executions, or 2^32 threads, which no
    /// recording file holds.
    fn new(thread: usize, start: u64, end: u64, owner: Owner) -> Option<Busy> {
        let (index, flag) = match owner {
            Owner::Run(run) => (run, 0),
            Owner::Executor(execution) => (execution, Self::EXECUTOR),
            Owner::Idle => return None,
        };
        let index = u32::try_from(index).ok().filter(|&i| i < Self::EXECUTOR)?;
        Some(Busy {
            start,
            end,
            thread: u32::try_from(thread).ok()?,
            owner: index | flag,
        })
    }

    fn thread(&self) -> usize {
        self.thread as usize
    }

    fn owner(&self) -> Owner {
        let index = (self.owner & !Self::EXECUTOR) as usize;
        if self.owner & Self::EXECUTOR != 0 {
            Owner::Executor(index)
        } else {
            Owner::Run(index)
        }
    }
}

/// Kernel segments and the executor's slices: what the wall clock charges.
fn busy_stretches(model: &Model) -> Vec<Busy> {
    let mut busy = Vec::with_capacity(model.segments.len() + model.executor.len());
    busy.extend(
        model
            .segments
            .iter()
            .filter_map(|s| Busy::new(s.thread, s.start, s.end, Owner::Run(s.run))),
    );
    busy.extend(model.executor.iter().filter_map(|s| {
        Busy::new(
            s.thread as usize,
            s.start,
            s.end,
            Owner::Executor(s.execution as usize),
        )
    }));
    busy
}

fn cpu_slices(model: &Model) -> Vec<Slice> {
    model
        .segments
        .iter()
        .map(|s| Slice {
            thread: s.thread,
            start: s.start,
            time: s.end - s.start,
            owner: Owner::Run(s.run),
        })
        .collect()
}

fn off_cpu_slices(model: &Model) -> Vec<Slice> {
    model
        .runs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.off_cpu() > 0)
        .map(|(run, r)| Slice {
            thread: r.thread,
            start: r.end,
            time: r.off_cpu(),
            owner: Owner::Run(run),
        })
        .collect()
}

fn wall_slices(model: &Model, per_thread: bool) -> Vec<Slice> {
    let (begin, end) = model.span;
    let busy = busy_stretches(model);
    if per_thread {
        // Each lane: its kernels and executor time, the gaps as idle.
        let mut out = Vec::new();
        let mut by_thread = vec![Vec::new(); model.recording.threads.len()];
        for s in &busy {
            by_thread[s.thread()].push(s);
        }
        for (thread, mut mine) in by_thread.into_iter().enumerate() {
            let mut at = begin;
            mine.sort_by_key(|s| s.start);
            for s in mine {
                if s.start > at {
                    out.push(Slice {
                        thread,
                        start: at,
                        time: s.start - at,
                        owner: Owner::Idle,
                    });
                }
                out.push(Slice {
                    thread,
                    start: s.start,
                    time: s.end - s.start,
                    owner: s.owner(),
                });
                at = at.max(s.end);
            }
            if end > at {
                out.push(Slice {
                    thread,
                    start: at,
                    time: end - at,
                    owner: Owner::Idle,
                });
            }
        }
        return out;
    }
    shared_timeline(model, &busy)
}

/// One timeline: cut at every stretch boundary, each piece shared equally
/// among the stretches open then (the remainder to the one that began
/// first), pieces where none is open idle. Each stretch's share is one
/// slice, at its start: the sum of its pieces, found from a running total
/// of the per-stretch share of each piece, so a piece costs the same
/// however many stretches share it.
fn shared_timeline(model: &Model, segments: &[Busy]) -> Vec<Slice> {
    let (begin, end) = model.span;
    // (time, the stretch's index, its top bit set when it opens): closes
    // before opens at one time, each in stretch order, as a stable sort
    // of (time, opens) puts them; unique, so sorted without a second
    // buffer.
    const OPENS: u64 = 1 << 63;
    let mut cuts: Vec<(u64, u64)> = Vec::with_capacity(2 * segments.len());
    for (i, s) in segments.iter().enumerate() {
        cuts.push((s.start, OPENS | i as u64));
        cuts.push((s.end, i as u64));
    }
    cuts.sort_unstable();
    let mut timeline = Sharing {
        per_segment: 0,
        at_open: vec![0; segments.len()],
        share: vec![0; segments.len()],
        open: vec![false; segments.len()],
        oldest: BinaryHeap::new(),
        active: 0,
        opened: 0,
        idle: Vec::new(),
    };
    let mut at = begin;
    for (time, code) in cuts {
        let (opens, i) = (code & OPENS != 0, (code & !OPENS) as usize);
        if time > at {
            timeline.piece(at, time - at);
            at = time;
        }
        if opens {
            timeline.open(i);
        } else {
            timeline.close(i);
        }
    }
    if end > at {
        timeline.piece(at, end - at);
    }
    let mut out = timeline.idle;
    for (s, share) in segments.iter().zip(timeline.share) {
        out.push(Slice {
            thread: s.thread(),
            start: s.start,
            time: share,
            owner: s.owner(),
        });
    }
    out
}

/// The state of [`shared_timeline`] between cuts.
struct Sharing {
    /// What one segment open since the start would have been given.
    per_segment: u64,
    /// `per_segment` when each segment opened.
    at_open: Vec<u64>,
    /// Each segment's share so far (closed segments: all of it).
    share: Vec<u64>,
    open: Vec<bool>,
    /// Open segments by when they opened (closed ones are dropped when
    /// they come to the top).
    oldest: BinaryHeap<Reverse<(usize, usize)>>,
    active: u64,
    opened: usize,
    /// The pieces where nothing ran.
    idle: Vec<Slice>,
}

impl Sharing {
    fn piece(&mut self, start: u64, time: u64) {
        if self.active == 0 {
            self.idle.push(Slice {
                thread: 0,
                start,
                time,
                owner: Owner::Idle,
            });
            return;
        }
        self.per_segment = self.per_segment.saturating_add(time / self.active);
        while let Some(&Reverse((_, i))) = self.oldest.peek() {
            if self.open[i] {
                self.share[i] = self.share[i].saturating_add(time % self.active);
                break;
            }
            self.oldest.pop();
        }
    }

    fn open(&mut self, i: usize) {
        self.open[i] = true;
        self.active += 1;
        self.at_open[i] = self.per_segment;
        self.oldest.push(Reverse((self.opened, i)));
        self.opened += 1;
    }

    fn close(&mut self, i: usize) {
        if self.open[i] {
            self.open[i] = false;
            self.active -= 1;
            let shared = self.per_segment - self.at_open[i];
            self.share[i] = self.share[i].saturating_add(shared);
        }
    }
}

/// A frame of a name already shown (cut and escaped): no `;`, which
/// separates frames, and nothing an SVG cannot hold (see
/// [`display::xml_safe`]).
fn frame_text(shown: &str) -> String {
    display::xml_safe(shown).replace(';', ":")
}

/// The call tree: a node per distinct chain of calls (function and
/// kernel frame, level by level), each run's stack one of its nodes.
struct Stacks {
    /// Each level's text: `function;kernel#index`.
    levels: Vec<String>,
    /// Node → (parent node or `NO_NODE`, level, depth from the root, 1-based).
    nodes: Vec<(u32, u32, u32)>,
    /// The node of each run.
    node_of_run: Vec<u32>,
    /// The node of each execution's `(executor)` frame.
    node_of_executor: Vec<u32>,
}

const NO_NODE: u32 = u32::MAX;

impl Stacks {
    fn new(model: &Model) -> Stacks {
        let functions: Vec<String> = (0..model.recording.functions.len())
            .map(|f| frame_text(&model.function_label_of(f as u32)))
            .collect();
        let mut level_ids: HashMap<String, u32> = HashMap::new();
        let mut levels = Vec::new();
        let mut level_of_run = Vec::with_capacity(model.runs.len());
        for run in 0..model.runs.len() {
            let function = functions
                .get(model.function_of(run) as usize)
                .map_or("?", String::as_str);
            let text = format!("{function};{}", frame_text(&kernel_frame(model, run)));
            let id = *level_ids.entry(text).or_insert_with_key(|text| {
                levels.push(text.clone());
                (levels.len() - 1) as u32
            });
            level_of_run.push(id);
        }
        // A caller's execution comes before its callees' (see
        // `Model::executions`), so runs taken execution by execution find
        // their caller's node made.
        let mut by_execution: Vec<usize> = (0..model.runs.len()).collect();
        by_execution.sort_by_key(|&r| model.runs[r].execution);
        let mut node_ids: HashMap<(u32, u32), u32> = HashMap::new();
        let mut nodes: Vec<(u32, u32, u32)> = Vec::new();
        let mut node_of_run = vec![NO_NODE; model.runs.len()];
        for run in by_execution {
            let parent = model.executions[model.runs[run].execution]
                .caller
                .map_or(NO_NODE, |caller| node_of_run[caller]);
            let depth = if parent == NO_NODE {
                1
            } else {
                nodes[parent as usize].2.saturating_add(1)
            };
            let level = level_of_run[run];
            node_of_run[run] = *node_ids.entry((parent, level)).or_insert_with(|| {
                nodes.push((parent, level, depth));
                (nodes.len() - 1) as u32
            });
        }
        // The executor's time for an execution: an `(executor)` frame
        // under its function, beside its kernels.
        let mut node_of_executor = Vec::with_capacity(model.executions.len());
        for execution in &model.executions {
            let parent = execution
                .caller
                .map_or(NO_NODE, |caller| node_of_run[caller]);
            let depth = if parent == NO_NODE {
                1
            } else {
                nodes[parent as usize].2.saturating_add(1)
            };
            let function = functions
                .get(execution.function as usize)
                .map_or("?", String::as_str);
            let text = format!("{function};{EXECUTOR}");
            let level = *level_ids.entry(text).or_insert_with_key(|text| {
                levels.push(text.clone());
                (levels.len() - 1) as u32
            });
            node_of_executor.push(*node_ids.entry((parent, level)).or_insert_with(|| {
                nodes.push((parent, level, depth));
                (nodes.len() - 1) as u32
            }));
        }
        Stacks {
            levels,
            nodes,
            node_of_run,
            node_of_executor,
        }
    }

    /// The deepest stack depth (up to [`MAX_DEPTH`]) at which `lines`
    /// take at most [`TEXT_BASE`] + [`TEXT_PER_LINE`] per line; 1 if none.
    fn depth_within(&self, lines: &[(Line, u64)], thread_names: &[String]) -> usize {
        // `text[d - 1]`: the bytes of every line at depth `d`.
        let mut text = vec![0usize; MAX_DEPTH];
        for (line, time) in lines {
            // The lane, the count and the separators around them.
            let fixed = line.thread.map_or(0, |t| thread_names[t].len() + 1) + 22;
            let digits = time.checked_ilog10().unwrap_or(0) as usize + 1;
            let Some(node) = line.node else {
                for t in &mut text {
                    *t = t.saturating_add(fixed + digits + IDLE.len());
                }
                continue;
            };
            let depth = self.nodes[node as usize].2 as usize;
            let mut at = node;
            let mut shown = 0usize;
            for d in 1..=MAX_DEPTH {
                if at != NO_NODE {
                    let (parent, level, _) = self.nodes[at as usize];
                    shown += self.levels[level as usize].len() + 1;
                    at = parent;
                }
                let outer = if depth > d { OUTER.len() + 1 } else { 0 };
                text[d - 1] = text[d - 1].saturating_add(fixed + digits + shown + outer);
            }
        }
        let budget = TEXT_BASE.saturating_add(TEXT_PER_LINE.saturating_mul(lines.len()));
        (1..=MAX_DEPTH)
            .rev()
            .find(|&d| text[d - 1] <= budget)
            .unwrap_or(1)
    }

    /// Appends the stack of `node`, its innermost `depth` levels.
    fn write(&self, node: u32, depth: usize, out: &mut String) {
        let mut chain = Vec::new();
        let mut at = node;
        while at != NO_NODE && chain.len() < depth {
            let (parent, level, _) = self.nodes[at as usize];
            chain.push(level);
            at = parent;
        }
        if at != NO_NODE {
            out.push_str(OUTER);
            out.push(';');
        }
        for (i, &level) in chain.iter().rev().enumerate() {
            if i > 0 {
                out.push(';');
            }
            out.push_str(&self.levels[level as usize]);
        }
    }
}
