//! Statistics of a recording: per kernel name and per function (count,
//! total, self (on-CPU) and off-CPU time, mean, min, p50, p99, max), the
//! GFLOP/s or GB/s of the kernels that report their work, per-thread
//! utilisation, and the distribution of the time kernels wait between
//! ready and start.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use serde::Serialize;

use crate::analysis::model::Model;
use crate::capture::recording::{FunctionKind, Recording};
use crate::display;
use crate::export::Export;
use crate::progress::Progress;

/// Durations of a group of runs or executions, in nanoseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// What was measured (a kernel or function name).
    pub name: String,
    /// How many.
    pub count: u64,
    /// Sum of durations.
    pub total_ns: u64,
    /// Sum of self times (less nested kernels): on-CPU time.
    pub self_ns: u64,
    /// Sum of off-CPU times: results completing after their kernel
    /// returned ([`KernelRun::off_cpu`](crate::analysis::model::KernelRun::off_cpu)).
    pub off_cpu_ns: u64,
    /// Mean duration.
    pub mean_ns: u64,
    /// Shortest.
    pub min_ns: u64,
    /// Median (nearest rank).
    pub p50_ns: u64,
    /// 99th percentile (nearest rank).
    pub p99_ns: u64,
    /// Longest.
    pub max_ns: u64,
    /// Which run (of [`Model::runs`], for a kernel) or execution (of
    /// [`Model::executions`], for a function) took `max_ns`: where a viewer
    /// jumps to show the slowest. Not written: indices mean nothing
    /// outside the model.
    #[serde(skip)]
    pub longest: Option<usize>,
}

/// One thread's use of the recording's span.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThreadUse {
    /// The thread's name.
    pub name: String,
    /// Time in kernels or in the executor's own code.
    pub busy_ns: u64,
    /// The part of `busy_ns` in the executor's own code
    /// ([`Model::executor`]).
    pub executor_ns: u64,
    /// The rest of the span: nothing to run.
    pub idle_ns: u64,
    /// `busy / span`.
    pub utilisation: f64,
    /// Kernel runs started on it.
    pub kernels: u64,
}

/// Ready → start waits.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Latency {
    /// Kernels that reported ready and started.
    pub count: u64,
    /// Mean wait.
    pub mean_ns: u64,
    /// Shortest.
    pub min_ns: u64,
    /// Median.
    pub p50_ns: u64,
    /// 90th percentile.
    pub p90_ns: u64,
    /// 99th percentile.
    pub p99_ns: u64,
    /// Longest.
    pub max_ns: u64,
    /// `(upper bound in ns, count)`: waits below 1 µs, 2 µs, 4 µs, ...
    pub histogram: Vec<(u64, u64)>,
}

/// What the runs of one kernel that reported their work achieved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Throughput {
    /// The kernel's name.
    pub name: String,
    /// Runs that reported work.
    pub count: u64,
    /// Their arithmetic operations.
    pub flops: u64,
    /// Their bytes read and written.
    pub bytes: u64,
    /// Their time, each from its start until its results were available
    /// (a product split across workers completes after it returns).
    pub time_ns: u64,
    /// `flops / time` in 10^9 a second; `None` for kernels measured by
    /// bytes alone.
    pub gflops_per_s: Option<f64>,
    /// `bytes / time` in 10^9 a second.
    pub gbytes_per_s: f64,
}

