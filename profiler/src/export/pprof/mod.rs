//! pprof profiles: google/pprof's `profile.proto`, gzipped, as `go tool
//! pprof` and other pprof readers take them.
//!
//! A sample per kernel run, its stack as flame graphs have it (each call
//! a BEF function frame then the kernel frame, leaf first, the innermost
//! [`MAX_DEPTH`] calls kept under an `(outer calls)` frame), with three
//! values: wall-clock time shared as [`Clock::Wall`] shares it, CPU time
//! in the kernel itself (its self time, what `bef-trace stats` sums as
//! self time), and one kernel run. The executor's own time is a sample
//! per execution and thread under an `(executor)` frame, and the time
//! nothing ran one `(idle)` sample, with wall time only: the wall time of
//! all samples adds up to the recording's span. CPU time is the default
//! sample type, so `go tool pprof -top` ranks kernels by self time as
//! `stats` does.
//!
//! Every kernel of the program's kernel tables that ran is a `Function`
//! named by its kernel name, and every BEF function one named by its
//! function name, each with the file and line of its MLIR source location
//! when the recording has one ([`source`]); pprof groups kernels of one
//! name as `stats` does, and `-lines` tells them apart. Samples carry the
//! labels `thread`, `function`, `stream` and `execution` (numbers), and
//! `error` for kernels an error touched.
//!
//! The profile is written a field at a time through the gzip stream:
//! samples as they are made, then the locations, functions and string
//! table they refer to, so the export needs little beyond the model.
//!
//! [`Clock::Wall`]: crate::export::folded::Clock::Wall
//! [`source`]: crate::analysis::model::source

pub mod proto;

use std::collections::HashMap;
use std::io::{self, Write};

use flate2::Compression;
use flate2::write::GzEncoder;
use prost::Message;

use crate::analysis::model::source::{self, SourceLine};
use crate::analysis::model::{ErrorMark, Model};
use crate::display;
use crate::export::Export;
use crate::export::folded::{self, EXECUTOR, IDLE, MAX_DEPTH, MAX_TOTAL, OUTER};
use crate::progress::Progress;
use proto::*;

/// The sample types, `(type, unit)`, in the order of each sample's values.
pub const SAMPLE_TYPES: [(&str, &str); 3] = [
    (WALL, "nanoseconds"),
    (CPU, "nanoseconds"),
    (KERNELS, "count"),
];

/// Wall-clock time, shared among what ran at once.
pub const WALL: &str = "wall";
/// Time in the kernel itself (self time); the default sample type.
pub const CPU: &str = "cpu";
/// Kernel runs.
pub const KERNELS: &str = "kernels";

/// The label of the thread a sample ran on (its name as every export
/// shows it).
pub const THREAD: &str = "thread";
/// The label of the BEF function a sample ran in.
pub const FUNCTION: &str = "function";
/// The numeric label of a kernel's stream id.
pub const STREAM: &str = "stream";
/// The numeric label of the execution's id in the recording.
pub const EXECUTION: &str = "execution";
/// The label of a kernel an error touched: `origin` or `poisoned`.
pub const ERROR: &str = "error";

/// The one mapping: the program.
const MAPPING_ID: u64 = 1;

/// The pprof export, which has no options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options;

impl Export for Options {
    /// Writes the gzipped profile of `model` to `out`.
    fn write(&self, model: &Model, out: &mut dyn Write, progress: Progress) -> io::Result<()> {
        let mut gzip = GzEncoder::new(out, Compression::default());
        write(model, &mut gzip, progress)?;
        gzip.finish()?.flush()
    }
}

/// The profile of `model`, gzipped.
pub fn export(model: &Model) -> Vec<u8> {
    let mut out = Vec::new();
    Options
        .write(model, &mut out, Progress::HIDDEN)
        .expect("writing to memory cannot fail");
    out
}

