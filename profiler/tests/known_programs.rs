//! Recordings of programs whose answers are known by hand (`corpus/trace/`):
//! critical paths and slack, nested call frames, error marks, and the same
//! structure under the single-threaded and a two-thread work queue.

mod common;

use std::collections::BTreeMap;

use bef_trace::Model;
use bef_trace::analysis::critical_path::{self, CriticalOptions};
use bef_trace::analysis::model::ErrorMark;
use bef_trace::capture::recording::EventKind;
use bef_trace::export::Export;
use bef_trace::export::folded::{self, FoldOptions};
use bef_trace::export::stats;
use bef_trace::progress::Progress;

const QUEUES: [&str; 2] = ["s", "mstd:2"];

fn path_frames(model: &Model, path: &[usize]) -> Vec<String> {
    path.iter().map(|&r| model.frame(r)).collect()
}

fn run_named(model: &Model, frame: &str) -> usize {
    (0..model.runs.len())
        .find(|&r| model.frame(r) == frame)
        .unwrap_or_else(|| panic!("no run of {frame}"))
}

#[test]
fn a_serial_chain_is_all_critical_with_no_slack() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/serial_chain.mlir", queue);
        let model = Model::new(recording.clone());
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
        // The path's weight is its kernels' own time plus their async tails.
        let weights: u64 = (0..model.runs.len())
            .map(|r| model.runs[r].self_time + model.async_tail(r))
            .sum();
        assert_eq!(analysis.weight_ns, weights, "{queue}");
        // Its length is the recorded time from the first kernel being
        // ready to the last one's result, all of it in one category.
        let first = &model.runs[analysis.path[0]];
        let begin = first.ready().unwrap_or(first.start).min(first.start);
        let end = model.results_done(*analysis.path.last().unwrap());
        assert_eq!(analysis.length_ns, end - begin, "{queue}");
        assert_eq!(analysis.split.total(), analysis.length_ns, "{queue}");
        // The kernels run one after another: running is their durations.
        assert_eq!(
            analysis.split.running_ns,
            model.runs.iter().map(|r| r.duration()).sum::<u64>(),
            "{queue}"
        );
        // Each add reads the one before: 8 edges, a chain.
        assert_eq!(model.edges.len(), 8, "{queue}");
    }
}

