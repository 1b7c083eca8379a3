//! Recordings from untrusted bytes: arbitrary bytes, and valid recordings
//! damaged at random, read to a recording or an error at an offset, never
//! a panic, and never needing more memory than a small multiple of the
//! input (every count is checked against the bytes left before anything
//! is allocated). Whatever reads also analyses and exports.

mod common;

use bef_trace::Model;
use bef_trace::analysis::critical_path::{self, CriticalOptions};
use bef_trace::export::Export;
use bef_trace::export::flamegraph;
use bef_trace::export::{chrome, folded, perfetto, pprof, stats};
use bef_trace::progress::Progress;
use common::counting::{Counting, thread_peak_during as peak_during};
use proptest::prelude::*;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most `read` may need beyond what it returns... and what it returns:
/// 64 bytes per input byte, plus a little.
fn bound(len: usize) -> usize {
    64 * len + (64 << 10)
}

/// Reads `bytes`, checking the memory bound; exports what reads.
fn read_and_export(bytes: &[u8]) {
    let (result, peak) = peak_during(|| bef_trace::read(bytes));
    assert!(
        peak <= bound(bytes.len()),
        "reading {} bytes needed {peak} bytes",
        bytes.len()
    );
    match result {
        Ok(recording) => {
            let model = Model::new(recording.clone());
            let _ = perfetto::export(&model);
            let _ = chrome::export(&model);
            let _ = pprof::export(&model);
            let _ = stats::stats(&model);
            let _ = critical_path::analyse(
                &model,
                &CriticalOptions {
                    what_if_workers: Some(2),
                    speedups: Vec::new(),
                    json: false,
                },
            );
        }
        Err(e) => assert!(e.offset <= bytes.len(), "{e}"),
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let seeds: Vec<Vec<u8>> = bef_test_support::corpus::corpus_dir_files("fuzz/trace_read")
        .into_iter()
        .map(|path| std::fs::read(path).unwrap())
        .collect();
    assert!(
        seeds.len() >= 3,
        "seed recordings missing from corpus/fuzz/trace_read"
    );
    seeds
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut bytes = b"BEFTRACE\x01\x00".to_vec();
        bytes.extend(&tail);
        read_and_export(&bytes);
        read_and_export(&tail);
    }

    #[test]
    fn damaged_recordings_never_panic(
        seed in 0usize..3,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let mut bytes = seeds()[seed].clone();
        for (at, value, how) in edits {
            let at = at % bytes.len();
            match how {
                0 => bytes[at] = value,
                1 => bytes.truncate(at.max(1)),
                _ => bytes.insert(at, value),
            }
        }
        read_and_export(&bytes);
    }
}

#[test]
fn a_huge_count_is_refused_without_allocating_it() {
    // A thread claiming 2^40 events in a few bytes.
    let mut bytes = b"BEFTRACE\x01\x00".to_vec();
    bytes.extend([0; 14]); // empty header fields
    bytes.push(0); // no functions
    bytes.push(1); // one thread
    bytes.extend([0, 0]); // unnamed, none dropped
    bytes.extend([0x80, 0x80, 0x80, 0x80, 0x80, 0x20]); // 2^40 events
    let (result, peak) = peak_during(|| bef_trace::read(&bytes));
    let err = result.unwrap_err();
    assert!(err.message.contains("event count"), "{err}");
    assert!(peak < 4096);
}

/// Every export's memory beyond the model, per event of the recording,
/// measured on the loop below: Chrome JSON and Perfetto are written an
/// event at a time (Perfetto merging its per-thread timelines as it
/// writes), folded stacks and flame graphs merge stacks of a call tree,
/// statistics keep a duration per run for percentiles, and the critical
/// path a graph in compressed rows. Exporting a million events once took
/// 4 GB.
#[test]
fn exports_stay_within_their_memory_per_event() {
    let dir = std::env::temp_dir().join(format!("bef-trace-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let program = dir.join("loop.mlir");
    std::fs::write(
        &program,
        "func.func @main() -> i32 {
  %n = tfrt.constant.i32 20000
  %x = tfrt.constant.i32 0
  %r = tfrt.repeat.i32 %n, %x : i32 {
    %one = tfrt.constant.i32 1
    %y = tfrt.add.i32 %x, %one
    tfrt.return %y : i32
  }
  tfrt.return %r : i32
}
",
    )
    .expect("program written");
    let (recording, _) =
        bef_trace::record_file(&program, &Default::default(), |_| {}).expect("records");
    let _ = std::fs::remove_dir_all(&dir);
    let events = recording.event_count();
    assert!(events > 100_000, "{events} events");
    let model = Model::new(recording);
    let measure = |export: &dyn Export| {
        let (result, peak) =
            peak_during(|| export.write(&model, &mut std::io::sink(), Progress::HIDDEN));
        result.expect("exports");
        peak
    };
    let critical = CriticalOptions {
        what_if_workers: Some(2),
        speedups: Vec::new(),
        json: false,
    };
    // (export, bytes per event it may take beyond the model)
    let exports: [(&str, usize, &dyn Export); 7] = [
        ("Chrome JSON", BOUND_CHROME, &chrome::Options),
        ("Perfetto", BOUND_PERFETTO, &perfetto::Options),
        ("pprof", BOUND_PPROF, &pprof::Options),
        ("folded", BOUND_FOLDED, &folded::FoldOptions::default()),
        (
            "flame graph",
            BOUND_FOLDED,
            &flamegraph::FlameOptions::default(),
        ),
        ("stats", BOUND_STATS, &stats::Options::default()),
        ("critical path", BOUND_CRITICAL, &critical),
    ];
    for (what, per_event, export) in exports {
        let peak = measure(export);
        assert!(
            peak <= per_event * events + (1 << 20),
            "{what}: {peak} bytes for {events} events, more than {per_event} per event"
        );
    }
}

// Measured on this loop (debug build): Chrome JSON 3 bytes per event,
// Perfetto 8 (32 and more when it sorted a vector of every timeline
// event), folded and flame graph 8, stats 13, critical path 62 (a vector
// per graph node before compressed rows), pprof 102 (the wall clock's
// shared timeline, cut at every segment's start and end, as the
// wall-clock flame graph cuts it).
const BOUND_CHROME: usize = 32;
const BOUND_PERFETTO: usize = 32;
const BOUND_PPROF: usize = 128;
const BOUND_FOLDED: usize = 32;
const BOUND_STATS: usize = 64;
const BOUND_CRITICAL: usize = 128;
