//! The analysed recording every export works from: executions with their
//! callers, kernel runs with ready/start/end times and threads, the
//! self-time segments of each thread, the executor's own time, the
//! dataflow edges between runs, async completions, counters, and the
//! error marks.
//!
//! Built from any [`Recording`] the reader accepts: events that do not fit
//! (a kernel ending that never started, an unknown execution, a caller
//! chain that loops) are ignored rather than trusted.

mod executor;
pub mod presentation;
pub mod source;

pub use executor::ExecutorSlice;

use hashbrown::{HashMap, HashSet};
use std::sync::Arc;

use crate::capture::recording::{EventKind, Events, FunctionKind, Keep, Recording, ValueState};

/// Readers of its published values an execution follows, per event it
/// has (see [`Model::edges`]): a run has at least two events and real
/// programs read a few values per run, while a recording could list every
/// kernel as a reader of every register in every execution.
pub const EDGES_PER_EVENT: usize = 4;

/// Deepest call stack [`Model::call_chain`] follows.
pub const MAX_STACK: usize = 4096;

/// One execution of a function.
#[derive(Debug, Clone)]
pub struct Execution {
    /// Its id in the recording.
    pub id: u64,
    /// Its function (index into [`Recording::functions`]).
    pub function: u32,
    /// The run of the kernel that called it.
    pub caller: Option<usize>,
    /// When it began.
    pub begin: u64,
    /// When it ended (`None`: never reported).
    pub end: Option<u64>,
    /// The thread it began on.
    pub thread: usize,
}

/// How a run is involved with the recording's errors, from the dataflow:
/// which values reached which operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorMark {
    /// It produced an error value although no operand of it was an error
    /// and no function it called produced one: the error began here.
    Origin,
    /// An error value reached one of its operands (it was skipped, or
    /// passed the error on), or a function it called produced one.
    Poisoned,
}

/// One kernel that ran (or was skipped): 80 bytes, a recording has
/// millions (the times it may lack are flagged rather than optional, the
/// executions it called are in [`Model::callees`]).
#[derive(Debug, Clone)]
pub struct KernelRun {
    /// Index into [`Model::executions`].
    pub execution: usize,
    /// Index into [`Recording::threads`].
    pub thread: usize,
    /// When it started; for a [`cut`](Self::cut) run, the beginning of
    /// its thread's kept window.
    pub start: u64,
    /// When it returned.
    pub end: u64,
    /// Time it ran itself: its duration less the kernels nested in it on
    /// its thread.
    pub self_time: u64,
    /// See [`ready`](Self::ready), valid under [`Self::READY`].
    ready: u64,
    /// See [`published`](Self::published), valid under [`Self::PUBLISHED`].
    published: u64,
    /// See [`completed`](Self::completed), valid under [`Self::COMPLETED`].
    completed: u64,
    /// Its index in the function's kernel table.
    pub kernel: u32,
    /// How many executions it called (see [`Model::callees`]).
    pub calls: u32,
    /// Whether it was skipped.
    pub skipped: bool,
    /// Whether its start was not recorded: a `--keep last` recording's
    /// ring dropped it, while its end, a value it published or a function
    /// it called was kept. It starts at the beginning of its thread's kept
    /// window (see [`Model::new`]); one whose end was dropped too ends
    /// there as well.
    pub cut: bool,
    /// Its error mark, if any.
    pub error: Option<ErrorMark>,
    /// Which of `ready`, `published` and `completed` are known.
    known: u8,
}

/// A [`EventKind::KernelWork`] event and the run it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkEvent {
    /// The thread (index into the recording's threads).
    pub thread: usize,
    /// The event's index among the thread's events.
    pub event: usize,
    /// The run that reported it.
    pub run: usize,
}

/// Work a run reported: see [`EventKind::KernelWork`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Arithmetic operations.
    pub flops: u64,
    /// Bytes read and written.
    pub bytes: u64,
}

impl KernelRun {
    const READY: u8 = 1;
    const PUBLISHED: u8 = 2;
    const COMPLETED: u8 = 4;

    /// A run of kernel `kernel` of execution `execution` on `thread`,
    /// started at `start`, not yet ended.
    fn started(execution: usize, kernel: u32, thread: usize, start: u64, cut: bool) -> KernelRun {
        KernelRun {
            execution,
            thread,
            start,
            end: start,
            self_time: 0,
            ready: 0,
            published: 0,
            completed: 0,
            kernel,
            calls: 0,
            skipped: false,
            cut,
            error: None,
            known: 0,
        }
    }

    fn get(&self, flag: u8, time: u64) -> Option<u64> {
        (self.known & flag != 0).then_some(time)
    }

    /// When its operands were all available (asynchronous executor only).
    pub fn ready(&self) -> Option<u64> {
        self.get(Self::READY, self.ready)
    }

    /// The latest time one of its results was published.
    pub fn published(&self) -> Option<u64> {
        self.get(Self::PUBLISHED, self.published)
    }

