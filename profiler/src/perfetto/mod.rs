//! Perfetto protobuf traces: a process track, one track per thread and one
//! per kernel stream, a slice per kernel run (name, function, kernel index,
//! BEF offset, source location, execution as debug annotations), a flow per
//! producer → consumer edge between the slices on the thread tracks (the
//! stream tracks' copies carry none), instants for async completions and the first
//! error, and counter tracks for the ready-queue depth and live async
//! values. Slice and annotation names are interned.

pub mod proto;

use std::collections::HashMap;
use std::io::{self, Write};

use prost::Message;

use crate::display;
use crate::model::Model;
use crate::model::presentation::{
    self, Annotation, ArgValue, FIRST_ERROR, LIVE_VALUES, PID, QUEUE_DEPTH, kernel_frame,
    stream_lanes, thread_tid,
};
use crate::progress::Progress;
use proto::*;

/// The one packet sequence the trace is written on.
const SEQUENCE: u32 = 1;
const PROCESS_UUID: u64 = 1;
const QUEUE_UUID: u64 = 2;
const LIVE_UUID: u64 = 3;
/// Thread `t` is track `THREAD_BASE + t`; streams follow the threads.
const THREAD_BASE: u64 = 100;

/// How the trace is written.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Show progress on standard error (see [`crate::progress`]).
    pub progress: bool,
}

/// The trace of `model`, serialized.
pub fn export(model: &Model) -> Vec<u8> {
    let mut out = Vec::new();
    write(model, &Options::default(), &mut out).expect("writing to memory cannot fail");
    out
}

/// One event of the timeline, before it is built: the events are sorted by
/// time, and each is built and written only when its turn comes, so the
/// memory an export takes is that of the model.
#[derive(Clone, Copy)]
enum Timed {
    /// A kernel run's slice opens on `track`; with `flows`, it carries the
    /// run's flows (only the copy on its thread's track does: a flow id on
    /// two slices of one end would chain them).
    Begin { run: usize, track: u64, flows: bool },
    /// The slice open on `track` closes.
    End { track: u64 },
    /// `model.async_completions[i]`.
    Completion(usize),
    /// The first error.
    FirstError,
    /// A counter's value.
    Counter { track: u64, value: u64 },
}

