//! Predictions checked against real runs: `critical-path --speedup` and
//! `--what-if-workers` predict a span from one recording; this bench
//! changes the program for real (a sleep's duration, a matrix's size, the
//! number of workers), records it, and prints predicted against measured
//! spans with the error (`docs/performance.md` has the table). Each span
//! is the median of five recordings.
//!
//! `cargo bench -p bef-trace --bench predictions`

use std::path::{Path, PathBuf};

use bef_trace::Model;
use bef_trace::analysis::critical_path::{self, CriticalOptions};
use bef_trace::capture::record::{RecordOptions, record_file};

const ROUNDS: usize = 5;

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/trace")
        .join(name)
}

/// The program `name` with `replacements` made, written to a scratch file.
fn changed(name: &str, replacements: &[(&str, &str)]) -> PathBuf {
    let mut text = std::fs::read_to_string(corpus(name)).expect("corpus program");
    for (from, to) in replacements {
        assert!(text.contains(from), "{name} has no {from:?}");
        text = text.replace(from, to);
    }
    let path = std::env::temp_dir().join(format!("bef-trace-predictions-{name}"));
    std::fs::write(&path, text).expect("scratch file");
    path
}

/// The recording of median span among [`ROUNDS`] of `program` on `queue`.
fn median_model(program: &Path, queue: &str) -> Model {
    let options = RecordOptions {
        work_queue: queue.into(),
        ..Default::default()
    };
    let mut models: Vec<Model> = (0..ROUNDS)
        .map(|_| Model::new(record_file(program, &options, |_| {}).expect("records").0))
        .collect();
    models.sort_by_key(span);
    models.swap_remove(ROUNDS / 2)
}

fn span(model: &Model) -> u64 {
    model.span.1 - model.span.0
}

fn row(what: &str, predicted: u64, measured: u64) {
    let error = (predicted as f64 / measured as f64 - 1.0) * 100.0;
    println!(
        "| {what} | {:.2} ms | {:.2} ms | {error:+.1} % |",
        predicted as f64 / 1e6,
        measured as f64 / 1e6
    );
}

fn speedup(name: &str, queue: &str, pattern: &str, percent: f64, replacements: &[(&str, &str)]) {
    let model = median_model(&corpus(name), queue);
    let options = CriticalOptions {
        speedups: vec![(pattern.to_string(), percent)],
        ..Default::default()
    };
    let predicted = critical_path::analyse(&model, &options)
        .speedup
        .expect("asked for")
        .span_ns;
    let measured = span(&median_model(&changed(name, replacements), queue));
    row(
        &format!("`{name}` on {queue}, `--speedup {pattern}={percent}`"),
        predicted,
        measured,
    );
}

fn what_if(name: &str, recorded_on: &str, workers: usize) {
    let model = median_model(&corpus(name), recorded_on);
    let options = CriticalOptions {
        what_if_workers: Some(workers),
        ..Default::default()
    };
    let predicted = critical_path::analyse(&model, &options)
        .what_if
        .expect("asked for")
        .span_ns;
    let measured = span(&median_model(&corpus(name), &format!("mstd:{workers}")));
    row(
        &format!("`{name}` recorded on {recorded_on}, `--what-if-workers {workers}`"),
        predicted,
        measured,
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter is not supported.
    println!("| program and prediction | predicted | measured | error |");
    println!("|---|---|---|---|");
    speedup(
        "sleeps_on_and_off_path.mlir",
        "mstd:2",
        "usleep#4",
        50.0,
        &[("i32 40000", "i32 20000")],
    );
    speedup(
        "sleeps_on_and_off_path.mlir",
        "mstd:2",
        "usleep#7",
        100.0,
        &[("i32 5000", "i32 0")],
    );
    speedup(
        "sleeps.mlir",
        "mstd:2",
        "usleep#3",
        80.0,
        &[("i32 50000", "i32 10000")],
    );
    // 76³ / 96³ = 0.496: half the multiply-adds.
    speedup(
        "joined_unequal.mlir",
        "mstd:2",
        "matmul",
        50.4,
        &[("[96 : i64, 96 : i64]", "[76 : i64, 76 : i64]")],
    );
    what_if("joined_equal.mlir", "mstd:1", 2);
    what_if("joined_unequal.mlir", "mstd:1", 2);
    what_if("cpu_loop.mlir", "mstd:1", 2);
    // Products split across the workers: their other blocks hold workers.
    what_if("joined_large.mlir", "mstd:1", 2);
    what_if("joined_large.mlir", "mstd:2", 1);
}
