//! Perfetto protobuf traces: a process track, one track per thread and one
//! per kernel stream, a slice per kernel run (name, function, kernel index,
//! BEF offset, source location, execution as debug annotations), a flow per
//! producer → consumer edge, instants for async completions and the first
//! error, and counter tracks for the ready-queue depth and live async
//! values. Slice and annotation names are interned.

pub mod proto;

use std::collections::HashMap;

use prost::Message;

use crate::folded::kernel_frame;
use crate::model::{ErrorMark, Model};
use proto::*;

/// The one packet sequence the trace is written on.
const SEQUENCE: u32 = 1;
const PROCESS_UUID: u64 = 1;
const QUEUE_UUID: u64 = 2;
const LIVE_UUID: u64 = 3;
/// Thread `t` is track `THREAD_BASE + t`; streams follow the threads.
const THREAD_BASE: u64 = 100;
const PID: i32 = 1;

/// The annotation names, interned in this order (iid = position + 1).
const ANNOTATIONS: [&str; 8] = [
    "function",
    "kernel_index",
    "bef_offset",
    "location",
    "execution",
    "error",
    "register",
    "values",
];

/// The trace of `model`, serialized.
pub fn export(model: &Model<'_>) -> Vec<u8> {
    trace(model).encode_to_vec()
}

/// The trace of `model` as messages.
pub fn trace(model: &Model<'_>) -> Trace {
    let mut names = Interner::default();
    let mut packets = Vec::new();
    packets.push(TracePacket {
        trusted_packet_sequence_id: Some(SEQUENCE),
        track_descriptor: Some(TrackDescriptor {
            uuid: Some(PROCESS_UUID),
            process: Some(ProcessDescriptor {
                pid: Some(PID),
                process_name: Some(format!("bef-trace {}", model.recording.header.program_path)),
            }),
            ..Default::default()
        }),
        ..Default::default()
    });
    for (t, track) in model.recording.threads.iter().enumerate() {
        packets.push(descriptor(TrackDescriptor {
            uuid: Some(THREAD_BASE + t as u64),
            thread: Some(ThreadDescriptor {
                pid: Some(PID),
                tid: Some(t as i32 + 2),
                thread_name: Some(track.name.clone()),
            }),
            ..Default::default()
        }));
    }
    for (uuid, name) in [
        (QUEUE_UUID, "ready queue depth"),
        (LIVE_UUID, "live async values"),
    ] {
        packets.push(descriptor(TrackDescriptor {
            uuid: Some(uuid),
            name: Some(name.into()),
            parent_uuid: Some(PROCESS_UUID),
            counter: Some(CounterDescriptor {
                unit: Some(UNIT_COUNT),
            }),
            ..Default::default()
        }));
    }
    let streams = stream_lanes(model);
    let stream_base = THREAD_BASE + model.recording.threads.len() as u64;
    for (lane, name) in streams.names.iter().enumerate() {
        packets.push(descriptor(TrackDescriptor {
            uuid: Some(stream_base + lane as u64),
            name: Some(name.clone()),
            parent_uuid: Some(PROCESS_UUID),
            ..Default::default()
        }));
    }

    // Flow ids: one per edge, numbered from 1.
    let mut outgoing: HashMap<usize, Vec<u64>> = HashMap::new();
    let mut incoming: HashMap<usize, Vec<u64>> = HashMap::new();
    for (i, edge) in model.edges.iter().enumerate() {
        outgoing.entry(edge.from).or_default().push(i as u64 + 1);
        incoming.entry(edge.to).or_default().push(i as u64 + 1);
    }

    // Timed events, merged by time (stable: each thread keeps its order).
    let mut timed: Vec<(u64, TrackEvent)> = Vec::new();
    for (t, brackets) in model.brackets.iter().enumerate() {
        let track = THREAD_BASE + t as u64;
        for &(time, open, run) in brackets {
            let event = if open {
                let mut e = slice_begin(model, run, track, &mut names);
                e.flow_ids = outgoing.get(&run).cloned().unwrap_or_default();
                e.terminating_flow_ids = incoming.get(&run).cloned().unwrap_or_default();
                e
            } else {
                slice_end(track)
            };
            timed.push((time, event));
        }
    }
    // Each lane's slices follow one another; pushed lane by lane, in
    // order, the stable sort below keeps them so.
    for (lane, runs) in streams.runs.iter().enumerate() {
        let track = stream_base + lane as u64;
        for &run in runs {
            let r = &model.runs[run];
            timed.push((r.start, slice_begin(model, run, track, &mut names)));
            timed.push((r.end, slice_end(track)));
        }
    }
    for c in &model.async_completions {
        let mut e = instant(
            THREAD_BASE + c.thread as u64,
            names.event(&format!("async completion: {}", model.frame(c.run))),
        );
        e.debug_annotations.push(uint(7, c.register.into()));
        timed.push((c.time, e));
    }
    if let Some(error) = &model.first_error {
        let thread = error.run.map_or(0, |r| model.runs[r].thread);
        let mut e = instant(THREAD_BASE + thread as u64, names.event("first error"));
        if let Some(message) = &error.message {
            e.debug_annotations.push(string(6, message.clone()));
        }
        timed.push((error.time, e));
    }
    for &(time, depth) in &model.queue_depth {
        timed.push((time, counter(QUEUE_UUID, depth)));
    }
    for &(time, live) in &model.live_values {
        timed.push((time, counter(LIVE_UUID, live)));
    }
    timed.sort_by_key(|t| t.0);

    let mut interned = InternedData {
        event_names: Vec::new(),
        debug_annotation_names: ANNOTATIONS
            .iter()
            .enumerate()
            .map(|(i, n)| DebugAnnotationName {
                iid: Some(i as u64 + 1),
                name: Some((*n).into()),
            })
            .collect(),
    };
    interned.event_names = names
        .order
        .iter()
        .enumerate()
        .map(|(i, n)| EventName {
            iid: Some(i as u64 + 1),
            name: Some(n.clone()),
        })
        .collect();
    // The interning tables come first on the sequence, which they reset.
    packets.push(TracePacket {
        timestamp: Some(timed.first().map_or(0, |t| t.0)),
        trusted_packet_sequence_id: Some(SEQUENCE),
        interned_data: Some(interned),
        sequence_flags: Some(SEQ_INCREMENTAL_STATE_CLEARED),
        ..Default::default()
    });
    for (time, event) in timed {
        packets.push(TracePacket {
            timestamp: Some(time),
            trusted_packet_sequence_id: Some(SEQUENCE),
            track_event: Some(event),
            sequence_flags: Some(SEQ_NEEDS_INCREMENTAL_STATE),
            ..Default::default()
        });
    }
    Trace { packet: packets }
}