/// Writes the trace of `model` (a `Trace` message: packets one after the
/// other) to `out`.
pub fn write(model: &Model, options: &Options, mut out: impl Write) -> io::Result<()> {
    let mut packets = Packets { out: &mut out };
    packets.push(&TracePacket {
        trusted_packet_sequence_id: Some(SEQUENCE),
        track_descriptor: Some(TrackDescriptor {
            uuid: Some(PROCESS_UUID),
            process: Some(ProcessDescriptor {
                pid: Some(PID as i32),
                process_name: Some(presentation::process_name(model)),
            }),
            ..Default::default()
        }),
        ..Default::default()
    })?;
    for t in 0..model.recording.threads.len() {
        packets.push(&descriptor(TrackDescriptor {
            uuid: Some(THREAD_BASE + t as u64),
            thread: Some(ThreadDescriptor {
                pid: Some(PID as i32),
                tid: Some(i32::try_from(thread_tid(t)).unwrap_or(i32::MAX)),
                thread_name: Some(model.thread_label(t).to_owned()),
            }),
            ..Default::default()
        }))?;
    }
    for (uuid, name) in [(QUEUE_UUID, QUEUE_DEPTH), (LIVE_UUID, LIVE_VALUES)] {
        packets.push(&descriptor(TrackDescriptor {
            uuid: Some(uuid),
            name: Some(name.into()),
            parent_uuid: Some(PROCESS_UUID),
            counter: Some(CounterDescriptor {
                unit: Some(UNIT_COUNT),
            }),
            ..Default::default()
        }))?;
    }
    let streams = stream_lanes(model);
    let stream_base = THREAD_BASE + model.recording.threads.len() as u64;
    for (lane, name) in streams.names.iter().enumerate() {
        packets.push(&descriptor(TrackDescriptor {
            uuid: Some(stream_base + lane as u64),
            name: Some(name.clone()),
            parent_uuid: Some(PROCESS_UUID),
            ..Default::default()
        }))?;
    }

    // Flow ids: one per edge, numbered from 1.
    let mut outgoing: HashMap<usize, Vec<u64>> = HashMap::new();
    let mut incoming: HashMap<usize, Vec<u64>> = HashMap::new();
    for (i, edge) in model.edges.iter().enumerate() {
        outgoing.entry(edge.from).or_default().push(i as u64 + 1);
        incoming.entry(edge.to).or_default().push(i as u64 + 1);
    }

    // Timed events, merged by time (stable: each thread keeps its order).
    let mut timed: Vec<(u64, Timed)> = Vec::new();
    for (t, brackets) in model.brackets.iter().enumerate() {
        let track = THREAD_BASE + t as u64;
        for &(time, open, run) in brackets {
            let event = if open {
                Timed::Begin {
                    run,
                    track,
                    flows: true,
                }
            } else {
                Timed::End { track }
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
            let flows = false;
            timed.push((r.start, Timed::Begin { run, track, flows }));
            timed.push((r.end, Timed::End { track }));
        }
    }
    drop(streams);
    for (i, c) in model.async_completions.iter().enumerate() {
        timed.push((c.time, Timed::Completion(i)));
    }
    if let Some(error) = &model.first_error {
        timed.push((error.time, Timed::FirstError));
    }
    for &(time, depth) in &model.queue_depth {
        timed.push((
            time,
            Timed::Counter {
                track: QUEUE_UUID,
                value: depth,
            },
        ));
    }
    for &(time, live) in &model.live_values {
        timed.push((
            time,
            Timed::Counter {
                track: LIVE_UUID,
                value: live,
            },
        ));
    }
    timed.sort_by_key(|t| t.0);

    // The names, in the order the events use them, interned first: the
    // interning tables come first on the sequence, which they reset.
    let mut names = Interner::default();
    for &(_, event) in &timed {
        if let Some(name) = event_name(model, event) {
            names.event(&name);
        }
    }
    let interned = InternedData {
        event_names: names
            .order
            .iter()
            .enumerate()
            .map(|(i, n)| EventName {
                iid: Some(i as u64 + 1),
                name: Some(n.clone()),
            })
            .collect(),
        debug_annotation_names: Annotation::ALL
            .iter()
            .map(|a| DebugAnnotationName {
                iid: Some(a.iid()),
                name: Some(a.name().into()),
            })
            .collect(),
    };
    packets.push(&TracePacket {
        timestamp: Some(timed.first().map_or(0, |t| t.0)),
        trusted_packet_sequence_id: Some(SEQUENCE),
        interned_data: Some(interned),
        sequence_flags: Some(SEQ_INCREMENTAL_STATE_CLEARED),
        ..Default::default()
    })?;
    let mut progress = Progress::new(options.progress, "Perfetto", timed.len() as u64);
    for (time, event) in timed {
        progress.advance(1);
        let name_iid = event_name(model, event).map(|name| names.event(&name));
        let track_event = match event {
            Timed::Begin { run, track, flows } => {
                let mut e = slice_begin(model, run, track, name_iid);
                if flows {
                    e.flow_ids = outgoing.get(&run).cloned().unwrap_or_default();
                    e.terminating_flow_ids = incoming.get(&run).cloned().unwrap_or_default();
                }
                e
            }
            Timed::End { track } => slice_end(track),
            Timed::Completion(i) => {
                let c = &model.async_completions[i];
                let mut e = instant(THREAD_BASE + c.thread as u64, name_iid);
                e.debug_annotations
                    .push(uint(Annotation::Register, c.register.into()));
                e
            }
            Timed::FirstError => {
                let error = model.first_error.as_ref().expect("a first error");
                let thread = error.run.map_or(0, |r| model.runs[r].thread);
                let mut e = instant(THREAD_BASE + thread as u64, name_iid);
                if let Some(message) = &error.message {
                    e.debug_annotations.push(string(
                        Annotation::Error,
                        display::text(message).into_owned(),
                    ));
                }
                e
            }
            Timed::Counter { track, value } => counter(track, value),
        };
        packets.push(&TracePacket {
            timestamp: Some(time),
            trusted_packet_sequence_id: Some(SEQUENCE),
            track_event: Some(track_event),
            sequence_flags: Some(SEQ_NEEDS_INCREMENTAL_STATE),
            ..Default::default()
        })?;
    }
    Ok(())
}

/// The interned name an event shows, if it has one.
fn event_name(model: &Model, event: Timed) -> Option<String> {
    match event {
        Timed::Begin { run, .. } => Some(kernel_frame(model, run)),
        Timed::Completion(i) => Some(presentation::completion_name(model, i)),
        Timed::FirstError => Some(FIRST_ERROR.to_owned()),
        Timed::End { .. } | Timed::Counter { .. } => None,
    }
}

/// The packets of a `Trace` message, each written as its field 1.
struct Packets<'w, W: Write> {
    out: &'w mut W,
}

impl<W: Write> Packets<'_, W> {
    fn push(&mut self, packet: &TracePacket) -> io::Result<()> {
        // Field 1, length-delimited: tag byte (1 << 3) | 2.
        let mut bytes = vec![0x0a];
        packet
            .encode_length_delimited(&mut bytes)
            .expect("a Vec grows as needed");
        self.out.write_all(&bytes)
    }
}

fn descriptor(track: TrackDescriptor) -> TracePacket {
    TracePacket {
        trusted_packet_sequence_id: Some(SEQUENCE),
        track_descriptor: Some(track),
        ..Default::default()
    }
}

fn uint(name: Annotation, value: u64) -> DebugAnnotation {
    DebugAnnotation {
        name_iid: Some(name.iid()),
        uint_value: Some(value),
        string_value: None,
    }
}

fn string(name: Annotation, value: String) -> DebugAnnotation {
    DebugAnnotation {
        name_iid: Some(name.iid()),
        uint_value: None,
        string_value: Some(value),
    }
}

fn slice_begin(model: &Model, run: usize, track: u64, name_iid: Option<u64>) -> TrackEvent {
    let annotations = presentation::slice_args(model, run)
        .into_iter()
        .map(|(annotation, value)| match value {
            ArgValue::Uint(n) => uint(annotation, n),
            ArgValue::Text(text) => string(annotation, text),
        })
        .collect();
    TrackEvent {
        r#type: Some(TYPE_SLICE_BEGIN),
        track_uuid: Some(track),
        name_iid,
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

fn instant(track: u64, name_iid: Option<u64>) -> TrackEvent {
    TrackEvent {
        r#type: Some(TYPE_INSTANT),
        track_uuid: Some(track),
        name_iid,
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
