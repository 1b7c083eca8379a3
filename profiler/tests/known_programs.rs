//! Recordings of programs whose answers are known by hand (`corpus/trace/`):
//! critical paths and slack, nested call frames, error marks, and the same
//! structure under the single-threaded and a two-thread work queue.

mod common;

use std::collections::BTreeMap;

use bef_trace::critical_path::{self, CriticalOptions};
use bef_trace::folded::{self, FoldOptions};
use bef_trace::model::ErrorMark;
use bef_trace::{Model, stats};

const QUEUES: [&str; 2] = ["s", "mstd:2"];

fn path_frames(model: &Model<'_>, path: &[usize]) -> Vec<String> {
    path.iter().map(|&r| model.frame(r)).collect()
}

fn run_named(model: &Model<'_>, frame: &str) -> usize {
    (0..model.runs.len())
        .find(|&r| model.frame(r) == frame)
        .unwrap_or_else(|| panic!("no run of {frame}"))
}

#[test]
fn a_serial_chain_is_all_critical_with_no_slack() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/serial_chain.mlir", queue);
        let model = Model::new(&recording);
        assert_eq!(model.runs.len(), 9, "{queue}");
        let analysis = critical_path::analyse(&model, &CriticalOptions::default());
        let mut expected = vec!["tfrt.constant.i32#1".to_string()];
        expected.extend((2..=9).map(|k| format!("tfrt.add.i32#{k}")));
        assert_eq!(path_frames(&model, &analysis.path), expected, "{queue}");
        assert!(
            analysis.slack.iter().all(|&s| s == 0),
            "{queue}: {:?}",
            analysis.slack
        );
        // The path's length is its kernels' own time plus their async tails.
        let weights: u64 = model
            .runs
            .iter()
            .map(|r| r.self_time + r.published.map_or(0, |p| p.saturating_sub(r.end)))
            .sum();
        assert_eq!(analysis.length_ns, weights, "{queue}");
        assert_eq!(
            analysis.split.running_ns,
            model.runs.iter().map(|r| r.self_time).sum::<u64>()
        );
        // Each add reads the one before: 8 edges, a chain.
        assert_eq!(model.edges.len(), 8, "{queue}");
    }
}

#[test]
fn only_the_longer_of_two_branches_is_critical() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/branches.mlir", queue);
        let model = Model::new(&recording);
        let analysis = critical_path::analyse(&model, &CriticalOptions::default());
        let mut expected = vec!["tfrt.constant.i32#1".to_string()];
        expected.extend((2..=201).map(|k| format!("tfrt.add.i32#{k}")));
        expected.push("tfrt.add.i32#204".into());
        assert_eq!(path_frames(&model, &analysis.path), expected, "{queue}");
        for short in ["tfrt.constant.i32#202", "tfrt.add.i32#203"] {
            let r = run_named(&model, short);
            assert!(analysis.slack[r] > 0, "{queue}: {short} has no slack");
        }
        for long in &expected {
            assert_eq!(
                analysis.slack[run_named(&model, long)],
                0,
                "{queue}: {long}"
            );
        }
    }
}

#[test]
fn a_long_asynchronous_branch_is_critical() {
    let _serial = common::serial();
    // With the single-threaded queue the blocking pool has one thread: the
    // short sleep waits behind the long one, and the recording shows it.
    for queue in ["mstd:2", "mstd:1,2"] {
        let recording = common::record("trace/sleeps.mlir", queue);
        let model = Model::new(&recording);
        let analysis = critical_path::analyse(
            &model,
            &CriticalOptions {
                what_if_workers: Some(1),
            },
        );
        let path = path_frames(&model, &analysis.path);
        assert!(
            path.contains(&"tfrt_test.blocking.usleep#3".to_string()),
            "{queue}: {path:?}"
        );
        assert!(
            !path.contains(&"tfrt_test.blocking.usleep#4".to_string()),
            "{queue}: {path:?}"
        );
        // 50 ms against 1 ms: the short sleep could start ~49 ms later
        // (less when a loaded machine starts it late).
        let short = run_named(&model, "tfrt_test.blocking.usleep#4");
        assert!(
            analysis.slack[short] >= 30_000_000,
            "{queue}: {}",
            analysis.slack[short]
        );
        assert!(
            analysis.split.async_ns >= 50_000_000,
            "{queue}: {:?}",
            analysis.split
        );
        // Sleeping holds no worker: one worker is no slower than the path.
        let (_, span) = analysis.what_if.expect("asked for");
        assert!(
            span >= analysis.length_ns && span < analysis.length_ns + 10_000_000,
            "{queue}: {span} against {}",
            analysis.length_ns
        );
    }
}