    /// The latest time one of its results completed asynchronously (see
    /// [`Model::async_completions`]): became available after it returned,
    /// as recorded; in older recordings, was published after it returned,
    /// not with its return.
    pub fn completed(&self) -> Option<u64> {
        self.get(Self::COMPLETED, self.completed)
    }

    fn set_ready(&mut self, time: u64) {
        self.ready = time;
        self.known |= Self::READY;
    }

    /// Takes `time` as a publication, if later than those before.
    fn publish(&mut self, time: u64) {
        self.published = self.published().map_or(time, |p| p.max(time));
        self.known |= Self::PUBLISHED;
    }

    /// Takes `time` as an async completion, if later than those before.
    fn complete(&mut self, time: u64) {
        self.completed = self.completed().map_or(time, |c| c.max(time));
        self.known |= Self::COMPLETED;
    }

    /// Wall duration, start to end.
    pub fn duration(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }

    /// Off-CPU time: how long its results took to complete asynchronously
    /// after it returned (blocking work, a value completed on another
    /// thread). A run that called functions waits for them, whose time is
    /// theirs: it has none of its own.
    pub fn off_cpu(&self) -> u64 {
        if self.calls > 0 {
            return 0;
        }
        self.completed().map_or(0, |c| c.saturating_sub(self.end))
    }
}

/// A run opening or closing on its thread: at the run's start or end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bracket(u32);

impl Bracket {
    const CLOSE: u32 = 1 << 31;

    /// Run `run` opening (`open`) or closing; `None` for a run index
    /// from 2^31 on (a recording of over 2^31 events on one thread).
    fn new(run: usize, open: bool) -> Option<Bracket> {
        let run = u32::try_from(run).ok().filter(|&r| r < Self::CLOSE)?;
        Some(Bracket(if open { run } else { run | Self::CLOSE }))
    }

    /// The run.
    pub fn run(self) -> usize {
        (self.0 & !Self::CLOSE) as usize
    }

    /// Whether the run opens (else it closes).
    pub fn opens(self) -> bool {
        self.0 & Self::CLOSE == 0
    }

    /// When: the run's start when it opens, its end when it closes.
    pub fn time(self, runs: &[KernelRun]) -> u64 {
        let run = &runs[self.run()];
        if self.opens() { run.start } else { run.end }
    }
}

/// A time slice of a thread spent in the innermost running kernel.
#[derive(Debug, Clone, Copy)]
pub struct Segment {
    /// Index into [`Recording::threads`].
    pub thread: usize,
    /// Start time.
    pub start: u64,
    /// End time.
    pub end: u64,
    /// The run.
    pub run: usize,
}

/// A value passed from one run to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// The producing run.
    pub from: usize,
    /// The consuming run.
    pub to: usize,
    /// When the value was published.
    pub time: u64,
    /// Whether it crosses a call (a caller's operand becoming an argument).
    pub call: bool,
    /// Whether the value was an error.
    pub error: bool,
}

/// A result that became available after its kernel returned, possibly
/// elsewhere: as recorded ([`EventKind::ResultAvailable`]), or in older
/// recordings a result published after its kernel returned.
#[derive(Debug, Clone, Copy)]
pub struct AsyncCompletion {
    /// The producing run.
    pub run: usize,
    /// The register.
    pub register: u32,
    /// When it became available (was published, in older recordings).
    pub time: u64,
    /// The thread that completed (published) it.
    pub thread: usize,
}

/// The first error value.
#[derive(Debug, Clone)]
pub struct FirstError {
    /// The run that produced it (`None`: an argument without a caller).
    pub run: Option<usize>,
    /// When it was published.
    pub time: u64,
    /// Its message, when recorded.
    pub message: Option<String>,
}