/// Everything `bef-trace stats` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// The run was stopped before it ended: what had not run is missing.
    pub partial: bool,
    /// Why the recording ended, in words (`completed`, `error at kernel
    /// tfrt_test.fail#1`, ...); empty for a recording that does not say.
    pub stopped: String,
    /// Readers of published values left without an edge by the model's
    /// bound ([`Model::readers_left_out`]).
    pub readers_left_out: u64,
    /// The recording's span.
    pub span_ns: u64,
    /// Events the recording holds; with [`dropped_events`](Self::dropped_events),
    /// every event the run reported.
    pub written_events: u64,
    /// Events lost to full buffers.
    pub dropped_events: u64,
    /// Kernel runs whose start was dropped (`--keep last`), counted from
    /// the beginning of their thread's kept window
    /// ([`KernelRun::cut`](crate::analysis::model::KernelRun::cut)).
    pub cut_runs: u64,
    /// Which end of the run they are from: the start (`--keep last`) or
    /// the end.
    pub dropped_from_start: bool,
    /// By kernel name, longest total first.
    pub kernels: Vec<Summary>,
    /// By function name, longest total first.
    pub functions: Vec<Summary>,
    /// By thread, in recording order.
    pub threads: Vec<ThreadUse>,
    /// Kernels that reported their work (tensor kernels), most time first.
    pub throughput: Vec<Throughput>,
    /// Ready → start.
    pub ready_to_start: Latency,
    /// The first error, if any: the kernel and its message.
    pub first_error: Option<String>,
    /// Kernels skipped or poisoned by an error.
    pub poisoned: u64,
}

/// Computes the statistics of `model`.
/// How the statistics are written.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// As JSON (safe for a terminal: [`display::terminal_json`]) instead of
    /// tables.
    pub json: bool,
}

impl Export for Options {
    /// Writes the statistics of `model`, as tables or JSON.
    fn write(
        &self,
        model: &Model,
        out: &mut dyn std::io::Write,
        progress: Progress,
    ) -> std::io::Result<()> {
        progress.step("tabulating", || {
            let stats = stats(model);
            let text = if self.json {
                display::terminal_json(&stats).map_err(std::io::Error::from)?
            } else {
                to_text(&stats)
            };
            out.write_all(text.as_bytes())
        })
    }
}

/// When each execution's work was done: its end, or later, when a
/// function it called (a loop body run after its kernel returned, an
/// asynchronous call) ended later, or one of its kernels' results
/// completed later. Callers began before their callees, so one pass from
/// the last execution carries each end up to its caller.
fn execution_ends(model: &Model) -> Vec<u64> {
    let mut ends: Vec<u64> = model
        .executions
        .iter()
        .map(|x| x.end.unwrap_or(model.span.1).max(x.begin))
        .collect();
    for (r, run) in model.runs.iter().enumerate() {
        let done = model.results_done(r);
        let end = &mut ends[run.execution];
        *end = (*end).max(done);
    }
    for x in (0..model.executions.len()).rev() {
        if let Some(caller) = model.executions[x].caller {
            let parent = model.runs[caller].execution;
            ends[parent] = ends[parent].max(ends[x]);
        }
    }
    ends
}

