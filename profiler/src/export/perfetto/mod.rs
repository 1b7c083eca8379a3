//! Perfetto protobuf traces: a process track, one track per thread and one
//! per kernel stream, a slice per kernel run (name, function, kernel index,
//! BEF offset, source location, execution as debug annotations), a flow per
//! producer → consumer edge between the slices on the thread tracks (the
//! stream tracks' copies carry none), instants for async completions and the first
//! error, and counter tracks for the ready-queue depth and live async
//! values. Slice and annotation names are interned.

pub mod proto;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::io::{self, Write};
use std::iter::Peekable;

use prost::Message;

use crate::analysis::model::presentation::{
    self, Annotation, ArgValue, FIRST_ERROR, LIVE_VALUES, PID, QUEUE_DEPTH, StreamLanes,
    kernel_frame, stream_lanes, thread_tid,
};
use crate::analysis::model::{Edge, ErrorMark, Model};
use crate::display;
use crate::export::Export;
use crate::progress::Progress;
use proto::*;

/// The one packet sequence the trace is written on.
const SEQUENCE: u32 = 1;
const PROCESS_UUID: u64 = 1;
const QUEUE_UUID: u64 = 2;
const LIVE_UUID: u64 = 3;
/// Thread `t` is track `THREAD_BASE + t`; streams follow the threads.
const THREAD_BASE: u64 = 100;

/// The Perfetto export, which has no options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options;

