//! Recordings whose `--keep last` rings wrapped: what was kept still has
//! its dependencies (flows, the critical path), kernels running when the
//! window began are cut rather than lost, and what each thread wrote and
//! dropped adds up to what a whole recording of the same run writes.

mod common;

use std::collections::HashSet;

use bef_trace::analysis::critical_path::{self, CriticalOptions};
use bef_trace::capture::recording::Keep;
use bef_trace::export::Export;
use bef_trace::export::stats;
use bef_trace::progress::Progress;
use bef_trace::{Model, Recording};
use perfetto_protos::trace::Trace;
use protobuf::Message;

/// Events of the whole recording of `long_loop.mlir` are many times this.
const KEPT: usize = 20_000;

/// Records `trace/long_loop.mlir` (deterministic: one thread) keeping
/// `keep` of at most `events` events per thread.
fn long_loop(keep: Keep, events: usize) -> Recording {
    common::record_keeping("trace/long_loop.mlir", keep, events)
}

/// Per thread name, `(written, dropped)`.
fn counts(recording: &Recording) -> Vec<(String, u64, u64)> {
    let mut counts: Vec<(String, u64, u64)> = recording
        .threads
        .iter()
        .map(|t| (t.name.clone(), t.events.len() as u64, t.dropped))
        .collect();
    counts.sort();
    counts
}

#[test]
fn written_and_dropped_events_add_up_to_the_whole_recording() {
    let whole = long_loop(Keep::First, 1 << 22);
    assert_eq!(whole.dropped(), 0);
    let total = whole.event_count() as u64;
    assert!(total > 10 * KEPT as u64, "{total} events");
    for keep in [Keep::Last, Keep::First] {
        let cut = long_loop(keep, KEPT);
        let whole_counts = counts(&whole);
        let cut_counts = counts(&cut);
        assert_eq!(whole_counts.len(), cut_counts.len(), "{keep:?}");
        for ((name, all, _), (cut_name, written, dropped)) in whole_counts.iter().zip(&cut_counts) {
            assert_eq!(name, cut_name);
            assert!(*written <= KEPT as u64, "{keep:?}: {written} written");
            assert_eq!(written + dropped, *all, "{keep:?}, thread {name}");
        }
        assert!(cut.dropped() > 0);
        assert_eq!(cut.event_count() as u64 + cut.dropped(), total, "{keep:?}");
        let stats = stats::stats(&Model::new(cut));
        assert_eq!(
            stats.dropped_events + stats.written_events,
            total,
            "{keep:?}"
        );
    }
}

#[test]
fn a_wrapped_loop_keeps_its_flows_and_its_critical_path() {
    let _serial = common::serial();
    let whole = Model::new(long_loop(Keep::First, 1 << 22));
    let recording = long_loop(Keep::Last, KEPT);
    assert!(recording.dropped() > 0);
    let model = Model::new(bef_trace::read(&bef_trace::write(&recording)).expect("reads"));

    // The loop kernel started and ended long before the window: it stays,
    // cut, as the caller of the iterations kept and the producer of the
    // loop's result.
    let cut: Vec<usize> = (0..model.runs.len())
        .filter(|&r| model.runs[r].cut)
        .collect();
    assert_eq!(cut.len(), 1, "{:?}", cut.iter().map(|&r| model.frame(r)));
    let repeat = cut[0];
    assert_eq!(model.frame(repeat), "tfrt.repeat.i32#3");
    assert!(model.runs[repeat].calls as usize > 1000);
    let iterations = model.runs.len() - 1;
    assert_eq!(model.runs[repeat].calls as usize, iterations);
    assert!(!whole.runs.iter().any(|r| r.cut));

    // Every iteration's add reads the loop's operand: a flow each, in both
    // exports.
    assert!(
        model.edges.len() >= iterations,
        "{} edges",
        model.edges.len()
    );
    let mut out = Vec::new();
    bef_trace::export::perfetto::Options
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("writes Perfetto");
    let trace = Trace::parse_from_bytes(&out).expect("Perfetto's schema decodes the trace");
    let mut flows_out = HashSet::new();
    let mut flows_in = HashSet::new();
    for packet in &trace.packet {
        if packet.has_track_event() {
            let e = packet.track_event();
            flows_out.extend(e.flow_ids.iter().copied());
            flows_in.extend(e.terminating_flow_ids.iter().copied());
        }
    }
    assert!(flows_out.len() >= iterations, "{} flows", flows_out.len());
    assert_eq!(flows_out, flows_in);
    let chrome = bef_trace::export::chrome::export(&model);
    let chrome_flows = chrome.matches("\"flow_out\":true").count();
    assert!(chrome_flows >= iterations, "{chrome_flows} Chrome flows");

    // The iterations run one after another: the path goes through each
    // one kept, from the cut loop kernel.
    let analysis = critical_path::analyse(&model, &CriticalOptions::default());
    assert!(
        analysis.path.len() > iterations,
        "{} of {} runs on the path",
        analysis.path.len(),
        model.runs.len()
    );
    assert_eq!(analysis.path.first(), Some(&repeat));
    let window = model.span.1 - model.span.0;
    assert!(analysis.length_ns <= window);
    assert!(
        analysis.length_ns * 2 > window,
        "{} of {window}",
        analysis.length_ns
    );

    // The stats count what was kept and say what was cut.
    let stats = stats::stats(&model);
    assert_eq!(stats.cut_runs, 1);
    let adds = stats
        .kernels
        .iter()
        .find(|k| k.name == "tfrt.add.i32")
        .expect("adds");
    assert_eq!(adds.count as usize, iterations);
    let text = stats::to_text(&stats);
    assert!(text.contains("the earliest are missing"), "{text}");
}