fn descriptor(track: TrackDescriptor) -> TracePacket {
    TracePacket {
        trusted_packet_sequence_id: Some(SEQUENCE),
        track_descriptor: Some(track),
        ..Default::default()
    }
}

fn uint(name: u64, value: u64) -> DebugAnnotation {
    DebugAnnotation {
        name_iid: Some(name),
        uint_value: Some(value),
        string_value: None,
    }
}

fn string(name: u64, value: String) -> DebugAnnotation {
    DebugAnnotation {
        name_iid: Some(name),
        uint_value: None,
        string_value: Some(value),
    }
}

fn slice_begin(model: &Model<'_>, run: usize, track: u64, names: &mut Interner) -> TrackEvent {
    let r = &model.runs[run];
    let function = model.recording.function_name(model.function_of(run));
    let mut annotations = vec![string(1, function), uint(2, r.kernel.into())];
    if let Some(info) = model.kernel_info(run) {
        annotations.push(uint(3, info.bef_offset));
        if !info.location.is_empty() {
            annotations.push(string(4, info.location.clone()));
        }
    }
    annotations.push(uint(5, model.executions[r.execution].id));
    let values = model.values_text(run);
    if !values.is_empty() {
        annotations.push(string(8, values));
    }
    match r.error {
        Some(ErrorMark::Origin) => annotations.push(string(6, "first error".into())),
        Some(ErrorMark::Poisoned) => annotations.push(string(6, "poisoned".into())),
        None => {}
    }
    TrackEvent {
        r#type: Some(TYPE_SLICE_BEGIN),
        track_uuid: Some(track),
        name_iid: Some(names.event(&kernel_frame(model, run))),
        categories: vec!["kernel".into()],
        debug_annotations: annotations,
        ..Default::default()
    }
}

fn slice_end(track: u64) -> TrackEvent {
    TrackEvent {
        r#type: Some(TYPE_SLICE_END),
        track_uuid: Some(track),
        ..Default::default()
    }
}

fn instant(track: u64, name_iid: u64) -> TrackEvent {
    TrackEvent {
        r#type: Some(TYPE_INSTANT),
        track_uuid: Some(track),
        name_iid: Some(name_iid),
        ..Default::default()
    }
}

fn counter(track: u64, value: u64) -> TrackEvent {
    TrackEvent {
        r#type: Some(TYPE_COUNTER),
        track_uuid: Some(track),
        counter_value: Some(value.min(i64::MAX as u64) as i64),
        ..Default::default()
    }
}

/// Event names by iid (position + 1).
#[derive(Default)]
struct Interner {
    ids: HashMap<String, u64>,
    order: Vec<String>,
}

impl Interner {
    fn event(&mut self, name: &str) -> u64 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        self.order.push(name.to_string());
        let id = self.order.len() as u64;
        self.ids.insert(name.to_string(), id);
        id
    }
}

/// Stream tracks: runs grouped by (function, stream id), each group laid
/// on as few lanes as keep its slices apart (executions of one function
/// can run at once, on several threads).
pub struct StreamLanes {
    /// Lane names, by lane.
    pub names: Vec<String>,
    /// Each lane's runs, in time order, none overlapping the next.
    pub runs: Vec<Vec<usize>>,
}

/// See [`StreamLanes`].
pub fn stream_lanes(model: &Model<'_>) -> StreamLanes {
    let mut order: Vec<usize> = (0..model.runs.len()).collect();
    order.sort_by_key(|&r| (model.runs[r].start, model.runs[r].end));
    // (function, stream) → its lanes as (lane, end of the last slice).
    let mut groups: HashMap<(u32, u64), Vec<(usize, u64)>> = HashMap::new();
    let mut lanes = StreamLanes {
        names: Vec::new(),
        runs: Vec::new(),
    };
    for run in order {
        let r = &model.runs[run];
        let key = (model.function_of(run), model.stream_of(run));
        let group = groups.entry(key).or_default();
        match group.iter_mut().find(|(_, end)| *end <= r.start) {
            Some((lane, end)) => {
                *end = r.end;
                lanes.runs[*lane].push(run);
            }
            None => {
                let n = group.len();
                lanes.names.push(format!(
                    "{} stream {}{}",
                    model.recording.function_name(key.0),
                    key.1,
                    if n == 0 {
                        String::new()
                    } else {
                        format!(" ({})", n + 1)
                    }
                ));
                group.push((lanes.runs.len(), r.end));
                lanes.runs.push(vec![run]);
            }
        }
    }
    lanes
}
