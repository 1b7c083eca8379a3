//! Chrome Trace Event JSON: the same picture as the Perfetto export, for
//! viewers that read JSON. `M` events name the process and threads, an `X`
//! slice per kernel run (times in µs) on its thread and on its stream
//! lane, `C` counters for the ready-queue depth and live async values,
//! `i` instants for async completions and the first error.
//!
//! Flows use `bind_id`: a slice can carry only one, so each producer →
//! consumer edge gets its own pair of zero-length anchor slices, one at the
//! middle of the producer (`flow_out`) and one at the middle of the
//! consumer (`flow_in`), with the edge's id.
//!
//! Events are written one at a time: memory stays that of the model
//! however many events the trace has.

use std::io::{self, Write};

use bef::tool_io::json::TerminalSafe;
use serde_json::{Map, Value, json};

use crate::analysis::model::Model;
use crate::analysis::model::presentation::{
    self, ArgValue, FIRST_ERROR, LIVE_VALUES, PID, QUEUE_DEPTH, kernel_frame, stream_lanes,
    stream_tid, thread_tid,
};
use crate::display;
use crate::export::Export;
use crate::progress::Progress;

/// The Chrome JSON export, which has no options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options;

fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

/// The trace of `model` as JSON text.
pub fn export(model: &Model) -> String {
    let mut out = Vec::new();
    Options
        .write(model, &mut out, Progress::HIDDEN)
        .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

impl Export for Options {
    /// Writes the trace of `model` (`{"traceEvents": [...]}`) to `out`.
    fn write(&self, model: &Model, out: &mut dyn Write, progress: Progress) -> io::Result<()> {
        write(model, out, progress)
    }
}

fn write(model: &Model, mut out: &mut dyn Write, progress: Progress) -> io::Result<()> {
    out.write_all(b"{\"traceEvents\":[")?;
    let mut events = Events {
        out: &mut out,
        first: true,
    };
    let lanes = stream_lanes(model);
    let lane_runs: usize = lanes.runs.iter().map(Vec::len).sum();
    let total = model.runs.len() + lane_runs + 2 * model.edges.len();
    let mut progress = progress.count("Chrome JSON", total as u64);
    events.push(&json!({
        "name": "process_name", "ph": "M", "pid": PID, "tid": 0,
        "args": {"name": presentation::process_name(model)}
    }))?;
    for t in 0..model.recording.threads.len() {
        events.push(&json!({
            "name": "thread_name", "ph": "M", "pid": PID, "tid": thread_tid(t),
            "args": {"name": model.thread_label(t)}
        }))?;
    }
    for (lane, name) in lanes.names.iter().enumerate() {
        events.push(&json!({
            "name": "thread_name", "ph": "M", "pid": PID, "tid": stream_tid(lane),
            "args": {"name": name}
        }))?;
    }
    for (run, r) in model.runs.iter().enumerate() {
        events.push(&slice(model, run, thread_tid(r.thread)))?;
        progress.advance(1);
    }
    for (lane, runs) in lanes.runs.iter().enumerate() {
        for &run in runs {
            events.push(&slice(model, run, stream_tid(lane)))?;
            progress.advance(1);
        }
    }
    drop(lanes);
    for (i, edge) in model.edges.iter().enumerate() {
        let id = i as u64 + 1;
        for (run, other, direction) in [(edge.from, edge.to, "out"), (edge.to, edge.from, "in")] {
            let r = &model.runs[run];
            let middle = r.start + r.duration() / 2;
            let arrow = if direction == "out" { "→" } else { "←" };
            let mut anchor = json!({
                "name": format!("{arrow} {}", model.frame(other)), "cat": "flow", "ph": "X",
                "ts": us(middle), "dur": 0.0, "pid": PID, "tid": thread_tid(r.thread),
                "bind_id": format!("{id:#x}"),
                "args": {"edge": id, "register_time_us": us(edge.time)}
            });
            anchor[format!("flow_{direction}")] = json!(true);
            events.push(&anchor)?;
            progress.advance(1);
        }
    }
    for (i, c) in model.async_completions.iter().enumerate() {
        events.push(&json!({
            "name": presentation::completion_name(model, i), "ph": "i", "s": "t",
            "ts": us(c.time), "pid": PID, "tid": thread_tid(c.thread),
            "args": {presentation::Annotation::Register.name(): c.register}
        }))?;
    }
    if let Some(error) = &model.first_error {
        let thread = error.run.map_or(0, |r| model.runs[r].thread);
        events.push(&json!({
            "name": FIRST_ERROR, "ph": "i", "s": "t", "ts": us(error.time), "pid": PID,
            "tid": thread_tid(thread),
            "args": {"message": error.message.as_deref().map(display::text)}
        }))?;
    }
    for &(time, depth) in &model.queue_depth {
        events.push(&json!({
            "name": QUEUE_DEPTH, "ph": "C", "ts": us(time), "pid": PID,
            "args": {"kernels": depth}
        }))?;
    }
    for &(time, live) in &model.live_values {
        events.push(&json!({
            "name": LIVE_VALUES, "ph": "C", "ts": us(time), "pid": PID,
            "args": {"values": live}
        }))?;
    }
    events.out.write_all(b"],\"displayTimeUnit\":\"ns\"}")
}

/// The `traceEvents` array, written an event at a time.
struct Events<'w, W: Write> {
    out: &'w mut W,
    first: bool,
}

impl<W: Write> Events<'_, W> {
    fn push(&mut self, event: &Value) -> io::Result<()> {
        if !self.first {
            self.out.write_all(b",")?;
        }
        self.first = false;
        // Names from the program: escaped for a terminal that shows the file.
        bef::tool_io::json::write(&mut *self.out, TerminalSafe::compact(), event)
            .map_err(io::Error::from)
    }
}

fn slice(model: &Model, run: usize, tid: u64) -> Value {
    let r = &model.runs[run];
    let args: Map<String, Value> = presentation::slice_args(model, run)
        .into_iter()
        .map(|(annotation, value)| {
            let value = match value {
                ArgValue::Uint(n) => json!(n),
                ArgValue::Text(text) => json!(text),
            };
            (annotation.name().to_owned(), value)
        })
        .collect();
    json!({
        "name": kernel_frame(model, run), "cat": "kernel", "ph": "X",
        "ts": us(r.start), "dur": us(r.duration()), "pid": PID, "tid": tid, "args": args
    })
}