#[test]
fn the_path_reaches_the_join_through_the_branch_that_arrived_last() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/branches.mlir", queue);
        let model = Model::new(recording.clone());
        let analysis = critical_path::analyse(&model, &CriticalOptions::default());
        let mut long = vec!["tfrt.constant.i32#1".to_string()];
        long.extend((2..=201).map(|k| format!("tfrt.add.i32#{k}")));
        long.push("tfrt.add.i32#204".into());
        let short: Vec<String> = [
            "tfrt.constant.i32#202",
            "tfrt.add.i32#203",
            "tfrt.add.i32#204",
        ]
        .map(String::from)
        .to_vec();
        // One worker may run the short branch last: then the join waited
        // for it, and the path says so.
        let long_done = model.results_done(run_named(&model, "tfrt.add.i32#201"));
        let short_done = model.results_done(run_named(&model, "tfrt.add.i32#203"));
        let expected = if long_done >= short_done {
            &long
        } else {
            &short
        };
        assert_eq!(path_frames(&model, &analysis.path), *expected, "{queue}");
        // Slack is by the kernels' own costs: the short branch has some.
        for short in ["tfrt.constant.i32#202", "tfrt.add.i32#203"] {
            let r = run_named(&model, short);
            assert!(analysis.slack[r] > 0, "{queue}: {short} has no slack");
        }
        for frame in &long {
            assert_eq!(
                analysis.slack[run_named(&model, frame)],
                0,
                "{queue}: {frame}"
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
        let model = Model::new(recording.clone());
        let analysis = critical_path::analyse(
            &model,
            &CriticalOptions {
                what_if_workers: Some(1),
                speedups: Vec::new(),
                json: false,
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
        let span = analysis.what_if.expect("asked for").span_ns;
        assert!(
            span >= analysis.weight_ns && span < analysis.weight_ns + 10_000_000,
            "{queue}: {span} against {}",
            analysis.weight_ns
        );
    }
}

fn what_if(model: &Model, workers: usize) -> f64 {
    let options = CriticalOptions {
        what_if_workers: Some(workers),
        speedups: Vec::new(),
        json: false,
    };
    let analysis = critical_path::analyse(model, &options);
    analysis.what_if.expect("asked for").speed_up()
}

#[test]
fn a_sequential_program_gains_nothing_from_more_workers() {
    let _serial = common::serial();
    for program in ["trace/serial_chain.mlir", "trace/nested_calls.mlir"] {
        for queue in QUEUES {
            let recording = common::record(program, queue);
            let model = Model::new(recording.clone());
            for workers in 1..=8 {
                let speed_up = what_if(&model, workers);
                assert!(
                    (speed_up - 1.0).abs() < 1e-9,
                    "{program} on {queue}, {workers} workers: ×{speed_up}"
                );
            }
        }
    }
}

/// A recording of one execution: kernel 1 publishes register 0, which
/// kernels 2 to K + 1 read, each running `each` ns, one after another on
/// one thread.
fn fan_out_recording(kernels: u32, each: u64) -> bef_trace::Recording {
    use bef_trace::capture::recording::*;
    let mut names = vec!["(arguments)".to_string(), "source".to_string()];
    names.extend((0..kernels).map(|_| "work".to_string()));
    let function = FunctionInfo {
        name: "fan_out".into(),
        kind: FunctionKind::Bef,
        kernels: names
            .into_iter()
            .map(|name| KernelInfo {
                name,
                ..Default::default()
            })
            .collect(),
        registers: vec![RegisterInfo {
            users: (2..kernels + 2).collect(),
        }],
        signature: String::new(),
    };
    let event = |time, kind| Event {
        time,
        execution: 1,
        kind,
    };
    let mut events = vec![
        event(
            0,
            EventKind::FunctionBegin {
                function: 0,
                caller: None,
            },
        ),
        event(0, EventKind::KernelReady { kernel: 1 }),
        event(0, EventKind::KernelStart { kernel: 1 }),
    ];
    let end = |kernel| EventKind::KernelEnd {
        kernel,
        skipped: false,
        live_values: None,
    };
    events.push(event(1_000, end(1)));
    events.push(event(
        1_000,
        EventKind::RegisterSet {
            register: 0,
            producer: 1,
            state: ValueState::Concrete,
            value: None,
        },
    ));
    for k in 2..kernels + 2 {
        events.push(event(1_000, EventKind::KernelReady { kernel: k }));
    }
    let mut time = 1_000;
    for k in 2..kernels + 2 {
        events.push(event(time, EventKind::KernelStart { kernel: k }));
        time += each;
        events.push(event(time, end(k)));
    }
    events.push(event(time, EventKind::FunctionEnd));
    Recording {
        header: Header::default(),
        functions: vec![function],
        threads: vec![ThreadTrack {
            name: "main".into(),
            events: events.into(),
            dropped: 0,
        }],
    }
}

/// The speed-up list scheduling gives `kernels` equal independent kernels
/// on `workers`: they run in rounds of `workers`.
fn rounds_speed_up(kernels: usize, workers: usize) -> f64 {
    kernels as f64 / kernels.div_ceil(workers) as f64
}

#[test]
fn a_fan_out_of_equal_kernels_gains_as_many_workers_as_it_has_kernels() {
    for kernels in [1u32, 4, 6] {
        let recording = fan_out_recording(kernels, 1_000_000);
        let model = Model::new(recording.clone());
        let width = kernels as usize;
        for workers in 1..=8 {
            let speed_up = what_if(&model, workers);
            let expected = rounds_speed_up(width, workers);
            // Where the rounds come out even, that is ×min(N, K).
            if workers.is_multiple_of(width) || width.is_multiple_of(workers) {
                assert_eq!(expected, workers.min(width) as f64);
            }
            assert!(
                (speed_up / expected - 1.0).abs() <= 0.01,
                "{kernels} kernels, {workers} workers: ×{speed_up:.3}, not ×{expected}"
            );
        }
    }
}

#[test]
fn a_path_held_up_by_work_off_it_waits_for_a_worker() {
    use bef_trace::capture::recording::EventKind;
    // Four 1 ms kernels after a 1 µs source on one thread, with no ready
    // events: the last of them, on the path, waits 3 ms for the others.
    let mut recording = fan_out_recording(4, 1_000_000);
    recording.threads[0]
        .events
        .retain(|e| !matches!(e.kind, EventKind::KernelReady { kernel } if kernel > 1));
    for (queue, waiting, becoming) in [("s", 3_000_000, 0), ("mstd:2", 0, 3_000_000)] {
        recording.header.work_queue = queue.into();
        let model = Model::new(recording.clone());
        let analysis = critical_path::analyse(&model, &CriticalOptions::default());
        let split = analysis.split;
        assert_eq!(analysis.length_ns, 4_001_000, "{queue}: {split:?}");
        assert_eq!(split.running_ns, 1_001_000, "{queue}: {split:?}");
        // One worker, busy with the other kernels: the path waited for it.
        // Two workers, one of them free: nothing but the path's own
        // readiness held it.
        assert_eq!(split.worker_wait_ns, waiting, "{queue}: {split:?}");
        assert_eq!(split.becoming_ready_ns, becoming, "{queue}: {split:?}");
    }
}

#[test]
fn threads_of_one_name_are_told_apart_in_every_export() {
    let mut recording = fan_out_recording(2, 1_000);
    let track = recording.threads[0].clone();
    recording.threads = ["pool", "pool", "pool (2)", "main"]
        .into_iter()
        .map(|name| bef_trace::capture::recording::ThreadTrack {
            name: name.into(),
            ..track.clone()
        })
        .collect();
    let model = Model::new(recording.clone());
    let labels: Vec<&str> = (0..4).map(|t| model.thread_label(t)).collect();
    assert_eq!(labels, ["pool", "pool (2)", "pool (2) (2)", "main"]);
    let s = stats::stats(&model);
    let names: Vec<&str> = s.threads.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, labels);
    let chrome: serde_json::Value =
        serde_json::from_str(&bef_trace::export::chrome::export(&model)).expect("JSON");
    let named: Vec<&str> = chrome["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "thread_name" && e["tid"].as_u64().unwrap() < 10_000)
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(named, labels);
}

#[test]
fn a_recorded_fan_out_gains_up_to_its_width() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/fan_out.mlir", queue);
        let model = Model::new(recording.clone());
        let products: Vec<u64> = (0..model.runs.len())
            .filter(|&r| model.kernel_name(r) == "tfrt_test.matmul.i32.2")
            .map(|r| model.runs[r].self_time)
            .collect();
        assert_eq!(products.len(), 4, "{queue}");
        // The products are equal work, but a shared machine times them
        // unequally, and the rest (constants, the executor's dispatch) is
        // replayed too: at worst the rest runs alone and the products in
        // rounds of the longest.
        let longest = *products.iter().max().unwrap();
        let all: u64 = products.iter().sum();
        for workers in [1, 2, 4, 8] {
            let options = CriticalOptions {
                what_if_workers: Some(workers),
                ..Default::default()
            };
            let w = critical_path::analyse(&model, &options).what_if.unwrap();
            let speed_up = w.speed_up();
            let ideal = workers.min(4) as f64;
            let rounds = 4u64.div_ceil(workers as u64);
            let worst = w.one_worker_ns.saturating_sub(all) + longest * rounds;
            let least = w.one_worker_ns as f64 / worst as f64;
            assert!(
                speed_up <= ideal * 1.1 && speed_up >= 0.9 * least,
                "{queue}, {workers} workers: ×{speed_up:.2}, ideal ×{ideal}, at least \
                 ×{least:.2}, products {products:?}"
            );
        }
    }
}