/// See the [module](self) documentation.
#[derive(Debug)]
pub struct Model {
    /// The recording analysed, shared: a consumer that keeps the model
    /// keeps no second copy of the recording.
    pub recording: Arc<Recording>,
    /// The executions, in order of their begin events.
    pub executions: Vec<Execution>,
    /// The kernel runs, thread by thread in start order.
    pub runs: Vec<KernelRun>,
    /// Each thread's time in kernels, innermost run per slice.
    pub segments: Vec<Segment>,
    /// Each thread's time in the executor's own code, in start order
    /// (see [`ExecutorSlice`] for how it is found).
    pub executor: Vec<ExecutorSlice>,
    /// Dataflow edges between runs (and from a calling run to the
    /// callee's argument readers): one per reader of the first publication
    /// of each register in each execution, at most [`EDGES_PER_EVENT`]
    /// readers followed per event of the execution.
    pub edges: Vec<Edge>,
    /// Readers of published values left without an edge by the bound of
    /// [`EDGES_PER_EVENT`].
    pub readers_left_out: u64,
    /// Results that became available after their kernel returned, in
    /// time order.
    pub async_completions: Vec<AsyncCompletion>,
    /// `(time, kernels ready but not started)`, in time order.
    pub queue_depth: Vec<(u64, u64)>,
    /// `(time, live async values)`, in time order.
    pub live_values: Vec<(u64, u64)>,
    /// The first error value of the recording.
    pub first_error: Option<FirstError>,
    /// Results' renderings, `(run, register, value)`, when recorded
    /// (`--values`, and error messages), by run: kept beside the runs, as
    /// most runs have none ([`Model::values_text`]).
    values: Vec<(usize, u32, String)>,
    /// The work runs reported, summed ([`Model::work_of`]); few runs
    /// report any.
    work: HashMap<usize, Work>,
    /// Each work event (recorded under execution 0) with the run it
    /// belongs to, the innermost open on its thread, in thread and event
    /// order; work reported with no run open (its start dropped) is not
    /// here, as it counts for no run.
    pub work_events: Vec<WorkEvent>,
    /// First and last event time.
    pub span: (u64, u64),
    /// Per thread, runs opening and closing in bracket order: what trace
    /// viewers draw as nested slices (see [`Bracket`]; 4 bytes each).
    pub brackets: Vec<Vec<Bracket>>,
    thread_labels: Vec<String>,
    /// Where each run's row of [`callee_list`](Self::callee_list) starts
    /// (one more entry than runs).
    callee_starts: Vec<u32>,
    /// The executions each run called, row by row.
    callee_list: Vec<u32>,
    /// The recording's events, counted before they may be released
    /// ([`Model::release_events`]).
    event_count: usize,
    /// Each run by (execution index, kernel): 12 bytes an entry.
    run_index: HashMap<(u32, u32), u32>,
    execution_index: HashMap<u64, usize>,
}

/// The cut runs of one thread: see [`Model::cut_runs`].
struct CutRuns {
    /// When the thread's kept window begins: its first event that is not
    /// an execution's begin (begins put back from before the window come
    /// first).
    window: u64,
    /// Runs whose end the thread kept, in the order they ended.
    open: Vec<(u64, u32)>,
    /// Runs named only by what they did: they ended before the window.
    before: Vec<(u64, u32)>,
}

impl CutRuns {
    fn is_empty(&self) -> bool {
        self.open.is_empty() && self.before.is_empty()
    }
}

/// See [`Model::thread_label`].
pub(crate) fn thread_labels(recording: &Recording) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut taken: HashSet<String> = HashSet::new();
    let mut labels = Vec::with_capacity(recording.threads.len());
    for track in &recording.threads {
        let name = crate::display::name(&track.name).into_owned();
        let n = seen.entry(name.clone()).or_default();
        let mut label = name.clone();
        // A recorded name may itself read `pool (2)`: count on until free.
        while !taken.insert(label.clone()) {
            *n += 1;
            label = format!("{name} ({})", *n + 1);
        }
        labels.push(label);
    }
    labels
}

impl Model {
    /// Analyses `recording` (a [`Recording`] moved in, or an [`Arc`] of
    /// one the caller keeps too).
    pub fn new(recording: impl Into<Arc<Recording>>) -> Model {
        let recording = recording.into();
        let mut model = Model {
            thread_labels: thread_labels(&recording),
            event_count: recording.event_count(),
            recording,
            executions: Vec::new(),
            runs: Vec::new(),
            segments: Vec::new(),
            executor: Vec::new(),
            edges: Vec::new(),
            readers_left_out: 0,
            async_completions: Vec::new(),
            queue_depth: Vec::new(),
            live_values: Vec::new(),
            first_error: None,
            values: Vec::new(),
            work: HashMap::new(),
            work_events: Vec::new(),
            span: (u64::MAX, 0),
            brackets: Vec::new(),
            callee_starts: Vec::new(),
            callee_list: Vec::new(),
            run_index: HashMap::new(),
            execution_index: HashMap::new(),
        };
        model.collect_executions();
        model.collect_runs();
        model.link_callers();
        model.collect_executor();
        model.collect_values();
        model.collect_counters();
        // What grew by doubling gives back what it did not use.
        model.segments.shrink_to_fit();
        model.edges.shrink_to_fit();
        model.queue_depth.shrink_to_fit();
        model.live_values.shrink_to_fit();
        model.async_completions.shrink_to_fit();
        for brackets in &mut model.brackets {
            brackets.shrink_to_fit();
        }
        if model.span.0 > model.span.1 {
            model.span = (0, 0);
        }
        model
    }

    fn collect_executions(&mut self) {
        let recording = Arc::clone(&self.recording);
        let mut begins = Vec::new();
        for (thread, track) in recording.threads.iter().enumerate() {
            for e in &track.events {
                self.span.0 = self.span.0.min(e.time);
                self.span.1 = self.span.1.max(e.time);
                if let EventKind::FunctionBegin { function, .. } = e.kind {
                    begins.push((e.time, e.execution, function, thread));
                }
            }
        }
        begins.sort_by_key(|b| (b.0, b.1));
        self.executions.reserve_exact(begins.len());
        for (begin, id, function, thread) in begins {
            if self.execution_index.contains_key(&id) {
                continue;
            }
            self.execution_index.insert(id, self.executions.len());
            self.executions.push(Execution {
                id,
                function,
                caller: None,
                begin,
                end: None,
                thread,
            });
        }
        for track in &recording.threads {
            for e in &track.events {
                if let EventKind::FunctionEnd = e.kind
                    && let Some(&x) = self.execution_index.get(&e.execution)
                {
                    self.executions[x].end = Some(e.time);
                }
            }
        }
    }

