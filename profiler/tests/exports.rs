//! The exports, checked by readers that are not ours: the Perfetto trace
//! decoded with Perfetto's own schema (the `perfetto_protos` crate, which
//! generates its messages from Perfetto's .proto files), the Chrome JSON
//! against the Trace Event rules, the SVG by an XML parser, and folded
//! stacks re-read by inferno.

mod common;

use std::collections::{HashMap, HashSet};

use bef_trace::Model;
use bef_trace::export::Export;
use bef_trace::export::flamegraph::{self, FlameOptions};
use bef_trace::export::folded::{self, Clock, FoldOptions};
use bef_trace::export::{chrome, perfetto};
use bef_trace::progress::Progress;
use perfetto_protos::trace::Trace;
use perfetto_protos::track_event::track_event::Type;
use protobuf::Message;
use quick_xml::events::Event as Xml;
use serde_json::Value;

fn decode(bytes: &[u8]) -> Trace {
    Trace::parse_from_bytes(bytes).expect("Perfetto's schema decodes the trace")
}

/// A slice's name and its annotations (name → value).
type Slice = (String, HashMap<String, String>);

/// What a Perfetto trace holds, gathered through Perfetto's schema.
#[derive(Default)]
struct Seen {
    thread_tracks: HashMap<u64, String>,
    counter_tracks: HashMap<u64, String>,
    named_tracks: HashMap<u64, String>,
    event_names: HashMap<u64, String>,
    annotation_names: HashMap<u64, String>,
    /// Per track: `(name, annotations name → value)` of each slice begun.
    slices: HashMap<u64, Vec<Slice>>,
    instants: Vec<String>,
    counters: HashMap<u64, usize>,
    flows_out: Vec<u64>,
    flows_in: Vec<u64>,
    /// Per flow id, the slices (on any track) that carry it.
    flow_slices: HashMap<u64, usize>,
}

fn gather(trace: &Trace) -> Seen {
    let mut seen = Seen::default();
    let mut depth: HashMap<u64, i64> = HashMap::new();
    let mut last_time = 0;
    let mut cleared = false;
    for packet in &trace.packet {
        if packet.has_track_descriptor() {
            let d = packet.track_descriptor();
            if d.thread.is_some() {
                seen.thread_tracks
                    .insert(d.uuid(), d.thread.thread_name().to_string());
            } else if d.counter.is_some() {
                seen.counter_tracks.insert(d.uuid(), d.name().to_string());
            } else if d.has_name() {
                seen.named_tracks.insert(d.uuid(), d.name().to_string());
            }
        }
        if let Some(interned) = packet.interned_data.as_ref() {
            assert_eq!(
                packet.sequence_flags() & 1,
                1,
                "interning resets the sequence"
            );
            cleared = true;
            for n in &interned.event_names {
                seen.event_names.insert(n.iid(), n.name().to_string());
            }
            for n in &interned.debug_annotation_names {
                seen.annotation_names.insert(n.iid(), n.name().to_string());
            }
        }
        if !packet.has_track_event() {
            continue;
        }
        assert!(cleared, "an event before the interning tables");
        assert!(packet.timestamp() >= last_time, "packets in time order");
        last_time = packet.timestamp();
        let e = packet.track_event();
        let track = e.track_uuid();
        let name = || seen.event_names[&e.name_iid()].clone();
        match e.type_() {
            Type::TYPE_SLICE_BEGIN => {
                *depth.entry(track).or_default() += 1;
                let annotations = e
                    .debug_annotations
                    .iter()
                    .map(|a| {
                        let value = if a.has_string_value() {
                            a.string_value().to_string()
                        } else {
                            a.uint_value().to_string()
                        };
                        (seen.annotation_names[&a.name_iid()].clone(), value)
                    })
                    .collect();
                let slice = (name(), annotations);
                seen.slices.entry(track).or_default().push(slice);
                seen.flows_out.extend(&e.flow_ids);
                seen.flows_in.extend(&e.terminating_flow_ids);
                for &id in e.flow_ids.iter().chain(&e.terminating_flow_ids) {
                    *seen.flow_slices.entry(id).or_default() += 1;
                }
            }
            Type::TYPE_SLICE_END => {
                let d = depth.entry(track).or_default();
                *d -= 1;
                assert!(*d >= 0, "a slice ends that never began on track {track}");
            }
            Type::TYPE_INSTANT => seen.instants.push(name()),
            Type::TYPE_COUNTER => *seen.counters.entry(track).or_default() += 1,
            other => panic!("unexpected event type {other:?}"),
        }
    }
    assert!(
        depth.values().all(|&d| d == 0),
        "slices left open: {depth:?}"
    );
    seen
}