/// Writes the `Profile` message of `model`, not compressed, to `out`.
fn write(model: &Model, out: &mut dyn Write, progress: Progress) -> io::Result<()> {
    let mut profile = Writer {
        out,
        buffer: Vec::new(),
        strings: Strings::default(),
    };
    for (kind, unit) in SAMPLE_TYPES {
        let value_type = profile.value_type(kind, unit);
        profile.message(field::SAMPLE_TYPE, &value_type)?;
    }
    let keys = LabelKeys {
        thread: profile.strings.id(THREAD),
        function: profile.strings.id(FUNCTION),
        stream: profile.strings.id(STREAM),
        execution: profile.strings.id(EXECUTION),
        error: profile.strings.id(ERROR),
        id: profile.strings.id(ID_UNIT),
    };
    let wall = folded::wall_time(model);
    let scale = Scale::new(model, &wall);
    let mut frames = Frames::default();
    let mut progress = progress.count("pprof", (model.runs.len() + wall.executor.len()) as u64);
    let mut stack = Vec::new();
    for (run, r) in model.runs.iter().enumerate() {
        progress.advance(1);
        stack.clear();
        calls(model, run, MAX_DEPTH, &mut frames, &mut stack);
        let execution = &model.executions[r.execution];
        let mut label = vec![
            profile.text_label(keys.thread, model.thread_label(r.thread)),
            profile.text_label(keys.function, &model.function_label(run)),
            keys.number(keys.stream, model.stream_of(run)),
            keys.number(keys.execution, execution.id),
        ];
        match r.error {
            Some(ErrorMark::Origin) => label.push(profile.text_label(keys.error, "origin")),
            Some(ErrorMark::Poisoned) => label.push(profile.text_label(keys.error, "poisoned")),
            None => {}
        }
        let sample = Sample {
            location_id: stack.clone(),
            value: vec![scale.wall(wall.runs[run]), scale.cpu(r.self_time), 1],
            label,
        };
        profile.message(field::SAMPLE, &sample)?;
    }
    for &(x, thread, time) in &wall.executor {
        progress.advance(1);
        if time == 0 {
            continue;
        }
        let execution = &model.executions[x];
        stack.clear();
        stack.push(frames.id(Frame::Executor));
        stack.push(frames.id(Frame::Function(execution.function)));
        if let Some(caller) = execution.caller {
            calls(model, caller, MAX_DEPTH - 1, &mut frames, &mut stack);
        }
        let label = vec![
            profile.text_label(keys.thread, model.thread_label(thread)),
            profile.text_label(keys.function, &model.function_label_of(execution.function)),
            keys.number(keys.execution, execution.id),
        ];
        let sample = Sample {
            location_id: stack.clone(),
            value: vec![scale.wall(time), 0, 0],
            label,
        };
        profile.message(field::SAMPLE, &sample)?;
    }
    if wall.idle > 0 {
        let sample = Sample {
            location_id: vec![frames.id(Frame::Idle)],
            value: vec![scale.wall(wall.idle), 0, 0],
            label: Vec::new(),
        };
        profile.message(field::SAMPLE, &sample)?;
    }
    drop(progress);

    let header = &model.recording.header;
    let program = display::text(&header.program_path).into_owned();
    let mapping = Mapping {
        id: MAPPING_ID,
        filename: profile.strings.id(&program),
        has_functions: true,
        has_filenames: true,
        has_line_numbers: true,
        ..Default::default()
    };
    profile.message(field::MAPPING, &mapping)?;
    let places = Places::new(model);
    for (i, &frame) in frames.order.iter().enumerate() {
        let id = i as u64 + 1;
        let (name, system_name, place) = describe(model, &places, frame);
        let file = place
            .as_ref()
            .map_or_else(|| program.clone(), |p| display::text(&p.file).into_owned());
        let line = place.map_or(0, |p| clamp(p.line));
        let function = Function {
            id,
            name: profile.strings.id(&name),
            system_name: profile.strings.id(&system_name),
            filename: profile.strings.id(&file),
            start_line: line,
        };
        let location = Location {
            id,
            mapping_id: MAPPING_ID,
            address: 0,
            line: vec![Line {
                function_id: id,
                line,
            }],
        };
        profile.message(field::LOCATION, &location)?;
        profile.message(field::FUNCTION, &function)?;
    }
    let comments = comments(model);
    let tail = Profile {
        time_nanos: clamp(header.start_unix_ns.saturating_add(model.span.0)),
        duration_nanos: clamp(model.span.1 - model.span.0),
        period_type: Some(profile.value_type(CPU, "nanoseconds")),
        period: 1,
        comment: comments.iter().map(|c| profile.strings.id(c)).collect(),
        default_sample_type: profile.strings.id(CPU),
        ..Default::default()
    };
    // The string table last: everything before has named its strings.
    let Writer {
        out,
        mut buffer,
        strings,
    } = profile;
    for text in &strings.order {
        buffer.clear();
        prost::encoding::string::encode(field::STRING_TABLE, text, &mut buffer);
        out.write_all(&buffer)?;
    }
    buffer.clear();
    tail.encode(&mut buffer)
        .map_err(|e| io::Error::other(e.to_string()))?;
    out.write_all(&buffer)
}