    /// Matches starts and ends per thread (they nest like brackets) and
    /// cuts each thread's time into segments of its innermost run.
    fn collect_runs(&mut self) {
        let recording = Arc::clone(&self.recording);
        let mut ready: HashMap<(u32, u32), u64> = HashMap::new();
        // Runs come from starts (and cut runs): reserved at once, as
        // growing the vector would hold it twice for a while.
        let mut starts = 0usize;
        for track in &recording.threads {
            for e in &track.events {
                starts += usize::from(matches!(e.kind, EventKind::KernelStart { .. }));
                if let EventKind::KernelReady { kernel } = e.kind
                    && let Some(key) = self.run_key(e.execution, kernel)
                {
                    ready.entry(key).or_insert(e.time);
                }
            }
        }
        let cut = self.cut_runs();
        let cut_runs: usize = cut.iter().map(|c| c.open.len() + c.before.len()).sum();
        self.runs.reserve_exact(starts.saturating_add(cut_runs));
        // The begins put back from before the windows are not part of the
        // span: it is what the rings kept.
        if let Some(window) = recording
            .threads
            .iter()
            .zip(&cut)
            .filter(|(track, _)| !track.events.is_empty())
            .map(|(_, cut)| cut.window)
            .min()
        {
            self.span.0 = self.span.0.max(window);
        }
        // Where each run sits on its thread's stack while it is open, so
        // that an end finds its start without searching the stack.
        let mut depth_of: Vec<usize> = Vec::new();
        for (thread, track) in recording.threads.iter().enumerate() {
            let mut stack: Vec<usize> = Vec::new();
            let mut brackets = Vec::new();
            let mut last = 0u64;
            if let Some(cut) = cut.get(thread).filter(|c| !c.is_empty()) {
                last = cut.window;
                self.reopen_cut_runs(thread, cut, &mut depth_of, &mut stack, &mut brackets);
            }
            for (index, e) in track.events.iter().enumerate() {
                let x = match e.kind {
                    // The innermost run open on the thread reported it.
                    EventKind::KernelWork { flops, bytes } => {
                        if let Some(&top) = stack.last() {
                            let work = self.work.entry(top).or_default();
                            work.flops = work.flops.saturating_add(flops);
                            work.bytes = work.bytes.saturating_add(bytes);
                            self.work_events.push(WorkEvent {
                                thread,
                                event: index,
                                run: top,
                            });
                        }
                        continue;
                    }
                    EventKind::KernelStart { .. } | EventKind::KernelEnd { .. } => {
                        match self.execution_index.get(&e.execution) {
                            Some(&x) => x,
                            None => continue,
                        }
                    }
                    _ => continue,
                };
                if let Some(&top) = stack.last() {
                    self.push_segment(thread, last, e.time, top);
                }
                last = e.time.max(last);
                match e.kind {
                    EventKind::KernelStart { kernel } => {
                        if self.find_run(e.execution, kernel).is_some() {
                            continue;
                        }
                        let run = self.runs.len();
                        if !self.insert_run(x, kernel, run) {
                            continue;
                        }
                        depth_of.push(stack.len());
                        let mut new = KernelRun::started(x, kernel, thread, e.time, false);
                        if let Some(&time) = ready.get(&(x as u32, kernel)) {
                            new.set_ready(time);
                        }
                        self.runs.push(new);
                        stack.push(run);
                        brackets.extend(Bracket::new(run, true));
                    }
                    EventKind::KernelEnd {
                        kernel, skipped, ..
                    } => {
                        let Some(run) = self.find_run(e.execution, kernel) else {
                            continue;
                        };
                        let depth = depth_of[run];
                        if stack.get(depth) != Some(&run) {
                            // Not open on this thread (ended, or another's).
                            continue;
                        }
                        // Runs above it never ended: they end with it.
                        for &open in stack[depth..].iter().rev() {
                            self.runs[open].end = e.time.max(self.runs[open].start);
                            brackets.extend(Bracket::new(open, false));
                            depth_of[open] = usize::MAX;
                        }
                        stack.truncate(depth);
                        self.runs[run].skipped = skipped;
                    }
                    _ => {}
                }
            }
            for &open in stack.iter().rev() {
                self.runs[open].end = last.max(self.runs[open].start);
                brackets.extend(Bracket::new(open, false));
                depth_of[open] = usize::MAX;
            }
            self.brackets.push(brackets);
        }
    }