/// The statistics of `model`.
pub fn stats(model: &Model) -> Stats {
    let recording = &model.recording;
    // Runs are grouped by their kernel-table entry first, then entries by
    // name: each name is compared a few times, not once per run.
    let mut by_entry: HashMap<KernelEntry, Vec<Sample>> = HashMap::new();
    for (i, run) in model.runs.iter().enumerate() {
        by_entry
            .entry(KernelEntry::of(model, i))
            .or_default()
            .push(Sample {
                index: i,
                duration: run.duration(),
                on_cpu: run.self_time,
                off_cpu: run.off_cpu(),
            });
    }
    let mut kernels: BTreeMap<&str, Vec<Sample>> = BTreeMap::new();
    for (entry, samples) in by_entry {
        kernels
            .entry(entry.name(model))
            .or_default()
            .extend(samples);
    }
    let mut by_execution = vec![(0u64, 0u64); model.executions.len()];
    for run in &model.runs {
        let sums = &mut by_execution[run.execution];
        sums.0 = sums.0.saturating_add(run.self_time);
        sums.1 = sums.1.saturating_add(run.off_cpu());
    }
    let ends = execution_ends(model);
    let mut by_function: HashMap<u32, Vec<Sample>> = HashMap::new();
    for (x, execution) in model.executions.iter().enumerate() {
        let end = ends[x];
        by_function
            .entry(execution.function)
            .or_default()
            .push(Sample {
                index: x,
                duration: end.saturating_sub(execution.begin),
                on_cpu: by_execution[x].0,
                off_cpu: by_execution[x].1,
            });
    }
    let mut functions: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
    for (function, samples) in by_function {
        functions
            .entry(recording.function_name(function))
            .or_default()
            .extend(samples);
    }
    let span = model.span.1 - model.span.0;
    let executor = model.executor_time_by_thread();
    let mut busy = executor.clone();
    for s in &model.segments {
        busy[s.thread] = busy[s.thread].saturating_add(s.end - s.start);
    }
    let mut runs_on = vec![0u64; model.recording.threads.len()];
    for r in &model.runs {
        runs_on[r.thread] += 1;
    }
    let threads = model
        .recording
        .threads
        .iter()
        .enumerate()
        .map(|(t, _)| {
            let busy = busy[t];
            ThreadUse {
                name: model.thread_label(t).to_owned(),
                busy_ns: busy,
                executor_ns: executor[t],
                idle_ns: span.saturating_sub(busy),
                utilisation: if span == 0 {
                    0.0
                } else {
                    busy as f64 / span as f64
                },
                kernels: runs_on[t],
            }
        })
        .collect();
    let waits: Vec<u64> = model
        .runs
        .iter()
        .filter_map(|r| Some(r.start.saturating_sub(r.ready()?)))
        .collect();
    let first_error = model.first_error.as_ref().map(|e| {
        let at = e.run.map_or("a function argument".to_string(), |r| {
            format!("{} in {}", model.frame(r), model.function_label(r))
        });
        match &e.message {
            Some(m) => format!("{at}: {m}"),
            None => at,
        }
    });
    Stats {
        partial: recording.header.partial,
        stopped: match &recording.header.stop {
            crate::capture::recording::StopReason::Unknown => String::new(),
            stop => stop.to_string(),
        },
        readers_left_out: model.readers_left_out,
        span_ns: span,
        written_events: model.event_count() as u64,
        dropped_events: model.recording.dropped(),
        cut_runs: model.runs.iter().filter(|r| r.cut).count() as u64,
        dropped_from_start: model.recording.header.kept == crate::capture::recording::Keep::Last,
        kernels: summaries(kernels),
        functions: summaries(functions),
        threads,
        throughput: throughput(model),
        ready_to_start: latency(waits),
        first_error,
        poisoned: model.runs.iter().filter(|r| r.error.is_some()).count() as u64,
    }
}

fn throughput(model: &Model) -> Vec<Throughput> {
    let mut by_name: BTreeMap<&str, (u64, u64, u64, u64)> = BTreeMap::new();
    for (r, run) in model.runs.iter().enumerate() {
        let Some(work) = model.work_of(r) else {
            continue;
        };
        let done = run.completed().unwrap_or(run.end).max(run.end);
        let sums = by_name
            .entry(KernelEntry::of(model, r).name(model))
            .or_default();
        sums.0 += 1;
        sums.1 = sums.1.saturating_add(work.flops);
        sums.2 = sums.2.saturating_add(work.bytes);
        sums.3 = sums.3.saturating_add(done - run.start);
    }
    let mut out: Vec<Throughput> = by_name
        .into_iter()
        .map(|(name, (count, flops, bytes, time))| {
            // Operations per ns are 10^9 operations a second.
            let per_ns = |n: u64| n as f64 / time.max(1) as f64;
            Throughput {
                name: name.to_owned(),
                count,
                flops,
                bytes,
                time_ns: time,
                gflops_per_s: (flops > 0).then(|| per_ns(flops)),
                gbytes_per_s: per_ns(bytes),
            }
        })
        .collect();
    out.sort_by(|a, b| b.time_ns.cmp(&a.time_ns).then(a.name.cmp(&b.name)));
    out
}

/// Where a run's kernel name comes from: its kernel-table entry, its
/// function's name (the body of a native function), or nowhere (`?`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum KernelEntry {
    Kernel(u32, u32),
    Function(u32),
    Unknown,
}

impl KernelEntry {
    fn of(model: &Model, run: usize) -> KernelEntry {
        let function = model.function_of(run);
        let kernel = model.runs[run].kernel;
        match model.recording.functions.get(function as usize) {
            Some(f) if (kernel as usize) < f.kernels.len() => KernelEntry::Kernel(function, kernel),
            Some(f) if f.kind == FunctionKind::Native => KernelEntry::Function(function),
            _ => KernelEntry::Unknown,
        }
    }