/// The trace of `model`, serialized.
pub fn export(model: &Model) -> Vec<u8> {
    let mut out = Vec::new();
    Options
        .write(model, &mut out, Progress::HIDDEN)
        .expect("writing to memory cannot fail");
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

impl Export for Options {
    /// Writes the trace of `model` (a `Trace` message: packets one after
    /// the other) to `out`.
    fn write(&self, model: &Model, out: &mut dyn Write, progress: Progress) -> io::Result<()> {
        write(model, out, progress)
    }
}

fn write(model: &Model, mut out: &mut dyn Write, progress: Progress) -> io::Result<()> {
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

    let flows_out = FlowIds::new(model, |e| e.from);
    let flows_in = FlowIds::new(model, |e| e.to);

    // The names, interned first: the interning tables come first on the
    // sequence, which they reset. Names are keyed by what they are made
    // from, so each is formatted once, not once per event.
    let mut names = Interner::default();
    for run in 0..model.runs.len() {
        names.intern(NameKey::kernel(model, run), || kernel_frame(model, run));
    }
    for completion in 0..model.async_completions.len() {
        names.intern(NameKey::completion(model, completion), || {
            presentation::completion_name(model, completion)
        });
    }
    if model.first_error.is_some() {
        names.intern(NameKey::FirstError, || FIRST_ERROR.to_owned());
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
    let mut timed = timeline(model, &streams, stream_base);
    packets.push(&TracePacket {
        timestamp: Some(timed.peek().map_or(0, |t| t.0)),
        trusted_packet_sequence_id: Some(SEQUENCE),
        interned_data: Some(interned),
        sequence_flags: Some(SEQ_INCREMENTAL_STATE_CLEARED),
        ..Default::default()
    })?;
    let total = (2 * model.runs.len() + streams.runs.iter().map(Vec::len).sum::<usize>() * 2)
        + model.async_completions.len()
        + model.queue_depth.len()
        + model.live_values.len();
    let mut progress = progress.count("Perfetto", total as u64);
    for (time, event) in timed.by_ref() {
        progress.advance(1);
        let name_iid = match event {
            Timed::Begin { run, .. } => Some(names.id(NameKey::kernel(model, run))),
            Timed::Completion(i) => Some(names.id(NameKey::completion(model, i))),
            Timed::FirstError => Some(names.id(NameKey::FirstError)),
            Timed::End { .. } | Timed::Counter { .. } => None,
        };
        let track_event = match event {
            Timed::Begin { run, track, flows } => {
                let mut e = slice_begin(model, run, track, name_iid);
                if flows {
                    e.flow_ids = flows_out.of(run).to_vec();
                    e.terminating_flow_ids = flows_in.of(run).to_vec();
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

/// What an event's name is made from: a run's kernel frame (its function,
/// kernel and error mark), a completion of a kernel's result, or the first
/// error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum NameKey {
    Kernel(u32, u32, Option<ErrorMark>),
    Completion(u32, u32),
    FirstError,
}

impl NameKey {
    fn kernel(model: &Model, run: usize) -> NameKey {
        let r = &model.runs[run];
        NameKey::Kernel(model.function_of(run), r.kernel, r.error)
    }

    fn completion(model: &Model, completion: usize) -> NameKey {
        let run = model.async_completions[completion].run;
        NameKey::Completion(model.function_of(run), model.runs[run].kernel)
    }
}

/// Event names by iid (position + 1), keyed by what they are made from.
#[derive(Default)]
struct Interner {
    ids: HashMap<NameKey, u64>,
    by_name: HashMap<String, u64>,
    order: Vec<String>,
}

impl Interner {
    /// Interns the name of `key`, made by `name` the first time the key
    /// is seen; keys whose names read the same share an iid.
    fn intern(&mut self, key: NameKey, name: impl FnOnce() -> String) {
        if self.ids.contains_key(&key) {
            return;
        }
        let name = name();
        let next = self.order.len() as u64 + 1;
        let id = *self.by_name.entry(name.clone()).or_insert(next);
        if id == next {
            self.order.push(name);
        }
        self.ids.insert(key, id);
    }

    /// The iid of an interned key.
    fn id(&self, key: NameKey) -> u64 {
        self.ids.get(&key).copied().unwrap_or(0)
    }
}

/// Flow ids by run: the edges leaving (or reaching) each run, numbered
/// from 1 in [`Model::edges`] order, in one array indexed by run.
struct FlowIds {
    /// `ids[starts[run]..starts[run + 1]]` are the run's.
    starts: Vec<u32>,
    ids: Vec<u64>,
}

impl FlowIds {
    fn new(model: &Model, end: impl Fn(&Edge) -> usize) -> FlowIds {
        let mut starts = vec![0u32; model.runs.len() + 1];
        for e in &model.edges {
            starts[end(e) + 1] += 1;
        }
        for run in 0..model.runs.len() {
            starts[run + 1] += starts[run];
        }
        let mut next = starts.clone();
        let mut ids = vec![0u64; model.edges.len()];
        for (i, e) in model.edges.iter().enumerate() {
            let at = &mut next[end(e)];
            ids[*at as usize] = i as u64 + 1;
            *at += 1;
        }
        FlowIds { starts, ids }
    }

    fn of(&self, run: usize) -> &[u64] {
        &self.ids[self.starts[run] as usize..self.starts[run + 1] as usize]
    }
}

/// A source of timed events in time order.
type Source<'m> = Box<dyn Iterator<Item = (u64, Timed)> + 'm>;

/// `events` as a source in time order: as they come when they are in
/// order already (every recording a run makes), else sorted (stably).
fn in_order<'m, I>(events: impl Fn() -> I) -> Source<'m>
where
    I: Iterator<Item = (u64, Timed)> + 'm,
{
    if events().is_sorted_by_key(|e| e.0) {
        Box::new(events())
    } else {
        let mut sorted: Vec<(u64, Timed)> = events().collect();
        sorted.sort_by_key(|e| e.0);
        Box::new(sorted.into_iter())
    }
}

/// The timeline: every event of the trace in time order, ties in the
/// order of their sources (threads, stream lanes, completions, the first
/// error, counters) and within a source. Merged from the sources as it is
/// read, so that it takes memory per source, not per event.
struct Timeline<'m> {
    sources: Vec<Peekable<Source<'m>>>,
    /// The next event of each source that has one: `(time, source)`.
    heads: BinaryHeap<Reverse<(u64, usize)>>,
}

impl<'m> Timeline<'m> {
    fn new(sources: Vec<Source<'m>>) -> Timeline<'m> {
        let mut sources: Vec<Peekable<Source<'m>>> =
            sources.into_iter().map(Iterator::peekable).collect();
        let mut heads = BinaryHeap::new();
        for (i, source) in sources.iter_mut().enumerate() {
            if let Some(&(time, _)) = source.peek() {
                heads.push(Reverse((time, i)));
            }
        }
        Timeline { sources, heads }
    }

    fn peek(&mut self) -> Option<(u64, Timed)> {
        let &Reverse((_, i)) = self.heads.peek()?;
        self.sources[i].peek().copied()
    }
}

impl Iterator for Timeline<'_> {
    type Item = (u64, Timed);

    fn next(&mut self) -> Option<(u64, Timed)> {
        let Reverse((_, i)) = self.heads.pop()?;
        let event = self.sources[i].next()?;
        if let Some(&(time, _)) = self.sources[i].peek() {
            self.heads.push(Reverse((time, i)));
        }
        Some(event)
    }
}

/// See [`Timeline`].
fn timeline<'m>(model: &'m Model, streams: &'m StreamLanes, stream_base: u64) -> Timeline<'m> {
    let mut sources: Vec<Source<'m>> = Vec::new();
    for (t, brackets) in model.brackets.iter().enumerate() {
        let track = THREAD_BASE + t as u64;
        sources.push(in_order(move || {
            brackets.iter().map(move |&bracket| {
                let event = if bracket.opens() {
                    Timed::Begin {
                        run: bracket.run(),
                        track,
                        flows: true,
                    }
                } else {
                    Timed::End { track }
                };
                (bracket.time(&model.runs), event)
            })
        }));
    }
    // Each lane's slices follow one another.
    for (lane, runs) in streams.runs.iter().enumerate() {
        let track = stream_base + lane as u64;
        sources.push(in_order(move || {
            runs.iter().flat_map(move |&run| {
                let r = &model.runs[run];
                let flows = false;
                [
                    (r.start, Timed::Begin { run, track, flows }),
                    (r.end, Timed::End { track }),
                ]
            })
        }));
    }
    sources.push(in_order(|| {
        model
            .async_completions
            .iter()
            .enumerate()
            .map(|(i, c)| (c.time, Timed::Completion(i)))
    }));
    sources.push(in_order(|| {
        model
            .first_error
            .iter()
            .map(|error| (error.time, Timed::FirstError))
    }));
    for (track, counter) in [
        (QUEUE_UUID, &model.queue_depth),
        (LIVE_UUID, &model.live_values),
    ] {
        sources.push(in_order(move || {
            counter
                .iter()
                .map(move |&(time, value)| (time, Timed::Counter { track, value }))
        }));
    }
    Timeline::new(sources)
}