    /// Puts back, at the start of `thread`'s window, the runs of `cut`
    /// whose start its ring dropped: those that ended before the window
    /// as closed at once, those whose end it kept as open on `stack`,
    /// outermost first.
    fn reopen_cut_runs(
        &mut self,
        thread: usize,
        cut: &CutRuns,
        depth_of: &mut Vec<usize>,
        stack: &mut Vec<usize>,
        brackets: &mut Vec<Bracket>,
    ) {
        for (&(execution, kernel), open) in cut
            .before
            .iter()
            .map(|k| (k, false))
            .chain(cut.open.iter().rev().map(|k| (k, true)))
        {
            let Some(&x) = self.execution_index.get(&execution) else {
                continue;
            };
            let run = self.runs.len();
            if !self.insert_run(x, kernel, run) {
                continue;
            }
            depth_of.push(if open { stack.len() } else { usize::MAX });
            self.runs
                .push(KernelRun::started(x, kernel, thread, cut.window, true));
            brackets.extend(Bracket::new(run, true));
            if open {
                stack.push(run);
            } else {
                brackets.extend(Bracket::new(run, false));
            }
        }
    }

    /// The runs of a `--keep last` recording whose start its rings
    /// dropped, per thread: those whose end the thread kept (`open`, in
    /// the order they ended: they were open, nested, when the thread's
    /// window began), and those only named as the caller of a kept
    /// execution or the producer of a kept value (`before`: they ran
    /// before the window, on the first thread that names them). Only for
    /// executions whose begin is known, and only on threads that dropped
    /// events (elsewhere an end without a start is not a cut, but a
    /// recording not to trust).
    fn cut_runs(&self) -> Vec<CutRuns> {
        let recording = &self.recording;
        if recording.header.kept != Keep::Last || recording.dropped() == 0 {
            return Vec::new();
        }
        let mut started: HashSet<(u64, u32)> = HashSet::new();
        for track in &recording.threads {
            for e in &track.events {
                if let EventKind::KernelStart { kernel } = e.kind {
                    started.insert((e.execution, kernel));
                }
            }
        }
        let known =
            |key: &(u64, u32)| self.execution_index.contains_key(&key.0) && !started.contains(key);
        let mut taken: HashSet<(u64, u32)> = HashSet::new();
        let mut cut: Vec<CutRuns> = recording
            .threads
            .iter()
            .map(|track| CutRuns {
                // Begins put back before the ring's events come first.
                window: track
                    .events
                    .iter()
                    .find(|e| !matches!(e.kind, EventKind::FunctionBegin { .. }))
                    .or(track.events.last())
                    .map_or(0, |e| e.time),
                open: Vec::new(),
                before: Vec::new(),
            })
            .collect();
        for (track, cut) in recording.threads.iter().zip(&mut cut) {
            if track.dropped == 0 {
                continue;
            }
            for e in &track.events {
                if let EventKind::KernelEnd { kernel, .. } = e.kind {
                    let key = (e.execution, kernel);
                    if known(&key) && taken.insert(key) {
                        cut.open.push(key);
                    }
                }
            }
        }
        for (track, cut) in recording.threads.iter().zip(&mut cut) {
            for e in &track.events {
                let key = match e.kind {
                    EventKind::FunctionBegin {
                        caller: Some(c), ..
                    } => (c.execution, c.kernel),
                    EventKind::RegisterSet { producer, .. }
                    | EventKind::ResultAvailable { producer, .. }
                        if producer != 0 =>
                    {
                        (e.execution, producer)
                    }
                    _ => continue,
                };
                if known(&key) && taken.insert(key) {
                    cut.before.push(key);
                }
            }
        }
        cut
    }

    fn push_segment(&mut self, thread: usize, start: u64, end: u64, run: usize) {
        if end > start {
            self.runs[run].self_time += end - start;
            self.segments.push(Segment {
                thread,
                start,
                end,
                run,
            });
        }
    }

    /// Links each execution to the run that called it. A caller's
    /// execution began first (it is earlier in `executions`), so callers
    /// never loop and a call chain ends within as many steps as there are
    /// executions.
    fn link_callers(&mut self) {
        let recording = Arc::clone(&self.recording);
        // (caller run, execution), in the order they are found.
        let mut links: Vec<(u32, u32)> = Vec::new();
        for track in &recording.threads {
            for e in &track.events {
                if let EventKind::FunctionBegin {
                    caller: Some(c), ..
                } = e.kind
                    && let Some(&x) = self.execution_index.get(&e.execution)
                    && let Some(run) = self.find_run(c.execution, c.kernel)
                    && self.executions[x].caller.is_none()
                    && self.runs[run].execution < x
                    && let (Ok(caller), Ok(callee)) = (u32::try_from(run), u32::try_from(x))
                {
                    self.executions[x].caller = Some(run);
                    self.runs[run].calls += 1;
                    links.push((caller, callee));
                }
            }
        }
        // Each run's callees in a row of their own, in the order found.
        let mut starts = Vec::with_capacity(self.runs.len() + 1);
        let mut total = 0u32;
        starts.push(0);
        for run in &self.runs {
            total += run.calls;
            starts.push(total);
        }
        let mut next = starts.clone();
        let mut list = vec![0u32; links.len()];
        for (caller, callee) in links {
            let at = &mut next[caller as usize];
            list[*at as usize] = callee;
            *at += 1;
        }
        self.callee_starts = starts;
        self.callee_list = list;
    }