/// What the profile says of the recording beside its samples.
fn comments(model: &Model) -> Vec<String> {
    let header = &model.recording.header;
    let mut comments = vec![format!(
        "bef-trace recording of {} on work queue {}",
        display::text(&header.program_path),
        display::name(&header.work_queue)
    )];
    if header.partial {
        comments.push(display::PARTIAL.to_owned());
    }
    let dropped = model.recording.dropped();
    if dropped > 0 {
        comments.push(display::dropped(dropped, header.kept));
    }
    comments
}

/// Appends the frames of run `run`'s calls, leaf first: its kernel, its
/// function, the kernel that called that function, and so on, the
/// innermost `limit` calls, then [`OUTER`] if there were more.
fn calls(model: &Model, run: usize, limit: usize, frames: &mut Frames, stack: &mut Vec<u64>) {
    let (chain, cut) = model.call_chain_innermost(run, limit);
    for &r in chain.iter().rev() {
        let function = model.function_of(r);
        stack.push(frames.id(Frame::Kernel(function, model.runs[r].kernel)));
        stack.push(frames.id(Frame::Function(function)));
    }
    if cut {
        stack.push(frames.id(Frame::Outer));
    }
}

/// A frame of a stack: each is one `Location` and one `Function`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Frame {
    /// Kernel `.1` of function `.0`'s kernel table.
    Kernel(u32, u32),
    /// A BEF function.
    Function(u32),
    /// The executor's own time.
    Executor,
    /// Time nothing ran.
    Idle,
    /// Calls beyond [`MAX_DEPTH`].
    Outer,
}

/// The frames used, numbered from 1 in the order first seen.
#[derive(Default)]
struct Frames {
    ids: HashMap<Frame, u64>,
    order: Vec<Frame>,
}

impl Frames {
    fn id(&mut self, frame: Frame) -> u64 {
        *self.ids.entry(frame).or_insert_with(|| {
            self.order.push(frame);
            self.order.len() as u64
        })
    }
}

/// The source lines of functions, found once each.
struct Places {
    functions: Vec<Option<SourceLine>>,
}

impl Places {
    fn new(model: &Model) -> Places {
        Places {
            functions: model
                .recording
                .functions
                .iter()
                .map(source::function_line)
                .collect(),
        }
    }
}