    fn name(self, model: &Model) -> &str {
        let recording: &Recording = &model.recording;
        match self {
            KernelEntry::Kernel(f, k) => recording.kernel_name(f, k),
            KernelEntry::Function(f) => recording.kernel_name(f, u32::MAX),
            KernelEntry::Unknown => "?",
        }
    }
}

/// One run's (or execution's) times.
struct Sample {
    /// The run's (or execution's) index in the model.
    index: usize,
    duration: u64,
    on_cpu: u64,
    off_cpu: u64,
}

fn summaries<K: Into<String>>(groups: BTreeMap<K, Vec<Sample>>) -> Vec<Summary> {
    let mut out: Vec<Summary> = groups
        .into_iter()
        .map(|(name, samples)| {
            // The first of the longest, in model order, so that the pick
            // does not depend on the order groups were merged in.
            let longest = samples
                .iter()
                .max_by(|a, b| a.duration.cmp(&b.duration).then(b.index.cmp(&a.index)))
                .map(|s| s.index);
            let mut durations: Vec<u64> = samples.iter().map(|s| s.duration).collect();
            durations.sort_unstable();
            let total = durations.iter().fold(0u64, |sum, &d| sum.saturating_add(d));
            Summary {
                name: name.into(),
                count: durations.len() as u64,
                total_ns: total,
                self_ns: samples
                    .iter()
                    .fold(0u64, |sum, s| sum.saturating_add(s.on_cpu)),
                off_cpu_ns: samples
                    .iter()
                    .fold(0u64, |sum, s| sum.saturating_add(s.off_cpu)),
                mean_ns: total / durations.len().max(1) as u64,
                min_ns: durations.first().copied().unwrap_or(0),
                p50_ns: percentile(&durations, 50),
                p99_ns: percentile(&durations, 99),
                max_ns: durations.last().copied().unwrap_or(0),
                longest,
            }
        })
        .collect();
    out.sort_by(|a, b| b.total_ns.cmp(&a.total_ns).then(a.name.cmp(&b.name)));
    out
}

/// Nearest-rank percentile of sorted `values` (0 when empty).
pub fn percentile(sorted: &[u64], p: u64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (p as usize * sorted.len()).div_ceil(100).max(1);
    sorted[rank.min(sorted.len()) - 1]
}

fn latency(mut waits: Vec<u64>) -> Latency {
    waits.sort_unstable();
    let mut histogram: Vec<(u64, u64)> = Vec::new();
    for &w in &waits {
        let mut bound = 1000u64;
        while w >= bound && bound < u64::MAX / 2 {
            bound *= 2;
        }
        match histogram.iter_mut().find(|h| h.0 == bound) {
            Some(h) => h.1 += 1,
            None => histogram.push((bound, 1)),
        }
    }
    histogram.sort_unstable();
    Latency {
        count: waits.len() as u64,
        mean_ns: waits.iter().fold(0u64, |sum, &w| sum.saturating_add(w))
            / waits.len().max(1) as u64,
        min_ns: waits.first().copied().unwrap_or(0),
        p50_ns: percentile(&waits, 50),
        p90_ns: percentile(&waits, 90),
        p99_ns: percentile(&waits, 99),
        max_ns: waits.last().copied().unwrap_or(0),
        histogram,
    }
}

/// Nanoseconds for people: `850ns`, `12.3µs`, `4.56ms`, `1.234s`.
pub fn human(ns: u64) -> String {
    match ns {
        0..1_000 => format!("{ns}ns"),
        1_000..1_000_000 => format!("{:.1}µs", ns as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.2}ms", ns as f64 / 1e6),
        _ => format!("{:.3}s", ns as f64 / 1e9),
    }
}