    /// The executions run `run` called (indices into
    /// [`executions`](Self::executions)), in the order their begins were
    /// found: thread by thread, each thread's in order.
    pub fn callees(&self, run: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        let (from, to) = match (self.callee_starts.get(run), self.callee_starts.get(run + 1)) {
            (Some(&from), Some(&to)) => (from as usize, to as usize),
            _ => (0, 0),
        };
        self.callee_list[from..to].iter().map(|&x| x as usize)
    }

    /// Edges, async completions, error marks, from the register and
    /// result-available events.
    ///
    /// A register is published once per execution (the observer's
    /// contract), so only its first publication in an execution is what
    /// its readers consumed: repeating it adds no edges. And an execution
    /// follows its publications to at most [`EDGES_PER_EVENT`] readers per
    /// event it has; the readers beyond are counted in
    /// [`Model::readers_left_out`].
    ///
    /// Async completions are the recorded result-available events; a
    /// recording made before they were recorded has them inferred: a
    /// result published other than right after its kernel's end on the
    /// same thread.
    fn collect_values(&mut self) {
        let recorded = self.recording.header.completions_recorded;
        let recording = Arc::clone(&self.recording);
        // 4 bytes an execution: a budget past 2^32 readers is as good
        // as unbounded.
        let mut budget = vec![0u32; self.executions.len()];
        for track in &recording.threads {
            for e in &track.events {
                if let Some(&x) = self.execution_index.get(&e.execution) {
                    budget[x] = budget[x].saturating_add(EDGES_PER_EVENT as u32);
                }
            }
        }
        let widest = recording
            .functions
            .iter()
            .map(|f| f.kernels.len())
            .max()
            .unwrap_or(0);
        // The publication that last reached each kernel index: a register
        // lists a reader once per operand, and one edge is enough.
        let mut reached = vec![usize::MAX; widest];
        let mut publications = 0usize;
        // (execution index, register) as one 8-byte key.
        let mut first_publications: HashSet<u64> = HashSet::new();
        let mut first_error: Option<(u64, Option<usize>, Option<String>)> = None;
        let mut error_runs = Vec::new();
        for (thread, track) in recording.threads.iter().enumerate() {
            // The run whose end (and results) this thread reported last.
            let mut just_ended: Option<(u64, u32)> = None;
            for e in &track.events {
                if let EventKind::ResultAvailable {
                    register,
                    producer,
                    state,
                    ref value,
                } = e.kind
                    && recorded
                    && producer != 0
                    && let Some(from) = self.find_run(e.execution, producer)
                {
                    self.runs[from].complete(e.time);
                    self.async_completions.push(AsyncCompletion {
                        run: from,
                        register,
                        time: e.time,
                        thread,
                    });
                    if state == ValueState::Error {
                        if first_error.as_ref().is_none_or(|f| e.time < f.0) {
                            first_error =
                                Some((e.time, Some(from), value.as_ref().map(|v| v.text.clone())));
                        }
                        error_runs.push(from);
                    }
                    continue;
                }
                let EventKind::RegisterSet {
                    register,
                    producer,
                    state,
                    ref value,
                } = e.kind
                else {
                    just_ended = match e.kind {
                        EventKind::KernelEnd { kernel, .. } => Some((e.execution, kernel)),
                        _ => None,
                    };
                    continue;
                };
                let Some(&x) = self.execution_index.get(&e.execution) else {
                    continue;
                };
                let execution = &self.executions[x];
                let from = if producer == 0 {
                    execution.caller
                } else {
                    self.find_run(e.execution, producer)
                };
                if let Some(from) = from
                    && producer != 0
                {
                    let run = &mut self.runs[from];
                    run.publish(e.time);
                    if let Some(v) = value {
                        self.values.push((from, register, v.text.clone()));
                    }
                    if !recorded && just_ended != Some((e.execution, producer)) {
                        run.complete(e.time);
                        self.async_completions.push(AsyncCompletion {
                            run: from,
                            register,
                            time: e.time,
                            thread,
                        });
                    }
                }
                if state == ValueState::Error {
                    if first_error.as_ref().is_none_or(|f| e.time < f.0) {
                        first_error = Some((e.time, from, value.as_ref().map(|v| v.text.clone())));
                    }
                    if let Some(from) = from
                        && producer != 0
                    {
                        error_runs.push(from);
                    }
                }
                let Some(from) = from else {
                    continue;
                };
                if !first_publications.insert(((x as u64) << 32) | u64::from(register)) {
                    continue;
                }
                let function = recording.functions.get(execution.function as usize);
                let users = function
                    .and_then(|f| f.registers.get(register as usize))
                    .map_or(&[][..], |r| &r.users[..]);
                let followed = users.len().min(budget[x] as usize);
                budget[x] -= followed as u32;
                self.readers_left_out += (users.len() - followed) as u64;
                publications += 1;
                for &user in &users[..followed] {
                    // The reader checks at most `kernels.len()` indices.
                    let Some(mark) = reached.get_mut(user as usize) else {
                        continue;
                    };
                    if std::mem::replace(mark, publications) == publications {
                        continue;
                    }
                    if let Some(to) = self.find_run(e.execution, user)
                        && from != to
                    {
                        self.edges.push(Edge {
                            from,
                            to,
                            time: e.time,
                            call: producer == 0,
                            error: state == ValueState::Error,
                        });
                    }
                }
            }
        }
        self.mark_errors(&error_runs);
        if let Some((time, run, message)) = first_error {
            self.first_error = Some(FirstError { run, time, message });
        }
        self.async_completions.sort_by_key(|c| c.time);
        // Stable: a run's values stay in the order they were published.
        self.values.sort_by_key(|v| v.0);
    }

