//! `--from`, `--to`, `--function` and `--thread`: a [`Selection`] applied
//! to a real recording before its model is built. Every export of a time
//! range holds only times inside it (the Perfetto trace decoded with
//! Perfetto's own schema, the Chrome JSON parsed, the folded stacks
//! summed), runs straddling a bound are clipped to it, and the
//! statistics of a range agree with the same range's folded stacks.

mod common;

use std::collections::HashMap;
use std::process::Command;

use bef_trace::export::folded::{self, FoldOptions};
use bef_trace::export::{chrome, perfetto, stats};
use bef_trace::{Model, Recording, Selection, SelectionError};
use perfetto_protos::trace::Trace;
use protobuf::Message;
use serde_json::Value;

/// The first and last event times of `recording`.
fn bounds(recording: &Recording) -> (u64, u64) {
    let times = recording
        .threads
        .iter()
        .flat_map(|t| &t.events)
        .map(|e| e.time);
    (times.clone().min().unwrap(), times.max().unwrap())
}

/// A recording with threads and thousands of runs across its span.
fn loop_recording() -> Recording {
    common::record("trace/cpu_loop.mlir", "mstd:2")
}

/// The middle third of `recording`, relative to its start and absolute.
fn middle_third(recording: &Recording) -> (Selection, u64, u64) {
    let (first, last) = bounds(recording);
    let length = last - first;
    let (from, to) = (length / 3, 2 * length / 3);
    let selection = Selection {
        from: Some(from),
        to: Some(to),
        ..Selection::default()
    };
    (selection, first + from, first + to)
}

fn folded_total(model: &Model) -> u64 {
    folded::fold(model, &FoldOptions::default())
        .iter()
        .map(|l| l.1)
        .sum()
}

#[test]
fn a_time_range_keeps_only_events_inside_it_in_every_export() {
    let recording = loop_recording();
    let whole = Model::new(recording.clone());
    let (selection, lo, hi) = middle_third(&recording);
    let model = Model::new(selection.apply(recording).expect("the range applies"));
    assert!(
        model.runs.len() > 100 && model.runs.len() < whole.runs.len(),
        "the middle third keeps some runs: {} of {}",
        model.runs.len(),
        whole.runs.len()
    );
    for run in &model.runs {
        assert!(
            lo <= run.start && run.end <= hi,
            "run {run:?} in {lo}..={hi}"
        );
    }

    let trace = Trace::parse_from_bytes(&perfetto::export(&model)).expect("decodes");
    let mut timed = 0;
    for packet in trace.packet.iter().filter(|p| p.has_track_event()) {
        let t = packet.timestamp();
        assert!(
            (lo..=hi).contains(&t),
            "Perfetto event at {t}, not in {lo}..={hi}"
        );
        timed += 1;
    }
    assert!(timed >= 2 * model.runs.len(), "{timed} Perfetto events");

    let json: Value = serde_json::from_str(&chrome::export(&model)).expect("JSON");
    let (lo_us, hi_us) = (lo as f64 / 1e3, hi as f64 / 1e3);
    let mut slices = 0;
    for event in json["traceEvents"].as_array().unwrap() {
        let Some(ts) = event["ts"].as_f64() else {
            continue; // metadata
        };
        let end = ts + event["dur"].as_f64().unwrap_or(0.0);
        assert!(
            ts >= lo_us - 1e-3 && end <= hi_us + 1e-3,
            "Chrome event {event} not in {lo_us}..={hi_us} us"
        );
        slices += usize::from(event["ph"] == "X");
    }
    assert!(slices >= model.runs.len(), "{slices} Chrome slices");

    // Clipped, not kept whole: the range's CPU time is the whole
    // recording's segments cut to the range.
    let clipped: u64 = whole
        .segments
        .iter()
        .map(|s| s.end.min(hi).saturating_sub(s.start.max(lo)))
        .sum();
    assert_eq!(folded_total(&model), clipped);
    assert!(clipped < folded_total(&whole));
}

#[test]
fn statistics_of_a_range_agree_with_its_folded_stacks() {
    let recording = loop_recording();
    let (selection, _, _) = middle_third(&recording);
    let model = Model::new(selection.apply(recording).expect("the range applies"));
    let stats = stats::stats(&model);
    let lines = folded::fold(&model, &FoldOptions::default());
    let self_total: u64 = stats.kernels.iter().map(|k| k.self_ns).sum();
    assert_eq!(self_total, lines.iter().map(|l| l.1).sum::<u64>());
    // Kernel by kernel: the last frame of a stack is `name#index`.
    let mut by_kernel: HashMap<String, u64> = HashMap::new();
    for (stack, ns) in &lines {
        let frame = stack.rsplit(';').next().unwrap();
        let name = frame.rsplit_once('#').map_or(frame, |f| f.0);
        *by_kernel.entry(name.to_string()).or_default() += ns;
    }
    for kernel in stats.kernels.iter().filter(|k| k.self_ns > 0) {
        assert_eq!(
            by_kernel.get(&kernel.name),
            Some(&kernel.self_ns),
            "{}",
            kernel.name
        );
    }
    let runs: u64 = stats.kernels.iter().map(|k| k.count).sum();
    assert_eq!(runs, model.runs.len() as u64);
}

