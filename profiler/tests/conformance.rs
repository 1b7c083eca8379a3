//! Every conformance program that `bef run` accepts also records, and its
//! recording writes, reads back and exports without error: folded stacks,
//! flame graphs, Perfetto, Chrome JSON, stats and the critical path; every
//! reader of every value it records has its edge in the model; and the
//! critical path's time categories add up to its length.

mod common;

use bef_trace::analysis::critical_path::{self, CriticalOptions};
use bef_trace::export::Export;
use bef_trace::export::flamegraph::FlameOptions;
use bef_trace::export::folded::{self, FoldOptions};
use bef_trace::export::{chrome, perfetto, stats};
use bef_trace::progress::Progress;
use bef_trace::{Model, RecordOptions, record_file};

fn export_all(path: &std::path::Path, queue: &str) -> Result<usize, String> {
    // Bounded buffers keep the exports of the largest programs quick in an
    // unoptimised build (what does not fit is counted as dropped).
    let options = RecordOptions {
        work_queue: queue.into(),
        // The corpus's deep recursions (100,000 levels, and runaway ones)
        // then end at the limit: the error path is exported too, quickly.
        max_call_depth: 1_000,
        recorder: bef_trace::RecorderOptions {
            events_per_thread: 100_000,
            ..Default::default()
        },
        ..Default::default()
    };
    let recording = match record_file(path, &options, |_| {}) {
        Ok((recording, _)) => recording,
        // Programs meant not to load (syntax errors, unknown kernels).
        Err(_) => return Ok(0),
    };
    let bytes = bef_trace::write(&recording);
    let read = bef_trace::read(&bytes).map_err(|e| format!("reads back: {e}"))?;
    if read != recording {
        return Err("the recording changed through the file".into());
    }
    let model = Model::new(read.clone());
    // The bound on edges is for recordings no program makes.
    if model.readers_left_out != 0 {
        return Err(format!(
            "{} readers left without an edge",
            model.readers_left_out
        ));
    }
    let _ = folded::fold(&model, &FoldOptions::default());
    let mut svg = Vec::new();
    FlameOptions::default()
        .write(&model, &mut svg, Progress::HIDDEN)
        .map_err(|e| format!("flame graph: {e}"))?;
    let _ = perfetto::export(&model);
    serde_json::from_str::<serde_json::Value>(&chrome::export(&model))
        .map_err(|e| format!("chrome JSON: {e}"))?;
    let _ = stats::to_text(&stats::stats(&model));
    let analysis = critical_path::analyse(
        &model,
        &CriticalOptions {
            what_if_workers: Some(2),
            speedups: Vec::new(),
            json: false,
        },
    );
    let _ = bef_trace::export::critical_path::to_text(&model, &analysis);
    // The path's categories partition its recorded length, within the span.
    let total = analysis.split.total();
    if total.abs_diff(analysis.length_ns) > analysis.length_ns / 100 {
        return Err(format!(
            "the path's categories add up to {total} ns, its length is {} ns",
            analysis.length_ns
        ));
    }
    if analysis.length_ns > analysis.recorded_ns {
        return Err(format!(
            "the path lasts {} ns, longer than the recording's {} ns",
            analysis.length_ns, analysis.recorded_ns
        ));
    }
    Ok(1)
}

#[test]
fn every_conformance_program_records_and_exports() {
    let _serial = common::serial();
    common::with_stack(|| {
        let mut failures = Vec::new();
        let mut recorded = 0;
        for queue in ["s", "mstd:2"] {
            for path in common::corpus_files("conformance") {
                match export_all(&path, queue) {
                    Ok(n) => recorded += n,
                    Err(e) => failures.push(format!("{} on {queue}: {e}", path.display())),
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // Most of the corpus loads: a change that stopped it would
        // otherwise make this test vacuous.
        assert!(recorded > 100, "only {recorded} programs recorded");
    });
}
