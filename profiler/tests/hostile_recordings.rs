//! Hostile recordings of every shape (`common/hostile.rs`: a register
//! published thousands of times, dense reader tables, names of hundreds of
//! kilobytes, runs all overlapping, deep call chains, thousands of
//! threads, odd characters, extreme times) through every analysis and
//! export, each shape within bounds linear in the recording's size: peak
//! memory (what reading, the model and every export need at once),
//! output, and time. Each of these shapes once took minutes or gigabytes
//! at this size.

mod common;

use std::io::Write;
use std::time::{Duration, Instant};

use bef_trace::analysis::critical_path::{self, CriticalOptions};
use bef_trace::export::Export;
use bef_trace::export::flamegraph::{self, FlameOptions};
use bef_trace::export::folded::{self, Clock, FoldOptions};
use bef_trace::export::{chrome, perfetto, pprof, stats};
use bef_trace::progress::Progress;
use bef_trace::{MEMORY_BASE, MEMORY_PER_BYTE, Model};
use common::counting::{Counting, thread_peak_within as peak_within};
use common::hostile::{self, Shape};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Recordings of about half a megabyte.
const SCALE: usize = 20_000;

/// Bytes every export together may write per byte of the recording, and
/// beyond: Chrome JSON writes a run twice with its names, about 600 bytes,
/// for a run that takes 8 bytes in the recording.
const OUTPUT_PER_BYTE: usize = 200;
const OUTPUT_BASE: usize = 64 << 20;

/// Time for every export of one shape, in an unoptimised build on a busy
/// machine (about 10 s when measured on two loaded cores); the quadratic
/// paths these shapes once took ran for hours or out of memory.
const TIME_LIMIT: Duration = Duration::from_secs(120);

/// Counts what is written to it.
#[derive(Default)]
struct Counter(usize);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads `bytes` and runs every analysis and export on it; the bytes
/// written.
fn export_everything(bytes: &[u8]) -> usize {
    let recording = bef_trace::read(bytes).expect("a hostile recording still reads");
    let model = Model::new(recording.clone());
    let mut out = Counter::default();
    for clock in [Clock::Cpu, Clock::Wall, Clock::OffCpu] {
        for per_thread in [false, true] {
            for time_order in [false, true] {
                let fold = FoldOptions {
                    clock,
                    per_thread,
                    time_order,
                };
                let lines = folded::fold(&model, &fold);
                out.0 += folded::to_text(&lines).len();
                drop(lines);
                let options = FlameOptions {
                    fold,
                    inverted: per_thread,
                    title: hostile::ODD[0].into(),
                };
                options
                    .write(&model, &mut out, Progress::HIDDEN)
                    .expect("draws");
            }
        }
    }
    flamegraph::write_diff_svg(&model, &model, ("a", "b"), &mut out).expect("draws the diff");
    perfetto::Options
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("writes Perfetto");
    chrome::Options
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("writes Chrome JSON");
    pprof::Options
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("writes pprof");
    let s = stats::stats(&model);
    out.0 += stats::to_text(&s).len();
    out.0 += serde_json::to_string(&s).expect("stats JSON").len();
    let analysis = critical_path::analyse(
        &model,
        &CriticalOptions {
            what_if_workers: Some(3),
            speedups: vec![("add".into(), 50.0), ("#1".into(), 100.0)],
            json: false,
        },
    );
    out.0 += bef_trace::export::critical_path::to_text(&model, &analysis).len();
    let report = bef_trace::export::critical_path::to_json(&model, &analysis);
    out.0 += serde_json::to_string(&report).expect("path JSON").len();
    drop(model);
    // A part of it: the middle third of its span, on its first thread,
    // in executions of its first function.
    let times = recording
        .threads
        .iter()
        .flat_map(|t| &t.events)
        .map(|e| e.time);
    let length = times.clone().max().unwrap_or(0) - times.min().unwrap_or(0);
    let selection = bef_trace::Selection {
        from: Some(length / 3),
        to: Some(length / 3 * 2),
        function: (!recording.functions.is_empty()).then(|| recording.function_name(0)),
        thread: recording.threads.first().map(|t| t.name.clone()),
    };
    let selected = Model::new(selection.apply(recording).expect("the selection applies"));
    chrome::Options
        .write(&selected, &mut out, Progress::HIDDEN)
        .expect("writes Chrome JSON of the selection");
    let analysis = critical_path::analyse(&selected, &CriticalOptions::default());
    out.0 += bef_trace::export::critical_path::to_text(&selected, &analysis).len();
    out.0
}

/// What exporting one recording took.
struct Measured {
    peak: usize,
    written: usize,
    elapsed: Duration,
}

/// Exports `bytes` every way on a thread of its own whose allocations fail
/// past twice the memory bound; `None` if it does not finish within
/// [`TIME_LIMIT`] (the thread is left to the end of the process).
fn measure(bytes: Vec<u8>) -> Option<Measured> {
    let limit = 2 * (MEMORY_PER_BYTE * bytes.len() + MEMORY_BASE);
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let started = Instant::now();
        let (written, peak) = peak_within(limit, || export_everything(&bytes));
        let _ = done.send(Measured {
            peak,
            written,
            elapsed: started.elapsed(),
        });
    });
    finished.recv_timeout(TIME_LIMIT).ok()
}

#[test]
fn every_shape_through_every_export_within_linear_bounds() {
    let mut failures = Vec::new();
    for shape in Shape::ALL {
        let bytes = bef_trace::write(&hostile::recording(shape, SCALE));
        let size = bytes.len();
        let Some(m) = measure(bytes) else {
            failures.push(format!("{}: not done within {TIME_LIMIT:?}", shape.name()));
            continue;
        };
        let memory = MEMORY_PER_BYTE * size + MEMORY_BASE;
        let output = OUTPUT_PER_BYTE * size + OUTPUT_BASE;
        eprintln!(
            "{}: {size} bytes, peak {} bytes ({:.1} per byte), {} bytes written, {:?}",
            shape.name(),
            m.peak,
            m.peak as f64 / size as f64,
            m.written,
            m.elapsed
        );
        if m.peak > memory {
            failures.push(format!(
                "{}: {} bytes of memory, bound {memory}",
                shape.name(),
                m.peak
            ));
        }
        if m.written > output {
            failures.push(format!(
                "{}: wrote {} bytes, bound {output}",
                shape.name(),
                m.written
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