#[test]
fn blocking_sleeps_show_as_off_cpu_time() {
    use bef_trace::export::folded::Clock;
    let _serial = common::serial();
    let recording = common::record("trace/sleeps.mlir", "mstd:2");
    let model = Model::new(recording.clone());
    let fold = |clock| -> BTreeMap<String, u64> {
        let options = FoldOptions {
            clock,
            ..Default::default()
        };
        folded::fold(&model, &options).into_iter().collect()
    };
    let off = fold(Clock::OffCpu);
    let long = "sleeps;tfrt_test.blocking.usleep#3";
    let short = "sleeps;tfrt_test.blocking.usleep#4";
    // 50 ms and 1 ms of sleeping, off the CPU...
    assert!(off[long] >= 50_000_000, "{off:?}");
    assert!(off[short] >= 1_000_000, "{off:?}");
    // ...while the kernels themselves only hand the sleep to the pool.
    let cpu = fold(Clock::Cpu);
    assert!(cpu[long] < 10_000_000, "{cpu:?}");
    // Nothing else waits: constants and the merge are ready when they return.
    assert_eq!(off.len(), 2, "{off:?}");
    // The same split in the statistics.
    let s = stats::stats(&model);
    let sleep = s
        .kernels
        .iter()
        .find(|k| k.name == "tfrt_test.blocking.usleep")
        .expect("the sleeps' row");
    assert_eq!(sleep.off_cpu_ns, off[long] + off[short]);
    assert!(sleep.self_ns < 10_000_000, "{sleep:?}");
}