#[test]
fn perfetto_trace_decodes_with_perfettos_schema() {
    let _serial = common::serial();
    let recording = common::record("trace/serial_chain.mlir", "mstd:2");
    let model = Model::new(recording.clone());
    let seen = gather(&decode(&perfetto::export(&model)));

    let names: HashSet<&String> = seen.thread_tracks.values().collect();
    let expected: HashSet<&String> = recording.threads.iter().map(|t| &t.name).collect();
    assert_eq!(names, expected, "a track per thread");
    let counters: HashSet<&str> = seen.counter_tracks.values().map(String::as_str).collect();
    assert_eq!(
        counters,
        HashSet::from(["ready queue depth", "live async values"])
    );
    assert!(
        seen.named_tracks
            .values()
            .any(|n| n == "chain stream 0" || n.starts_with("chain stream")),
        "a track per stream: {:?}",
        seen.named_tracks
    );

    // One slice per kernel run on the thread tracks, annotated.
    let thread_slices: Vec<_> = seen
        .slices
        .iter()
        .filter(|(t, _)| seen.thread_tracks.contains_key(t))
        .flat_map(|(_, s)| s)
        .collect();
    assert_eq!(thread_slices.len(), 9);
    let mut frames: Vec<&str> = thread_slices.iter().map(|s| s.0.as_str()).collect();
    frames.sort();
    let mut expected: Vec<String> = (2..=9).map(|k| format!("tfrt.add.i32#{k}")).collect();
    expected.push("tfrt.constant.i32#1".into());
    expected.sort();
    assert_eq!(frames, expected);
    for (name, a) in &thread_slices {
        assert_eq!(a["function"], "chain", "{name}");
        assert_eq!(
            format!("#{}", a["kernel_index"]),
            name[name.find('#').unwrap()..]
        );
        assert!(a["bef_offset"].parse::<u64>().unwrap() > 0, "{name}");
        assert!(a["location"].contains("serial_chain.mlir"), "{name}: {a:?}");
    }
    // The same slices on the stream tracks.
    let stream_slices: usize = seen
        .slices
        .iter()
        .filter(|(t, _)| seen.named_tracks.contains_key(t))
        .map(|(_, s)| s.len())
        .sum();
    assert_eq!(stream_slices, 9);

    // A flow per edge: each id leaves one slice and ends at one.
    let mut out = seen.flows_out.clone();
    let mut into = seen.flows_in.clone();
    out.sort();
    into.sort();
    assert_eq!(out.len(), 8, "the chain's eight edges");
    assert_eq!(out, into);
    assert_eq!(
        out.iter().collect::<HashSet<_>>().len(),
        8,
        "one id per edge"
    );
    // On exactly two slices each: the copies on the stream tracks carry
    // none, or Perfetto would chain them into a zig-zag.
    assert!(
        seen.flow_slices.values().all(|&n| n == 2),
        "{:?}",
        seen.flow_slices
    );

    // Counters.
    let queue = seen
        .counter_tracks
        .iter()
        .find(|(_, n)| *n == "ready queue depth")
        .map(|(u, _)| *u)
        .unwrap();
    assert!(seen.counters[&queue] > 0);
    let live = seen
        .counter_tracks
        .iter()
        .find(|(_, n)| *n == "live async values")
        .map(|(u, _)| *u)
        .unwrap();
    // Sampled at kernel ends: at least the first on each thread.
    assert!(seen.counters[&live] >= 1);
    assert_eq!(seen.counters[&live], model.live_values.len());
}

