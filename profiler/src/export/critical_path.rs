//! The critical path as a report: text for a terminal, or JSON
//! ([`Report`]), of the analysis [`crate::analysis::critical_path`] makes.

use std::cmp::Reverse;
use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

use crate::analysis::critical_path::{Analysis, CriticalOptions, Speedup, Split, WhatIf, analyse};
use crate::analysis::model::Model;
use crate::export::Export;
use crate::export::stats::human;
use crate::progress::Progress;

impl Export for CriticalOptions {
    /// Analyses `model` and writes the result, as text or JSON (safe for a
    /// terminal: [`crate::display::terminal_json`]).
    fn write(&self, model: &Model, out: &mut dyn Write, progress: Progress) -> io::Result<()> {
        progress.step("finding the critical path", || {
            let analysis = analyse(model, self);
            let text = if self.json {
                crate::display::terminal_json(&to_json(model, &analysis))
                    .map_err(io::Error::from)?
            } else {
                to_text(model, &analysis)
            };
            out.write_all(text.as_bytes())
        })
    }
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
    /// `--what-if-workers`: workers, replayed span, the replayed span on
    /// one worker, and the lower bound.
    pub what_if: Option<WhatIf>,
    /// `--speedup`: the replayed span with the kernels made faster, and
    /// without.
    pub speedup: Option<Speedup>,
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
                    queued_ns: run
                        .ready()
                        .map_or(0, |ready| run.start.saturating_sub(ready)),
                    start_ns: run.start,
                }
            })
            .collect(),
        slack,
        what_if: analysis.what_if,
        speedup: analysis.speedup.clone(),
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
        "  running {}, async completion {}, executor {}, waiting for a worker {}, becoming ready {}",
        human(s.running_ns),
        human(s.async_ns),
        human(s.executor_ns),
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
            crate::export::stats::readers_left_out(model.readers_left_out)
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
            crate::analysis::model::presentation::kernel_frame(model, r),
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
        let _ = writeln!(
            out,
            "\nwhat if {workers} workers: span {}, ×{:.2} against one worker's {} \
             (lower bound {})",
            human(what_if.span_ns),
            what_if.speed_up(),
            human(what_if.one_worker_ns),
            human(what_if.lower_bound_ns),
        );
    }
    if let Some(speedup) = &analysis.speedup {
        let changes: Vec<String> = speedup
            .changes
            .iter()
            .map(|(pattern, percent)| {
                format!("{} {percent}% faster", crate::display::name(pattern))
            })
            .collect();
        let _ = writeln!(
            out,
            "\nwhat if {} ({} kernel runs): span {} against {} as recorded ({:+.1}%)",
            changes.join(", "),
            speedup.runs_matched,
            human(speedup.span_ns),
            human(speedup.baseline_ns),
            (speedup.span_ns as f64 / speedup.baseline_ns.max(1) as f64 - 1.0) * 100.0,
        );
    }
    if analysis.what_if.is_some() || analysis.speedup.is_some() {
        let _ = writeln!(
            out,
            "  (replayed: each kernel's own time with the executor's time that dispatched it \
             ({}), its async tail on a worker when a worker completed it; left out: {} of \
             executor time on threads that ran no kernel, contention for memory and caches)",
            human(analysis.replay_executor_ns),
            human(analysis.replay_left_out_ns),
        );
    }
    out
}