/// A frame's name, its system name (a kernel's `name#index`, as flame
/// graphs name it) and where it is in the source.
fn describe(model: &Model, places: &Places, frame: Frame) -> (String, String, Option<SourceLine>) {
    match frame {
        Frame::Kernel(function, kernel) => {
            let name = display::name(model.recording.kernel_name(function, kernel)).into_owned();
            let place = model
                .recording
                .functions
                .get(function as usize)
                .and_then(|f| f.kernels.get(kernel as usize))
                .and_then(|k| source::source_line(&k.location));
            let system_name = format!("{name}#{kernel}");
            (name, system_name, place)
        }
        Frame::Function(function) => {
            let name = model.function_label_of(function);
            let place = places.functions.get(function as usize).cloned().flatten();
            (name.clone(), name, place)
        }
        Frame::Executor => (EXECUTOR.into(), EXECUTOR.into(), None),
        Frame::Idle => (IDLE.into(), IDLE.into(), None),
        Frame::Outer => (OUTER.into(), OUTER.into(), None),
    }
}

/// The unit of numeric labels. pprof readers drop a numeric label of 0
/// that has no unit (proto3 does not write zeros, so it reads as no value
/// at all); and pprof shows a number of a unit it does not know as the
/// bare number.
pub const ID_UNIT: &str = "id";

/// Label keys and the unit of numeric labels, interned.
struct LabelKeys {
    thread: i64,
    function: i64,
    stream: i64,
    execution: i64,
    error: i64,
    id: i64,
}

impl LabelKeys {
    /// A numeric label: an id.
    fn number(&self, key: i64, value: u64) -> Label {
        Label {
            key,
            num: clamp(value),
            num_unit: self.id,
            ..Default::default()
        }
    }
}

fn clamp(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// Divisors that keep each sample type's total within [`MAX_TOTAL`], which
/// pprof sums in an `int64` (only a recording with impossible timestamps
/// gets there): the proportions stay.
struct Scale {
    wall: u64,
    cpu: u64,
}

impl Scale {
    fn new(model: &Model, wall: &folded::WallTime) -> Scale {
        let wall_total: u128 = wall.runs.iter().map(|&t| u128::from(t)).sum::<u128>()
            + wall.executor.iter().map(|e| u128::from(e.2)).sum::<u128>()
            + u128::from(wall.idle);
        let cpu_total: u128 = model.runs.iter().map(|r| u128::from(r.self_time)).sum();
        let divisor = |total: u128| total.div_ceil(u128::from(MAX_TOTAL)).max(1) as u64;
        Scale {
            wall: divisor(wall_total),
            cpu: divisor(cpu_total),
        }
    }

    fn wall(&self, time: u64) -> i64 {
        clamp(time / self.wall)
    }

    fn cpu(&self, time: u64) -> i64 {
        clamp(time / self.cpu)
    }
}

/// The strings of the string table, `""` first, each once.
struct Strings {
    ids: HashMap<String, i64>,
    order: Vec<String>,
}

impl Default for Strings {
    fn default() -> Strings {
        Strings {
            ids: HashMap::from([(String::new(), 0)]),
            order: vec![String::new()],
        }
    }
}

impl Strings {
    fn id(&mut self, text: &str) -> i64 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = self.order.len() as i64;
        self.order.push(text.to_owned());
        self.ids.insert(text.to_owned(), id);
        id
    }
}

/// Writes the fields of one `Profile` message, one at a time.
struct Writer<'w> {
    out: &'w mut dyn Write,
    buffer: Vec<u8>,
    strings: Strings,
}

impl Writer<'_> {
    /// Writes `message` as field `tag` of the profile.
    fn message(&mut self, tag: u32, message: &impl Message) -> io::Result<()> {
        self.buffer.clear();
        prost::encoding::message::encode(tag, message, &mut self.buffer);
        self.out.write_all(&self.buffer)
    }

    fn value_type(&mut self, kind: &str, unit: &str) -> ValueType {
        ValueType {
            r#type: self.strings.id(kind),
            unit: self.strings.id(unit),
        }
    }

    fn text_label(&mut self, key: i64, value: &str) -> Label {
        Label {
            key,
            str: self.strings.id(value),
            ..Default::default()
        }
    }
}
