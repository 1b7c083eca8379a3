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

use serde_json::{Value, json};

use crate::display;
use crate::folded::kernel_frame;
use crate::model::{ErrorMark, Model};
use crate::perfetto::stream_lanes;

const PID: u64 = 1;
/// Thread `t` is tid `t + 2`; stream lanes follow from this tid.
const STREAM_TID_BASE: u64 = 10_000;

/// The process's name: the program, and whether the recording is partial.
pub(crate) fn process_name(model: &Model<'_>) -> String {
    let header = &model.recording.header;
    let mut name = format!("bef-trace {}", display::text(&header.program_path));
    if header.partial {
        name.push_str(" (");
        name.push_str(display::PARTIAL);
        name.push(')');
    }
    name
}

fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

/// The trace of `model` as JSON text.
pub fn export(model: &Model<'_>) -> String {
    let mut out = Vec::new();
    write(model, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Writes the trace of `model` (`{"traceEvents": [...]}`) to `out`.
pub fn write(model: &Model<'_>, out: &mut impl Write) -> io::Result<()> {
    out.write_all(b"{\"traceEvents\":[")?;
    let mut events = Events { out, first: true };
    events.push(&json!({
        "name": "process_name", "ph": "M", "pid": PID, "tid": 0,
        "args": {"name": process_name(model)}
    }))?;
    for t in 0..model.recording.threads.len() {
        events.push(&json!({
            "name": "thread_name", "ph": "M", "pid": PID, "tid": t as u64 + 2,
            "args": {"name": model.thread_label(t)}
        }))?;
    }
    let lanes = stream_lanes(model);
    for (lane, name) in lanes.names.iter().enumerate() {
        events.push(&json!({
            "name": "thread_name", "ph": "M", "pid": PID, "tid": STREAM_TID_BASE + lane as u64,
            "args": {"name": name}
        }))?;
    }
    for (run, r) in model.runs.iter().enumerate() {
        events.push(&slice(model, run, r.thread as u64 + 2))?;
    }
    for (lane, runs) in lanes.runs.iter().enumerate() {
        for &run in runs {
            events.push(&slice(model, run, STREAM_TID_BASE + lane as u64))?;
        }
    }
    for (i, edge) in model.edges.iter().enumerate() {
        let id = i as u64 + 1;
        for (run, other, direction) in [(edge.from, edge.to, "out"), (edge.to, edge.from, "in")] {
            let r = &model.runs[run];
            let middle = r.start + r.duration() / 2;
            let arrow = if direction == "out" { "→" } else { "←" };
            let mut anchor = json!({
                "name": format!("{arrow} {}", model.frame(other)), "cat": "flow", "ph": "X",
                "ts": us(middle), "dur": 0.0, "pid": PID, "tid": r.thread as u64 + 2,
                "bind_id": format!("{id:#x}"),
                "args": {"edge": id, "register_time_us": us(edge.time)}
            });
            anchor[format!("flow_{direction}")] = json!(true);
            events.push(&anchor)?;
        }
    }
    for c in &model.async_completions {
        events.push(&json!({
            "name": format!("async completion: {}", model.frame(c.run)), "ph": "i", "s": "t",
            "ts": us(c.time), "pid": PID, "tid": c.thread as u64 + 2,
            "args": {"register": c.register}
        }))?;
    }
    if let Some(error) = &model.first_error {
        let thread = error.run.map_or(0, |r| model.runs[r].thread);
        events.push(&json!({
            "name": "first error", "ph": "i", "s": "t", "ts": us(error.time), "pid": PID,
            "tid": thread as u64 + 2,
            "args": {"message": error.message.as_deref().map(display::text)}
        }))?;
    }
    for &(time, depth) in &model.queue_depth {
        events.push(&json!({
            "name": "ready queue depth", "ph": "C", "ts": us(time), "pid": PID,
            "args": {"kernels": depth}
        }))?;
    }
    for &(time, live) in &model.live_values {
        events.push(&json!({
            "name": "live async values", "ph": "C", "ts": us(time), "pid": PID,
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
        serde_json::to_writer(&mut *self.out, event).map_err(io::Error::from)
    }
}

fn slice(model: &Model<'_>, run: usize, tid: u64) -> Value {
    let r = &model.runs[run];
    let mut args = json!({
        "function": model.function_label(run),
        "kernel_index": r.kernel,
        "execution": model.executions[r.execution].id,
    });
    if let Some(info) = model.kernel_info(run) {
        args["bef_offset"] = json!(info.bef_offset);
        if !info.location.is_empty() {
            args["location"] = json!(display::text(&info.location));
        }
    }
    if let Some(ready) = r.ready {
        args["ready_to_start_us"] = json!(us(r.start.saturating_sub(ready)));
    }
    let values = model.values_text(run);
    if !values.is_empty() {
        args["values"] = json!(values);
    }
    match r.error {
        Some(ErrorMark::Origin) => args["error"] = json!("origin"),
        Some(ErrorMark::Poisoned) => args["error"] = json!("poisoned"),
        None => {}
    }
    json!({
        "name": kernel_frame(model, run), "cat": "kernel", "ph": "X",
        "ts": us(r.start), "dur": us(r.duration()), "pid": PID, "tid": tid, "args": args
    })
}