/// The statistics as text tables.
pub fn to_text(stats: &Stats) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "span {}, {} threads{}",
        human(stats.span_ns),
        stats.threads.len(),
        if stats.dropped_events > 0 {
            let kept = if stats.dropped_from_start {
                crate::capture::recording::Keep::Last
            } else {
                crate::capture::recording::Keep::First
            };
            format!(
                ", {} events written, {}",
                stats.written_events,
                display::dropped(stats.dropped_events, kept)
            )
        } else {
            String::new()
        }
    );
    if stats.cut_runs > 0 {
        let _ = writeln!(
            out,
            "{} kernels started before their thread's window: counted from its beginning",
            stats.cut_runs
        );
    }
    if !stats.stopped.is_empty() {
        let _ = writeln!(out, "stopped: {}", display::text(&stats.stopped));
    }
    if stats.partial {
        let _ = writeln!(out, "{}", display::PARTIAL);
    }
    if stats.readers_left_out > 0 {
        let _ = writeln!(out, "{}", readers_left_out(stats.readers_left_out));
    }
    for (title, rows) in [("kernel", &stats.kernels), ("function", &stats.functions)] {
        let names: Vec<_> = rows.iter().map(|r| display::name(&r.name)).collect();
        let width = column_width(&names);
        let _ = writeln!(
            out,
            "\n{title:<width$} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
            "count", "total", "self", "off-CPU", "mean", "min", "p50", "p99", "max"
        );
        for (r, name) in rows.iter().zip(&names) {
            let _ = writeln!(
                out,
                "{:<width$} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
                name,
                r.count,
                human(r.total_ns),
                human(r.self_ns),
                human(r.off_cpu_ns),
                human(r.mean_ns),
                human(r.min_ns),
                human(r.p50_ns),
                human(r.p99_ns),
                human(r.max_ns)
            );
        }
    }
    let names: Vec<_> = stats
        .threads
        .iter()
        .map(|t| display::name(&t.name))
        .collect();
    let width = column_width(&names);
    let _ = writeln!(
        out,
        "\n{:<width$} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "thread", "busy", "executor", "idle", "use", "kernels"
    );
    for (t, name) in stats.threads.iter().zip(&names) {
        let _ = writeln!(
            out,
            "{:<width$} {:>10} {:>10} {:>10} {:>7.1}% {:>8}",
            name,
            human(t.busy_ns),
            human(t.executor_ns),
            human(t.idle_ns),
            t.utilisation * 100.0,
            t.kernels
        );
    }
    if !stats.throughput.is_empty() {
        let names: Vec<_> = stats
            .throughput
            .iter()
            .map(|t| display::name(&t.name))
            .collect();
        let width = column_width(&names);
        let _ = writeln!(
            out,
            "\n{:<width$} {:>8} {:>10} {:>10} {:>10}",
            "tensor kernel", "count", "time", "GFLOP/s", "GB/s"
        );
        for (t, name) in stats.throughput.iter().zip(&names) {
            let gflops = t
                .gflops_per_s
                .map_or_else(|| "-".to_owned(), |g| format!("{g:.2}"));
            let _ = writeln!(
                out,
                "{:<width$} {:>8} {:>10} {:>10} {:>10.2}",
                name,
                t.count,
                human(t.time_ns),
                gflops,
                t.gbytes_per_s
            );
        }
    }
    let l = &stats.ready_to_start;
    let _ = writeln!(
        out,
        "\nready → start: {} kernels, mean {}, min {}, p50 {}, p90 {}, p99 {}, max {}",
        l.count,
        human(l.mean_ns),
        human(l.min_ns),
        human(l.p50_ns),
        human(l.p90_ns),
        human(l.p99_ns),
        human(l.max_ns)
    );
    for (bound, count) in &l.histogram {
        let _ = writeln!(out, "  < {:>10} {count}", human(*bound));
    }
    if let Some(e) = &stats.first_error {
        let _ = writeln!(
            out,
            "\nfirst error: {}\nkernels marked by errors: {}",
            display::text(e),
            stats.poisoned
        );
    }
    out
}

/// What the text outputs say of [`Model::readers_left_out`].
pub fn readers_left_out(n: u64) -> String {
    format!(
        "{n} readers of published values have no edge (the recording lists more than {} \
         per event of their execution)",
        crate::analysis::model::EDGES_PER_EVENT
    )
}

/// The width of a column of names shown: the widest, at least 8 (and at
/// most [`display::NAME_WIDTH`], as the names are cut to it).
fn column_width(names: &[std::borrow::Cow<'_, str>]) -> usize {
    names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(8)
}