#[test]
fn a_function_keeps_its_executions_and_what_they_call() {
    let recording = common::record("trace/nested_calls.mlir", "mstd:2");
    let whole = Model::new(recording.clone());
    let selection = Selection {
        function: Some("@mid".into()),
        ..Selection::default()
    };
    let model = Model::new(selection.apply(recording).expect("mid is a function"));
    let names: Vec<String> = model
        .executions
        .iter()
        .map(|x| model.recording.function_name(x.function))
        .collect();
    assert!(names.contains(&"mid".to_string()), "{names:?}");
    assert!(names.contains(&"leaf".to_string()), "{names:?}");
    assert!(!names.contains(&"main".to_string()), "{names:?}");
    let leaf_runs = |m: &Model| {
        (0..m.runs.len())
            .filter(|&r| m.recording.function_name(m.function_of(r)) == "leaf")
            .count()
    };
    assert_eq!(leaf_runs(&model), leaf_runs(&whole));
    for (stack, _) in folded::fold(&model, &FoldOptions::default()) {
        assert!(stack.starts_with("mid;"), "{stack}");
    }
    // The calls inside what is kept still link caller to callee.
    assert!(model.executions.iter().any(|x| x.caller.is_some()));
}

#[test]
fn a_thread_keeps_its_runs_only() {
    let recording = loop_recording();
    let whole = Model::new(recording.clone());
    let busiest = (0..recording.threads.len())
        .max_by_key(|&t| whole.runs.iter().filter(|r| r.thread == t).count())
        .unwrap();
    let label = whole.thread_label(busiest).to_string();
    let selection = Selection {
        thread: Some(label.clone()),
        ..Selection::default()
    };
    let model = Model::new(selection.apply(recording).expect("the thread is known"));
    assert_eq!(model.recording.threads.len(), 1);
    assert_eq!(model.thread_label(0), label);
    assert_eq!(
        model.runs.len(),
        whole.runs.iter().filter(|r| r.thread == busiest).count()
    );
}

#[test]
fn bad_selections_are_refused_with_what_is_known() {
    let recording = common::record("trace/nested_calls.mlir", "s");
    let (first, last) = bounds(&recording);
    let refused = |selection: Selection| selection.apply(recording.clone()).unwrap_err();
    assert_eq!(
        refused(Selection {
            from: Some(20),
            to: Some(10),
            ..Selection::default()
        }),
        SelectionError::FromAfterTo { from: 20, to: 10 }
    );
    let past = refused(Selection {
        from: Some(last - first + 1),
        ..Selection::default()
    });
    assert!(past.to_string().contains("past the end"), "{past}");
    let function = refused(Selection {
        function: Some("nope".into()),
        ..Selection::default()
    })
    .to_string();
    assert!(
        function.contains("--function nope") && function.contains("leaf, main, mid"),
        "{function}"
    );
    let thread = refused(Selection {
        thread: Some("nope".into()),
        ..Selection::default()
    })
    .to_string();
    assert!(
        thread.contains("--thread nope") && thread.contains(&recording.threads[0].name),
        "{thread}"
    );
}

#[test]
fn the_command_takes_the_range_on_every_export() {
    let dir = bef_test_support::corpus::scratch_dir("bef-trace-ranges");
    let file = dir.join("loop.beftrace");
    let recording = loop_recording();
    let thread = recording.threads[0].name.clone();
    std::fs::write(&file, bef_trace::write(&recording)).unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_bef-trace"))
            .args(args)
            .output()
            .expect("runs")
    };
    let file = file.to_str().unwrap();
    let out_of = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for args in [
        vec!["folded", file],
        vec!["stats", file, "--json"],
        vec!["critical-path", file],
        vec!["perfetto", file, "-o", &out_of("t.pftrace")],
        vec!["chrome-json", file, "-o", &out_of("t.json")],
        vec!["flamegraph", file, "-o", &out_of("t.svg")],
    ] {
        let mut args = args.clone();
        args.extend(["--from", "0", "--to", "1ms", "--thread", &thread]);
        let out = run(&args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = run(&["stats", file, "--from", "2s", "--to", "1s"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--from 2.000s is after --to 1.000s"), "{err}");
    let out = run(&["stats", file, "--from", "1h"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("past the end of the recording"), "{err}");
    let out = run(&["folded", file, "--function", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("it has cpu_loop"), "{err}");
}