#[test]
fn perfetto_marks_errors() {
    let _serial = common::serial();
    let recording = common::record("trace/errors.mlir", "s");
    let seen = gather(&decode(&perfetto::export(&Model::new(recording.clone()))));
    let marks: HashMap<&str, &str> = seen
        .slices
        .values()
        .flatten()
        .filter_map(|(name, a)| Some((name.as_str(), a.get("error")?.as_str())))
        .collect();
    assert_eq!(marks["tfrt_test.fail#1 [error]"], "origin");
    assert_eq!(marks["tfrt.add.i32#3 [poisoned]"], "poisoned");
    assert_eq!(marks["tfrt.add.i32#4 [poisoned]"], "poisoned");
    assert_eq!(marks.len(), 3);
    assert!(seen.instants.iter().any(|i| i == "first error"));
}

#[test]
fn every_perfetto_flow_joins_two_slices() {
    let _serial = common::serial();
    for program in [
        "trace/nested_calls.mlir",
        "trace/sleeps.mlir",
        "mlir/fibonacci_repeat.mlir",
        "conformance/call_nested.mlir",
    ] {
        for queue in ["s", "mstd:2"] {
            let recording = common::record(program, queue);
            let model = Model::new(recording.clone());
            let seen = gather(&decode(&perfetto::export(&model)));
            assert_eq!(seen.flow_slices.len(), model.edges.len(), "{program}");
            assert!(
                seen.flow_slices.values().all(|&n| n == 2),
                "{program} on {queue}: {:?}",
                seen.flow_slices
            );
            let mut out = seen.flows_out.clone();
            let mut into = seen.flows_in.clone();
            out.sort();
            into.sort();
            assert_eq!(out, into, "{program} on {queue}: each flow begins and ends");
        }
    }
}

/// Checks the Trace Event rules on a Chrome JSON trace; returns the `X`
/// kernel slices on thread tids.
fn check_chrome(trace: &Value) -> Vec<Value> {
    let events = trace["traceEvents"].as_array().expect("traceEvents");
    let mut named_tids = HashSet::new();
    let mut by_tid: HashMap<u64, Vec<&Value>> = HashMap::new();
    let mut flows: HashMap<String, (usize, usize)> = HashMap::new();
    for e in events {
        let ph = e["ph"].as_str().expect("ph");
        assert!(e["pid"].is_u64(), "{e}");
        match ph {
            "M" => {
                if e["name"] == "thread_name" {
                    named_tids.insert(e["tid"].as_u64().unwrap());
                }
            }
            "X" => {
                assert!(e["ts"].as_f64().is_some() && e["dur"].as_f64().unwrap() >= 0.0);
                by_tid
                    .entry(e["tid"].as_u64().unwrap())
                    .or_default()
                    .push(e);
                if let Some(id) = e["bind_id"].as_str() {
                    let f = flows.entry(id.to_string()).or_default();
                    if e["flow_out"] == true {
                        f.0 += 1;
                    }
                    if e["flow_in"] == true {
                        f.1 += 1;
                    }
                }
            }
            "C" => assert!(
                e["args"]
                    .as_object()
                    .unwrap()
                    .values()
                    .all(Value::is_number)
            ),
            "i" => assert!(e["ts"].is_f64() || e["ts"].is_u64()),
            other => panic!("unexpected phase {other}"),
        }
    }
    // Slices on one thread nest: sorted by start (longer first), each lies
    // within the enclosing one (to a rounding of the µs floats).
    const EPS: f64 = 1e-3;
    for (tid, slices) in &mut by_tid {
        assert!(named_tids.contains(tid), "tid {tid} has no thread_name");
        slices.sort_by(|a, b| {
            let (ta, tb) = (a["ts"].as_f64().unwrap(), b["ts"].as_f64().unwrap());
            ta.partial_cmp(&tb).unwrap().then(
                b["dur"]
                    .as_f64()
                    .unwrap()
                    .partial_cmp(&a["dur"].as_f64().unwrap())
                    .unwrap(),
            )
        });
        let mut open: Vec<f64> = Vec::new();
        for s in slices.iter() {
            let (ts, end) = (
                s["ts"].as_f64().unwrap(),
                s["ts"].as_f64().unwrap() + s["dur"].as_f64().unwrap(),
            );
            while open.last().is_some_and(|&e| e <= ts + EPS) {
                open.pop();
            }
            if let Some(&enclosing) = open.last() {
                assert!(end <= enclosing + EPS, "tid {tid}: {s} overlaps its parent");
            }
            open.push(end);
        }
    }
    for (id, (out, into)) in &flows {
        assert_eq!((*out, *into), (1, 1), "flow {id} is not one arrow");
    }
    by_tid
        .values()
        .flatten()
        .filter(|e| e["cat"] == "kernel" && e["tid"].as_u64().unwrap() < 10_000)
        .map(|e| (*e).clone())
        .collect()
}