#[test]
fn calls_nest_as_frames() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/nested_calls.mlir", queue);
        let model = Model::new(&recording);
        let lines = folded::fold(&model, &FoldOptions::default());
        let leaf = "main;tfrt.call#2;mid;tfrt.call#1;leaf;tfrt.add.i32#1";
        assert!(
            lines.iter().any(|(stack, n)| stack == leaf && *n > 0),
            "{queue}: {lines:?}"
        );
        // The folded total is the time threads spent in kernels.
        let total: u64 = lines.iter().map(|l| l.1).sum();
        let busy: u64 = model.segments.iter().map(|s| s.end - s.start).sum();
        assert_eq!(total, busy);
        // The calls contain their callees in time.
        let outer = run_named(&model, "tfrt.call#2");
        let inner = run_named(&model, "tfrt.call#1");
        let add = run_named(&model, "tfrt.add.i32#1");
        let within = |a: usize, b: usize| {
            model.runs[b].start <= model.runs[a].start && model.runs[a].end <= model.runs[b].end
        };
        assert!(within(inner, outer) && within(add, inner), "{queue}");
        assert_eq!(model.call_chain(add), vec![outer, inner, add]);
    }
}

#[test]
fn the_first_error_and_what_it_poisoned_are_marked() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/errors.mlir", queue);
        let model = Model::new(&recording);
        let mark = |frame: &str| model.runs[run_named(&model, frame)].error;
        assert_eq!(mark("tfrt_test.fail#1"), Some(ErrorMark::Origin), "{queue}");
        assert_eq!(mark("tfrt.add.i32#3"), Some(ErrorMark::Poisoned), "{queue}");
        assert_eq!(mark("tfrt.add.i32#4"), Some(ErrorMark::Poisoned), "{queue}");
        assert_eq!(mark("tfrt.add.i32#5"), None, "{queue}");
        assert_eq!(mark("tfrt.constant.i32#2"), None, "{queue}");
        let first = model.first_error.as_ref().expect("an error");
        assert_eq!(
            first.message.as_deref(),
            Some("error: something bad happened")
        );
        let stacks: Vec<String> = folded::fold(&model, &FoldOptions::default())
            .into_iter()
            .map(|l| l.0)
            .collect();
        assert!(stacks.contains(&"errors;tfrt_test.fail#1 [error]".to_string()));
        assert!(stacks.contains(&"errors;tfrt.add.i32#4 [poisoned]".to_string()));
        let s = stats::stats(&model);
        assert!(
            s.first_error
                .as_deref()
                .unwrap()
                .contains("tfrt_test.fail#1")
        );
        assert_eq!(s.poisoned, 3);
    }
}

/// What does not depend on timing: the stacks, how often each kernel ran,
/// the edges between kernels, the error marks.
fn structure(model: &Model<'_>) -> (BTreeMap<String, usize>, usize) {
    let mut stacks = BTreeMap::new();
    for r in 0..model.runs.len() {
        let chain: Vec<String> = model
            .call_chain(r)
            .into_iter()
            .map(|c| {
                format!(
                    "{};{}",
                    model.recording.function_name(model.function_of(c)),
                    folded::kernel_frame(model, c)
                )
            })
            .collect();
        *stacks.entry(chain.join(";")).or_default() += 1;
    }
    (stacks, model.edges.len())
}

#[test]
fn single_and_multi_threaded_recordings_agree_up_to_timing() {
    let _serial = common::serial();
    for program in [
        "trace/serial_chain.mlir",
        "trace/branches.mlir",
        "trace/nested_calls.mlir",
        "trace/errors.mlir",
        "conformance/call_nested.mlir",
        "mlir/fibonacci_repeat.mlir",
    ] {
        let single = common::record(program, "s");
        let multi = common::record(program, "mstd:2");
        let (a, b) = (Model::new(&single), Model::new(&multi));
        let (sa, sb) = (structure(&a), structure(&b));
        assert_eq!(sa.0, sb.0, "{program}: call stacks and their counts");
        assert_eq!(sa.1, sb.1, "{program}: edges");
        assert_eq!(single.header.program_hash, multi.header.program_hash);
        assert!(multi.header.work_queue.starts_with("mstd:2"));
    }
}