    /// Marks the runs an error reached through an operand as poisoned, and
    /// the runs that produced an error otherwise as its origin. A call's
    /// error result comes from its callee: the caller is poisoned when a
    /// run of a function it called is marked.
    fn mark_errors(&mut self, error_runs: &[usize]) {
        for e in &self.edges {
            if e.error {
                self.runs[e.to].error = Some(ErrorMark::Poisoned);
            }
        }
        let mut produced = vec![false; self.runs.len()];
        for &r in error_runs {
            produced[r] = true;
        }
        // Callees began after their callers (see `link_callers`): going
        // through executions from the last, a caller comes after every
        // function it called.
        let mut by_execution: Vec<u32> = (0..self.runs.len())
            .filter_map(|r| u32::try_from(r).ok())
            .collect();
        by_execution.sort_by_key(|&r| std::cmp::Reverse(self.runs[r as usize].execution));
        let mut execution_marked = vec![false; self.executions.len()];
        for r in by_execution {
            let r = r as usize;
            let run = &self.runs[r];
            if run.error.is_none() && produced[r] {
                let from_callee = self.callees(r).any(|x| execution_marked[x]);
                self.runs[r].error = Some(if from_callee {
                    ErrorMark::Poisoned
                } else {
                    ErrorMark::Origin
                });
            }
            if self.runs[r].error.is_some() {
                execution_marked[self.runs[r].execution] = true;
            }
        }
    }

    fn collect_counters(&mut self) {
        let recording = Arc::clone(&self.recording);
        // (time, 1 a kernel ready, 0 one started): sorted, a start before
        // a ready at one time; then folded in place into the depth after
        // each time, so the changes and the counter share one vector.
        let mut changes: Vec<(u64, u64)> = Vec::new();
        for run in &self.runs {
            if let Some(ready) = run.ready() {
                changes.push((ready, 1));
                changes.push((run.start.max(ready), 0));
            }
        }
        changes.sort_unstable();
        let mut depth = 0i64;
        let mut written = 0usize;
        for i in 0..changes.len() {
            let (time, change) = changes[i];
            depth += if change == 1 { 1 } else { -1 };
            let value = depth.max(0) as u64;
            if written > 0 && changes[written - 1].0 == time {
                changes[written - 1].1 = value;
            } else {
                changes[written] = (time, value);
                written += 1;
            }
        }
        changes.truncate(written);
        self.queue_depth = changes;
        for track in &recording.threads {
            for e in &track.events {
                if let EventKind::KernelEnd {
                    live_values: Some(live),
                    ..
                } = e.kind
                {
                    self.live_values.push((e.time, live));
                }
            }
        }
        self.live_values.sort();
    }

    /// The number of events the recording analysed holds (also once they
    /// are released).
    pub fn event_count(&self) -> usize {
        self.event_count
    }

    /// Frees the recording's events, which nothing built from the model
    /// reads (the exports and the critical path read the model, and the
    /// recording's header, program table and thread names), so that an
    /// export does not hold them beside its own memory: kept encoded,
    /// they are about the recording file's size. Only when the model holds the
    /// recording alone (a caller keeping an [`Arc`] of it keeps them);
    /// returns whether it did.
    pub fn release_events(&mut self) -> bool {
        let Some(recording) = Arc::get_mut(&mut self.recording) else {
            return false;
        };
        for track in &mut recording.threads {
            track.events = Events::new();
        }
        true
    }

    /// When all of run `run`'s results were available: when the last one
    /// completed after it returned, as recorded (in older recordings, when
    /// the last one was published); its end if none came later.
    pub fn results_done(&self, run: usize) -> u64 {
        let r = &self.runs[run];
        let later = if self.recording.header.completions_recorded {
            r.completed()
        } else {
            r.published()
        };
        later.unwrap_or(r.end).max(r.end)
    }

    /// How long run `run`'s results took to become available after it
    /// returned (see [`results_done`](Self::results_done)).
    pub fn async_tail(&self, run: usize) -> u64 {
        self.results_done(run) - self.runs[run].end
    }

    /// The run of kernel `kernel` of execution id `execution`.
    pub fn run_of(&self, execution: u64, kernel: u32) -> Option<usize> {
        self.find_run(execution, kernel)
    }