#[test]
fn chrome_json_keeps_the_trace_event_rules() {
    let _serial = common::serial();
    for (program, queue, edges) in [
        ("trace/serial_chain.mlir", "s", Some(8)),
        ("trace/nested_calls.mlir", "mstd:2", None),
        ("mlir/fibonacci_repeat.mlir", "mstd:2", None),
    ] {
        let recording = common::record(program, queue);
        let model = Model::new(recording.clone());
        let trace: Value = serde_json::from_str(&chrome::export(&model)).expect("JSON");
        let slices = check_chrome(&trace);
        assert_eq!(slices.len(), model.runs.len(), "{program}");
        // Microseconds: each slice starts at its run's start in ns / 1000.
        let starts: HashSet<u64> = model.runs.iter().map(|r| r.start).collect();
        for s in &slices {
            let ns = (s["ts"].as_f64().unwrap() * 1000.0).round() as u64;
            assert!(
                starts.contains(&ns),
                "{program}: {s} is not at a run's start"
            );
        }
        let flows = trace["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["flow_out"] == true)
            .count();
        assert_eq!(flows, model.edges.len(), "{program}");
        if let Some(edges) = edges {
            assert_eq!(flows, edges);
        }
    }
}

/// Every `<title>` of an SVG, checking it is well-formed XML.
fn svg_titles(svg: &[u8]) -> Vec<String> {
    let mut reader = quick_xml::Reader::from_reader(svg);
    let mut titles = Vec::new();
    let mut in_title = false;
    let mut buf = Vec::new();
    let mut depth = 0i64;
    loop {
        match reader.read_event_into(&mut buf).expect("well-formed XML") {
            Xml::Start(e) => {
                depth += 1;
                in_title = e.name().as_ref() == b"title";
            }
            Xml::End(_) => {
                depth -= 1;
                in_title = false;
            }
            Xml::Text(t) if in_title => titles.push(t.decode().unwrap().into_owned()),
            Xml::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    assert_eq!(depth, 0, "every element closed");
    titles
}

/// The count of the `all` frame's title (`all (1,234 ns, 100%)`).
fn all_total(titles: &[String]) -> u64 {
    let all = titles
        .iter()
        .find(|t| t.starts_with("all ("))
        .unwrap_or_else(|| panic!("no 'all' frame: {titles:?}"));
    all["all (".len()..]
        .split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn flame_graphs_are_valid_svg_with_the_right_totals() {
    let _serial = common::serial();
    let recording = common::record("trace/nested_calls.mlir", "mstd:2");
    let model = Model::new(recording.clone());
    let busy: u64 = model.segments.iter().map(|s| s.end - s.start).sum();
    let mut svg = Vec::new();
    FlameOptions::default()
        .write(&model, &mut svg, Progress::HIDDEN)
        .unwrap();
    let titles = svg_titles(&svg);
    assert_eq!(all_total(&titles), busy);
    let leaf_add = titles
        .iter()
        .find(|t| t.starts_with("tfrt.add.i32#1 ("))
        .expect("the leaf's add has a frame");
    let leaf_time: u64 = model
        .runs
        .iter()
        .enumerate()
        .filter(|(r, _)| model.frame(*r) == "tfrt.add.i32#1")
        .map(|(_, run)| run.self_time)
        .sum();
    let shown: u64 = leaf_add["tfrt.add.i32#1 (".len()..]
        .split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    assert_eq!(shown, leaf_time);

    // Every variant draws.
    for (clock, per_thread, time_order, inverted) in [
        (Clock::Cpu, true, false, false),
        (Clock::Wall, false, false, false),
        (Clock::Wall, true, true, false),
        (Clock::Cpu, false, true, true),
    ] {
        let options = FlameOptions {
            fold: FoldOptions {
                clock,
                per_thread,
                time_order,
            },
            inverted,
            title: "variant".into(),
        };
        let mut svg = Vec::new();
        options.write(&model, &mut svg, Progress::HIDDEN).unwrap();
        let titles = svg_titles(&svg);
        let lanes = if per_thread {
            recording.threads.len() as u64
        } else {
            1
        };
        let expected = match clock {
            Clock::Cpu => busy,
            Clock::Wall => (model.span.1 - model.span.0) * lanes,
            Clock::OffCpu => model.runs.iter().map(|r| r.off_cpu()).sum(),
        };
        assert_eq!(
            all_total(&titles),
            expected,
            "{clock:?} {per_thread} {time_order}"
        );
    }
}

#[test]
fn folded_stacks_reread_by_inferno_keep_their_totals() {
    let _serial = common::serial();
    let recording = common::record("mlir/fibonacci_repeat.mlir", "mstd:2");
    let model = Model::new(recording.clone());
    for options in [
        FoldOptions::default(),
        FoldOptions {
            clock: Clock::Wall,
            per_thread: true,
            time_order: false,
        },
    ] {
        let lines = folded::fold(&model, &options);
        let total: u64 = lines.iter().map(|l| l.1).sum();
        let text = folded::to_text(&lines);
        let mut svg = Vec::new();
        let mut opt = inferno::flamegraph::Options::default();
        inferno::flamegraph::from_reader(&mut opt, text.as_bytes(), &mut svg).unwrap();
        let titles = svg_titles(&svg);
        assert_eq!(all_total(&titles), total, "{options:?}");
        // Each stack's own frame shows its count (stacks are distinct).
        for (stack, n) in &lines {
            let leaf = stack.rsplit(';').next().unwrap();
            assert!(
                titles.iter().any(|t| t.starts_with(&format!("{leaf} ("))),
                "{leaf} ({n}) has no frame"
            );
        }
    }
}

#[test]
fn differential_flame_graph_matches_kernels_by_function_and_index() {
    let _serial = common::serial();
    let a = common::record("trace/branches.mlir", "s");
    let b = common::record("trace/branches.mlir", "mstd:2");
    let (ma, mb) = (Model::new(a.clone()), Model::new(b.clone()));
    let folded = flamegraph::diff_folded(&ma, &mb).unwrap();
    // Every kernel appears once, with both counts: the same frames.
    let mut stacks = 0;
    for line in folded.lines() {
        let parts: Vec<&str> = line.rsplitn(3, ' ').collect();
        assert_eq!(parts.len(), 3, "{line}");
        let (after, before): (u64, u64) = (parts[0].parse().unwrap(), parts[1].parse().unwrap());
        assert!(after > 0 || before > 0, "{line}");
        stacks += 1;
    }
    assert_eq!(stacks, 204, "203 kernels and the join, each its own frame");
    // Normalised: the before column sums to the after total (± rounding).
    let sums = folded.lines().fold((0u64, 0u64), |acc, line| {
        let parts: Vec<&str> = line.rsplitn(3, ' ').collect();
        (
            acc.0 + parts[1].parse::<u64>().unwrap(),
            acc.1 + parts[0].parse::<u64>().unwrap(),
        )
    });
    assert!(sums.0.abs_diff(sums.1) <= stacks, "{sums:?}");
    let mut svg = Vec::new();
    let names = ("before.beftrace", "after.beftrace");
    flamegraph::write_diff_svg(&ma, &mb, names, &mut svg).unwrap();
    assert!(!svg_titles(&svg).is_empty());
    // The title names the program and both recordings; a legend says
    // what the colours mean.
    let text = String::from_utf8(svg).unwrap();
    assert!(
        text.contains("branches.mlir: after.beftrace against before.beftrace"),
        "no title naming both recordings"
    );
    assert!(text.contains("red: more time than in before.beftrace, blue: less"));
}

#[test]
fn flame_graph_titles_name_the_program_clock_and_unit() {
    let _serial = common::serial();
    let recording = common::record("trace/sleeps.mlir", "mstd:2");
    let model = Model::new(recording.clone());
    for (clock, what) in [
        (Clock::Cpu, "flame graph of CPU time in kernels, in ns"),
        (Clock::Wall, "flame graph of wall-clock time, in ns"),
        (Clock::OffCpu, "flame graph of off-CPU time"),
    ] {
        let options = FlameOptions {
            fold: FoldOptions {
                clock,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut svg = Vec::new();
        options.write(&model, &mut svg, Progress::HIDDEN).unwrap();
        let text = String::from_utf8(svg).unwrap();
        assert!(text.contains(&format!("sleeps.mlir: {what}")), "{clock:?}");
    }
}

#[test]
fn recorded_values_appear_on_their_kernels() {
    let _serial = common::serial();
    let options = bef_trace::RecordOptions {
        recorder: bef_trace::RecorderOptions {
            values: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let path = common::corpus_path("trace/serial_chain.mlir");
    let (recording, _) = bef_trace::record_file(&path, &options, |_| {}).unwrap();
    assert!(recording.header.values);
    let seen = gather(&decode(&perfetto::export(&Model::new(recording.clone()))));
    let values: HashMap<&str, &str> = seen
        .slices
        .values()
        .flatten()
        .filter_map(|(name, a)| Some((name.as_str(), a.get("values")?.as_str())))
        .collect();
    // 1, 2, 4, ... 256: each add doubles the one before.
    assert_eq!(values["tfrt.constant.i32#1"], "r0 = 1");
    assert_eq!(values["tfrt.add.i32#9"], "r8 = 256");
}

#[test]
fn exports_are_the_same_once_the_events_are_released() {
    use bef_trace::analysis::critical_path::CriticalOptions;
    use bef_trace::export::stats;
    let recording = common::record("trace/fan_out.mlir", "mstd:2");
    let exports: [Box<dyn Export>; 6] = [
        Box::new(FoldOptions::default()),
        Box::new(FlameOptions::default()),
        Box::new(perfetto::Options),
        Box::new(chrome::Options),
        Box::new(stats::Options { json: true }),
        Box::new(CriticalOptions {
            what_if_workers: Some(2),
            ..CriticalOptions::default()
        }),
    ];
    let written = |model: &Model| -> Vec<Vec<u8>> {
        exports
            .iter()
            .map(|e| {
                let mut out = Vec::new();
                e.write(model, &mut out, Progress::HIDDEN).expect("writes");
                out
            })
            .collect()
    };
    let mut model = Model::new(recording.clone());
    let before = written(&model);
    assert!(
        model.release_events(),
        "the model holds the recording alone"
    );
    assert_eq!(model.recording.event_count(), 0);
    assert_eq!(model.event_count(), recording.event_count());
    assert_eq!(written(&model), before);
    // A model sharing its recording keeps the events.
    let shared = std::sync::Arc::new(recording);
    let mut model = Model::new(std::sync::Arc::clone(&shared));
    assert!(!model.release_events());
    assert_eq!(model.recording.event_count(), shared.event_count());
}