#[test]
fn a_loops_iterations_are_chained_on_the_critical_path() {
    let _serial = common::serial();
    for queue in QUEUES {
        // Ten iterations of tfrt.repeat.i32, each taking the previous
        // one's results: the path passes through every iteration.
        let recording = common::record("mlir/fibonacci_repeat.mlir", queue);
        let model = Model::new(&recording);
        let analysis = critical_path::analyse(&model, &CriticalOptions::default());
        let mut iterations: Vec<usize> = analysis
            .path
            .iter()
            .filter(|&&r| model.recording.function_name(model.function_of(r)) == "(region 0)")
            .map(|&r| model.runs[r].execution)
            .collect();
        iterations.dedup();
        assert_eq!(
            iterations.len(),
            10,
            "{queue}: {:?}",
            path_frames(&model, &analysis.path)
        );
        // In time order, as the iterations ran.
        assert!(
            iterations
                .windows(2)
                .all(|w| model.executions[w[0]].begin < model.executions[w[1]].begin)
        );
    }
}

#[test]
fn an_indirect_result_is_recorded_as_indirect() {
    use bef_trace::recording::{EventKind, ValueState};
    let options = bef_trace::RecordOptions {
        functions: vec!["main".into()],
        ..Default::default()
    };
    let path = common::corpus_path("trace/indirect_result.mlir");
    let (recording, _) = bef_trace::record_file(&path, &options, |_| {}).expect("records");
    let main = recording
        .functions
        .iter()
        .position(|f| f.name == "main")
        .expect("@main") as u32;
    let events: Vec<_> = recording.threads.iter().flat_map(|t| &t.events).collect();
    let main_execution = events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::FunctionBegin { function, .. } if function == main => Some(e.execution),
            _ => None,
        })
        .expect("@main ran");
    let states: Vec<ValueState> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::RegisterSet {
                register: 0, state, ..
            } if e.execution == main_execution => Some(*state),
            _ => None,
        })
        .collect();
    assert_eq!(states, vec![ValueState::Indirect]);
    // And it survives the file format.
    let read = bef_trace::read(&bef_trace::write(&recording)).expect("reads back");
    assert_eq!(read, recording);
}

#[test]
fn a_cancelled_recording_ends_with_what_ran() {
    let cancel = bef_trace::CancelHandle::default();
    let options = bef_trace::RecordOptions {
        cancel: Some(cancel.clone()),
        ..Default::default()
    };
    let path = common::corpus_path("trace/endless.mlir");
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(bef_trace::record_file(&path, &options, |_| {}));
    });
    // Not finished by itself (two billion iterations)...
    assert!(
        finished
            .recv_timeout(std::time::Duration::from_millis(300))
            .is_err()
    );
    // ...but soon once cancelled, with the loop's result an error and the
    // function after it not started.
    cancel.cancel();
    let (recording, outcomes) = finished
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the recording ends once cancelled")
        .expect("records");
    let names: Vec<&str> = outcomes.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["endless"]);
    assert!(outcomes[0].failed, "{:?}", outcomes[0].results);
    assert!(recording.event_count() > 0);
    // Marked partial, in the file too.
    assert!(recording.header.partial);
    let read = bef_trace::read(&bef_trace::write(&recording)).expect("reads back");
    assert!(read.header.partial);
}

#[test]
fn a_recording_that_ran_to_its_end_is_complete() {
    let recording = common::record("trace/serial_chain.mlir", "s");
    assert!(!recording.header.partial);
}

#[test]
fn an_event_limit_past_the_maximum_records_at_the_maximum() {
    // Taken at its word, the logs' chunk table alone would need 2^50
    // slots: the process aborted before the first event.
    let options = bef_trace::RecordOptions {
        recorder: bef_trace::RecorderOptions {
            events_per_thread: usize::MAX,
            ..Default::default()
        },
        ..Default::default()
    };
    let path = common::corpus_path("trace/serial_chain.mlir");
    let (recording, _) = bef_trace::record_file(&path, &options, |_| {}).expect("records");
    assert!(recording.event_count() > 0);
    assert_eq!(recording.dropped(), 0);
}
