//! bef-trace recordings from untrusted bytes: reading gives a recording or
//! an error with its offset, never a panic, and a recording that reads
//! exports in every format without panicking, all within the memory
//! `bef_trace` promises per byte of recording
//! ([`MEMORY_PER_BYTE`](bef_trace::MEMORY_PER_BYTE) ×
//! the input + [`MEMORY_BASE`](bef_trace::MEMORY_BASE)).

use bef_trace::Model;
use bef_trace::analysis::critical_path::{self, CriticalOptions};
use bef_trace::export::Export;
use bef_trace::export::flamegraph::FlameOptions;
use bef_trace::export::folded::{self, Clock, FoldOptions};
use bef_trace::export::{chrome, perfetto, stats};
use bef_trace::progress::Progress;

/// Reads `data` as a recording and, if it reads, exports it every way,
/// checking the memory bound (allocations fail, ending the run with the
/// input, at twice the bound).
pub fn trace_read(data: &[u8]) {
    let bound = bef_trace::MEMORY_PER_BYTE * data.len() + bef_trace::MEMORY_BASE;
    let ((), peak) =
        bef_test_support::counting::thread_peak_within(2 * bound, || read_and_export(data));
    assert!(
        peak <= bound,
        "{peak} bytes for a recording of {} bytes (bound {bound})",
        data.len()
    );
}

fn read_and_export(data: &[u8]) {
    let recording = match bef_trace::read(data) {
        Ok(recording) => recording,
        Err(e) => {
            assert!(e.offset <= data.len(), "error offset past the input: {e}");
            return;
        }
    };
    // What reads writes back to bytes that read the same.
    let again = bef_trace::read(&bef_trace::write(&recording)).expect("rereads");
    assert_eq!(again, recording, "changed through writing");
    let model = Model::new(recording);
    for clock in [Clock::Cpu, Clock::Wall] {
        let _ = folded::fold(
            &model,
            &FoldOptions {
                clock,
                per_thread: true,
                time_order: true,
            },
        );
    }
    let mut svg = Vec::new();
    FlameOptions::default()
        .write(&model, &mut svg, Progress::HIDDEN)
        .expect("draws");
    let _ = perfetto::export(&model);
    let _ = chrome::export(&model);
    let _ = stats::to_text(&stats::stats(&model));
    let analysis = critical_path::analyse(
        &model,
        &CriticalOptions {
            what_if_workers: Some(3),
            speedups: vec![("add".into(), 50.0), ("#1".into(), 100.0)],
            json: false,
        },
    );
    let _ = bef_trace::export::critical_path::to_text(&model, &analysis);
}
