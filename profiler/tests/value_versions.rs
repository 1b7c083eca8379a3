//! Values written in place after they were published: a recording made
//! with `--values` keeps each version, after the kernel that wrote it
//! (`corpus/trace/in_place.mlir`), and one made without keeps none.

mod common;

use std::collections::HashMap;

use bef_trace::capture::recording::{Event, EventKind, Recording};
use bef_trace::{RecordOptions, RecorderOptions, record_file};

/// A recording of `function` of the program on `queue`.
fn record(function: &str, queue: &str, values: bool) -> Recording {
    let options = RecordOptions {
        work_queue: queue.into(),
        functions: vec![function.into()],
        recorder: RecorderOptions {
            values,
            ..RecorderOptions::default()
        },
        ..RecordOptions::default()
    };
    record_file(
        &common::corpus_path("trace/in_place.mlir"),
        &options,
        |_| {},
    )
    .unwrap_or_else(|e| panic!("{function} on {queue}: {e}"))
    .0
}

/// Every event in time order (then by thread, then as emitted).
fn in_order(recording: &Recording) -> Vec<Event> {
    let mut events: Vec<(u64, usize, usize, Event)> = Vec::new();
    for (t, track) in recording.threads.iter().enumerate() {
        for (i, e) in track.events.iter().enumerate() {
            events.push((e.time, t, i, e));
        }
    }
    events.sort_by_key(|&(time, t, i, _)| (time, t, i));
    events.into_iter().map(|(.., e)| e).collect()
}

/// What happened to the values of register `register` of the function's
/// one execution, in order: `set VALUE` or `NAME updated VALUE`, with
/// the times of the writing kernels' ends.
fn history(recording: &Recording, register: u32) -> Vec<(String, u64)> {
    let function: HashMap<u64, u32> = in_order(recording)
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::FunctionBegin { function, .. } => Some((e.execution, function)),
            _ => None,
        })
        .collect();
    let mut ends: HashMap<(u64, u32), u64> = HashMap::new();
    let mut shown = Vec::new();
    for e in in_order(recording) {
        match &e.kind {
            EventKind::KernelEnd { kernel, .. } => {
                ends.insert((e.execution, *kernel), e.time);
            }
            EventKind::RegisterSet {
                register: r, value, ..
            } if *r == register => {
                shown.push((format!("set {}", value.as_deref().unwrap_or("-")), e.time));
            }
            EventKind::ValueUpdated {
                register: r,
                kernel,
                value,
            } if *r == register => {
                let name = recording.kernel_name(function[&e.execution], *kernel);
                let end = ends
                    .get(&(e.execution, *kernel))
                    .copied()
                    .unwrap_or_else(|| panic!("{name} updated %{r} before it ended"));
                assert!(e.time >= end, "{name}: a version before the kernel's end");
                shown.push((
                    format!("{name} updated {}", value.as_deref().unwrap_or("-")),
                    e.time,
                ));
            }
            _ => {}
        }
    }
    shown
}

/// The register the `nth` kernel named `kernel_name` publishes into.
fn register_of(recording: &Recording, kernel_name: &str, nth: usize) -> u32 {
    // The one function that ran.
    let ran = in_order(recording)
        .iter()
        .find_map(|e| match e.kind {
            EventKind::FunctionBegin { function, .. } => Some(function),
            _ => None,
        })
        .expect("a function ran");
    let function = &recording.functions[ran as usize];
    let kernel = function
        .kernels
        .iter()
        .enumerate()
        .filter(|(_, k)| k.name == kernel_name)
        .nth(nth)
        .unwrap_or_else(|| panic!("no {kernel_name} #{nth}"))
        .0 as u32;
    in_order(recording)
        .iter()
        .find_map(|e| match e.kind {
            EventKind::RegisterSet {
                register, producer, ..
            } if producer == kernel => Some(register),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{kernel_name} published nothing"))
}

#[test]
fn a_tensor_filled_after_it_was_created_has_a_version_per_write() {
    for queue in ["s", "mstd:2"] {
        let recording = record("fill_after_create", queue, true);
        let t = register_of(&recording, "tfrt_dht.create_uninitialized_tensor.i32.1", 0);
        let shown: Vec<String> = history(&recording, t).into_iter().map(|(s, _)| s).collect();
        assert_eq!(
            shown,
            [
                "set i32[3] [0, 0, 0]",
                "tfrt_dht.fill_tensor_with_constant.i32 updated i32[3] [7, 7, 7]",
                "tfrt_dht.set_tensor_with_constant_values.i32 updated i32[3] [1, 2, 3]",
            ],
            "{queue}"
        );
        // Reading it (print_tensor) makes no version.
        let updates = recording
            .threads
            .iter()
            .flat_map(|t| &t.events)
            .filter(|e| matches!(e.kind, EventKind::ValueUpdated { .. }))
            .count();
        assert_eq!(updates, 2, "{queue}");
    }
}

#[test]
fn without_values_no_version_is_recorded() {
    let recording = record("fill_after_create", "s", false);
    assert!(
        recording
            .threads
            .iter()
            .flat_map(|t| &t.events)
            .all(|e| !matches!(e.kind, EventKind::ValueUpdated { .. }))
    );
}

#[test]
fn a_product_written_by_queued_tasks_is_versioned_when_they_are_done() {
    for queue in ["s", "mstd:2"] {
        let recording = record("split_product", queue, true);
        // %a and %b are made first.
        let c = register_of(&recording, "tfrt_dht.create_uninitialized_tensor.f32.2", 2);
        let shown: Vec<String> = history(&recording, c).into_iter().map(|(s, _)| s).collect();
        assert_eq!(
            shown,
            [
                "set f32[130,96] [0.0, 0.0, 0.0, 0.0, 0.0, …]",
                "tfrt_test.matmul.f32.2 updated f32[130,96] [192.0, 192.0, 192.0, 192.0, …]",
            ],
            "{queue}"
        );
    }
}