#[test]
fn tensor_kernels_report_the_work_their_shapes_define() {
    use bef_trace::analysis::model::Work;
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/tensor_work.mlir", queue);
        let model = Model::new(recording.clone());
        let work = |name: &str| {
            let runs: Vec<Option<Work>> = (0..model.runs.len())
                .filter(|&r| model.kernel_name(r) == name)
                .map(|r| model.work_of(r))
                .collect();
            assert_eq!(runs.len(), 1, "{queue}: {name}");
            runs[0]
        };
        let expected = |flops, bytes| Some(Work { flops, bytes });
        assert_eq!(work("tfrt_test.matmul.f32.2"), expected(24, 64), "{queue}");
        assert_eq!(work("tfrt_test.add.f32"), expected(0, 72), "{queue}");
        assert_eq!(
            work("tfrt_test.relu_inplace.f32"),
            expected(0, 48),
            "{queue}"
        );
        // Kernels whose shapes define no work report none.
        assert_eq!(work("tfrt.new.chain"), None, "{queue}");
        // Through the file too.
        let read = bef_trace::read(&bef_trace::write(&recording)).expect("reads back");
        assert_eq!(read, recording);
        // The statistics divide the work by the runs' time.
        let s = stats::stats(&model);
        let row = |name: &str| {
            s.throughput
                .iter()
                .find(|t| t.name == name)
                .unwrap_or_else(|| panic!("{queue}: no row for {name}"))
        };
        let product = row("tfrt_test.matmul.f32.2");
        assert_eq!((product.count, product.flops, product.bytes), (1, 24, 64));
        let gflops = product.gflops_per_s.expect("a product has operations");
        assert!(
            (gflops - 24.0 / product.time_ns as f64).abs() < 1e-12,
            "{queue}: {product:?}"
        );
        let add = row("tfrt_test.add.f32");
        assert_eq!(add.gflops_per_s, None, "{queue}");
        assert!((add.gbytes_per_s - 72.0 / add.time_ns as f64).abs() < 1e-12);
        assert_eq!(s.throughput.len(), 3, "{queue}: {:?}", s.throughput);
        let text = stats::to_text(&s);
        assert!(text.contains("GFLOP/s"), "{text}");
    }
}

#[test]
fn calls_nest_as_frames() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/nested_calls.mlir", queue);
        let model = Model::new(recording.clone());
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
        let model = Model::new(recording.clone());
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

#[test]
fn independent_errors_each_poison_only_their_own_readers() {
    let _serial = common::serial();
    for queue in QUEUES {
        let recording = common::record("trace/independent_errors.mlir", queue);
        let model = Model::new(recording.clone());
        let mut marks: Vec<(String, String, Option<ErrorMark>)> = (0..model.runs.len())
            .map(|r| {
                let function = model.recording.function_name(model.function_of(r));
                (function, model.frame(r), model.runs[r].error)
            })
            .collect();
        marks.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let expected: Vec<(String, String, Option<ErrorMark>)> = ["first", "second"]
            .into_iter()
            .flat_map(|f| {
                [
                    ("tfrt.add.i32#3", Some(ErrorMark::Poisoned)),
                    ("tfrt.add.i32#4", None),
                    ("tfrt.constant.i32#2", None),
                    ("tfrt_test.fail#1", Some(ErrorMark::Origin)),
                ]
                .map(|(frame, mark)| (f.to_string(), frame.to_string(), mark))
            })
            .collect();
        assert_eq!(marks, expected, "{queue}");
    }
}