    /// The key of kernel `kernel` of execution id `execution` in
    /// [`run_index`](Self::run_index), if the execution is known.
    fn run_key(&self, execution: u64, kernel: u32) -> Option<(u32, u32)> {
        let x = *self.execution_index.get(&execution)?;
        Some((u32::try_from(x).ok()?, kernel))
    }

    fn find_run(&self, execution: u64, kernel: u32) -> Option<usize> {
        let key = self.run_key(execution, kernel)?;
        self.run_index.get(&key).map(|&run| run as usize)
    }

    /// Indexes run `run` as kernel `kernel` of execution `x`; false (and
    /// left out) past 2^32 executions or runs, which no file reaches.
    fn insert_run(&mut self, x: usize, kernel: u32, run: usize) -> bool {
        match (u32::try_from(x), u32::try_from(run)) {
            (Ok(x), Ok(run)) => {
                self.run_index.insert((x, kernel), run);
                true
            }
            _ => false,
        }
    }

    /// The function of a run.
    pub fn function_of(&self, run: usize) -> u32 {
        self.executions[self.runs[run].execution].function
    }

    /// A run's kernel name.
    pub fn kernel_name(&self, run: usize) -> &str {
        self.recording
            .kernel_name(self.function_of(run), self.runs[run].kernel)
    }

    /// A run's frame name: `name#index`, the name cut to
    /// [`NAME_WIDTH`](crate::display::NAME_WIDTH).
    pub fn frame(&self, run: usize) -> String {
        format!(
            "{}#{}",
            crate::display::name(self.kernel_name(run)),
            self.runs[run].kernel
        )
    }

    /// The name of a run's function, cut to
    /// [`NAME_WIDTH`](crate::display::NAME_WIDTH).
    pub fn function_label(&self, run: usize) -> String {
        self.function_label_of(self.function_of(run))
    }

    /// The name of function `function`, cut to
    /// [`NAME_WIDTH`](crate::display::NAME_WIDTH).
    pub fn function_label_of(&self, function: u32) -> String {
        crate::display::name(&self.recording.function_name(function)).into_owned()
    }

    /// The call stack of a run, outermost first: the runs of the calling
    /// kernels, then the run itself.
    pub fn call_chain(&self, run: usize) -> Vec<usize> {
        let mut chain = vec![run];
        let mut at = self.executions[self.runs[run].execution].caller;
        while let Some(caller) = at {
            if chain.len() >= MAX_STACK {
                break;
            }
            chain.push(caller);
            at = self.executions[self.runs[caller].execution].caller;
        }
        chain.reverse();
        chain
    }

    /// The innermost `limit` runs of a run's call stack, outermost first,
    /// and whether calling runs beyond them were left out. Takes at most
    /// `limit` steps.
    pub fn call_chain_innermost(&self, run: usize, limit: usize) -> (Vec<usize>, bool) {
        let mut chain = vec![run];
        let mut at = self.executions[self.runs[run].execution].caller;
        while let Some(caller) = at {
            if chain.len() >= limit.max(1) {
                chain.reverse();
                return (chain, true);
            }
            chain.push(caller);
            at = self.executions[self.runs[caller].execution].caller;
        }
        chain.reverse();
        (chain, false)
    }

    /// The kind of a run's function.
    pub fn kind_of(&self, run: usize) -> Option<FunctionKind> {
        self.recording
            .functions
            .get(self.function_of(run) as usize)
            .map(|f| f.kind)
    }

    /// The static facts of a run's kernel: BEF offset and location.
    pub fn kernel_info(&self, run: usize) -> Option<&crate::capture::recording::KernelInfo> {
        self.recording
            .functions
            .get(self.function_of(run) as usize)?
            .kernels
            .get(self.runs[run].kernel as usize)
    }

    /// A thread's name as recorded (threads of a pool may share one).
    pub fn thread_name(&self, thread: usize) -> &str {
        &self.recording.threads[thread].name
    }

    /// A thread's name as every export shows it: cut to
    /// [`NAME_WIDTH`](crate::display::NAME_WIDTH), and told apart from the
    /// threads before it of the same name by ` (2)`, ` (3)`, ...
    pub fn thread_label(&self, thread: usize) -> &str {
        &self.thread_labels[thread]
    }

    /// A run's recorded result values, `r3 = 42, r4 = chain`, each shown
    /// as [`display::text`](crate::display::text) shows it; empty when none
    /// were recorded.
    pub fn values_text(&self, run: usize) -> String {
        let first = self.values.partition_point(|v| v.0 < run);
        let values: Vec<String> = self.values[first..]
            .iter()
            .take_while(|v| v.0 == run)
            .map(|(_, r, v)| format!("r{r} = {}", crate::display::text(v)))
            .collect();
        values.join(", ")
    }

    /// The work run `run` reported, summed (`None`: it reported none).
    pub fn work_of(&self, run: usize) -> Option<Work> {
        self.work.get(&run).copied()
    }

    /// The stream id of a run's kernel (0 when unknown).
    pub fn stream_of(&self, run: usize) -> u64 {
        self.kernel_info(run).map_or(0, |k| k.stream)
    }
}