/// What does not depend on timing: the stacks, how often each kernel ran,
/// the edges between kernels, the error marks.
fn structure(model: &Model) -> (BTreeMap<String, usize>, usize) {
    let mut stacks = BTreeMap::new();
    for r in 0..model.runs.len() {
        let chain: Vec<String> = model
            .call_chain(r)
            .into_iter()
            .map(|c| {
                format!(
                    "{};{}",
                    model.recording.function_name(model.function_of(c)),
                    bef_trace::analysis::model::presentation::kernel_frame(model, c)
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
        let (a, b) = (Model::new(single.clone()), Model::new(multi.clone()));
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
        let model = Model::new(recording.clone());
        let analysis = critical_path::analyse(&model, &CriticalOptions::default());
        let mut iterations: Vec<usize> = analysis
            .path
            .iter()
            .filter(|&&r| {
                model.recording.function_name(model.function_of(r))
                    == "fibonacci tfrt.repeat.i32#5 body"
            })
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
    use bef_trace::capture::recording::{EventKind, ValueState};
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

/// Records `fibonacci_repeat.mlir` keeping `keep` of at most `events`
/// events per thread.
fn fibonacci_keeping(
    keep: bef_trace::capture::recording::Keep,
    events: usize,
) -> bef_trace::Recording {
    common::record_keeping("mlir/fibonacci_repeat.mlir", keep, events)
}

#[test]
fn keeping_the_last_events_drops_the_start_and_every_analysis_still_works() {
    use bef_trace::capture::recording::{EventKind, Keep};
    let whole = fibonacci_keeping(Keep::First, 100_000);
    assert_eq!(whole.dropped(), 0);
    assert_eq!(whole.threads.len(), 1, "queue s runs on the calling thread");
    let total = whole.threads[0].events.len();
    assert!(total > 100, "{total} events");

    let last = fibonacci_keeping(Keep::Last, 40);
    assert_eq!(last.header.kept, Keep::Last);
    let events = &last.threads[0].events.to_vec();
    assert!(last.dropped() > 0);
    // The newest events are kept, the top-level function's end among them;
    // its begin, long dropped from the ring, is put back before them.
    assert!(matches!(
        events.last().map(|e| &e.kind),
        Some(EventKind::FunctionEnd)
    ));
    let top = &events[0];
    assert!(matches!(
        top.kind,
        EventKind::FunctionBegin { caller: None, .. }
    ));
    assert!(
        events[1..]
            .iter()
            .any(|e| e.execution == top.execution && e.kind == EventKind::FunctionEnd)
    );
    assert!(
        !events[1..]
            .iter()
            .any(|e| e.execution == top.execution
                && matches!(e.kind, EventKind::FunctionBegin { .. }))
    );
    // The begins put back, then at most the 40 newest entries.
    let put_back = events
        .iter()
        .take_while(|e| matches!(e.kind, EventKind::FunctionBegin { .. }))
        .count();
    let newest = events.len() - put_back;
    assert!((10..=40).contains(&newest), "{newest} of {}", events.len());
    assert!(events.windows(2).all(|w| w[0].time <= w[1].time));

    let first = fibonacci_keeping(Keep::First, 40);
    assert!(matches!(
        first.threads[0].events.first().map(|e| e.kind),
        Some(EventKind::FunctionBegin { caller: None, .. })
    ));

    // Through the file format, then every analysis, with the missing start
    // said.
    let read = bef_trace::read(&bef_trace::write(&last)).expect("reads");
    assert_eq!(read, last);
    let model = Model::new(read);
    let text = stats::to_text(&stats::stats(&model));
    assert!(text.contains("the earliest are missing"), "{text}");
    for clock in [
        folded::Clock::Cpu,
        folded::Clock::Wall,
        folded::Clock::OffCpu,
    ] {
        let lines = folded::fold(
            &model,
            &FoldOptions {
                clock,
                per_thread: false,
                time_order: false,
            },
        );
        // Kernels started within what was kept take CPU time; the other
        // clocks may find nothing to show of so short a window.
        let text = folded::to_text(&lines);
        assert!(clock != folded::Clock::Cpu || !text.is_empty());
    }
    let mut out = Vec::new();
    bef_trace::export::perfetto::Options
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("writes Perfetto");
    bef_trace::export::chrome::Options
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("writes Chrome JSON");
    let analysis = critical_path::analyse(
        &model,
        &CriticalOptions {
            what_if_workers: Some(2),
            speedups: Vec::new(),
            json: false,
        },
    );
    assert!(!bef_trace::export::critical_path::to_text(&model, &analysis).is_empty());
}

/// The recorded completion of run `run`'s result: its event's thread and
/// time.
fn recorded_completion(
    recording: &bef_trace::Recording,
    model: &Model,
    run: usize,
) -> (usize, u64) {
    let execution = model.executions[model.runs[run].execution].id;
    let found: Vec<(usize, u64)> = recording
        .threads
        .iter()
        .enumerate()
        .flat_map(|(thread, track)| track.events.iter().map(move |e| (thread, e)))
        .filter(|(_, e)| {
            e.execution == execution
                && matches!(e.kind, EventKind::ResultAvailable { producer, .. }
                    if producer == model.runs[run].kernel)
        })
        .map(|(thread, e)| (thread, e.time))
        .collect();
    assert_eq!(found.len(), 1, "one completion of {}", model.frame(run));
    found[0]
}

#[test]
fn results_completed_on_the_blocking_pool_are_recorded_there() {
    let _serial = common::serial();
    // Queues with a blocking pool of its own threads (the single-threaded
    // queue runs blocking work on the thread that waits).
    for queue in ["mstd:2", "mstd:1,2"] {
        let recording = common::record("trace/pool_results.mlir", queue);
        assert!(recording.header.completions_recorded, "{queue}");
        let model = Model::new(recording.clone());
        let in_function = |function: &str, frame: &str| {
            (0..model.runs.len())
                .find(|&r| {
                    model.recording.function_name(model.function_of(r)) == function
                        && model.frame(r) == frame
                })
                .unwrap_or_else(|| panic!("{queue}: no {frame} in @{function}"))
        };
        for function in ["read", "returned"] {
            let sleep = in_function(function, "tfrt_test.blocking.usleep#2");
            let (thread, time) = recorded_completion(&recording, &model, sleep);
            assert_eq!(
                recording.threads[thread].name, "bef-blocking",
                "{queue} @{function}: completed on the pool"
            );
            let run = &model.runs[sleep];
            assert!(
                time > run.end,
                "{queue} @{function}: after the kernel returned"
            );
            // The model takes the recorded completion: 20 ms off the CPU.
            assert_eq!(run.completed(), Some(time), "{queue} @{function}");
            assert!(
                run.off_cpu() >= 20_000_000,
                "{queue} @{function}: {}",
                run.off_cpu()
            );
            assert!(
                model
                    .async_completions
                    .iter()
                    .any(|c| c.run == sleep && c.thread == thread && c.time == time),
                "{queue} @{function}"
            );
            if function == "read" {
                let merge = &model.runs[in_function(function, "tfrt.merge.chains#3")];
                assert!(time < merge.start, "{queue}: before its reader started");
                assert_eq!(model.results_done(sleep), time, "{queue}");
            }
        }
        // A recording without the completion events (as format 6 wrote)
        // infers them from publications: the returned chain was published
        // at once, unavailable, so its wait goes unseen.
        let mut older = recording.clone();
        older.header.completions_recorded = false;
        for track in &mut older.threads {
            track
                .events
                .retain(|e| !matches!(e.kind, EventKind::ResultAvailable { .. }));
        }
        let older = Model::new(older);
        let returned = in_function("returned", "tfrt_test.blocking.usleep#2");
        assert_eq!(older.runs[returned].off_cpu(), 0, "{queue}");
        let read = in_function("read", "tfrt_test.blocking.usleep#2");
        assert!(older.runs[read].off_cpu() >= 20_000_000, "{queue}");
    }
}
