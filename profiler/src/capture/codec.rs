//! The recording file format, version 10: writer and bounded reader.
//!
//! ```text
//! magic "BEFTRACE"  version u16 LE
//! header     str path, u64 LE hash, uvar size, str work queue, str clock,
//!            uvar start (Unix ns), u8 values, u8 partial (version 3 on),
//!            u8 kept (version 6 on: 0 the first events, 1 the last),
//!            u8 completions recorded (version 7 on),
//!            u8 program left out (version 7 on),
//!            (version 9 on) str absolute program path,
//!            u8 stop reason [0 unknown, 1 completed, 2 interrupted, 3 duration,
//!                            4 error: str kernel, 5 slow: str kernel, uvar ns,
//!                            6 snapshot],
//!            uvar window (ns, 0: none), uvar n × source (str name, str text),
//!            (version 10 on) uvar value elements bound (0: short values only),
//!            uvar values recorded short
//! functions  (absent when the program was left out)
//!            uvar n × (str name, u8 kind, str signature (version 5 on),
//!                      uvar n × kernel (str name, uvar BEF offset, str location, uvar stream),
//!                      uvar n × register (uvar n × uvar user))
//! threads    uvar n × (str name, uvar dropped, uvar n × event)
//! event      u8 tag, svar time delta (from the thread's previous event), uvar execution,
//!            then by tag: 0 begin: uvar function, u8 has caller [uvar execution, uvar kernel]
//!                         1 end; 2 ready: uvar kernel; 3 start: uvar kernel
//!                         4 kernel end: uvar kernel, u8 skipped, uvar live values + 1 (0: none)
//!                         5 register: uvar register, uvar producer, u8 state, value
//!                         6 kernel work (version 4 on): uvar flops, uvar bytes
//!                         7 result available (version 7 on): as 5
//!                         8 value updated in place (version 8 on): uvar register,
//!                           uvar kernel, value
//! value      u8 0 none | 1 str | (version 10 on) 2 str, elements
//! elements   u8 0 dense: u8 BTF dtype code, uvar rank, rank × uvar dim,
//!                        uvar n, n bytes (the dims' product × the dtype's size)
//!            | 1 over the per-value bound: uvar elements, uvar bound
//!            | 2 over the recording's total | 3 being written
//! ```
//! `uvar` is unsigned LEB128, `svar` zigzag LEB128, `str` a `uvar` length
//! and UTF-8 bytes. Nothing may follow the last thread.
//!
//! The reader never trusts a count: each is checked against the bytes that
//! remain (every element takes at least one byte) before anything is
//! allocated, so reading needs memory proportional to the input. Errors
//! give what was expected and the byte offset. Each thread's events are
//! decoded once to check them and kept as their bytes
//! ([`crate::capture::events::Events`]), which the same per-event decoder
//! reads again on demand.

use std::sync::Arc;

use bef::btf::BtfDType;

use crate::capture::events::{Checkpoint, Events, STRIDE};
use crate::capture::recording::{
    CallerRef, EmbeddedSource, Event, EventKind, FunctionInfo, FunctionKind, Header, Keep,
    KernelInfo, RecordedValue, Recording, RegisterInfo, StopReason, TensorElements, ThreadTrack,
    ValueElements, ValueState,
};

/// The first bytes of every recording.
pub const MAGIC: &[u8; 8] = b"BEFTRACE";
/// The format version this crate writes. Version 2 added the value state
/// `Indirect` (byte 3), version 3 the header's partial flag (a version 1
/// or 2 recording is complete), version 4 the kernel work event (tag 6),
/// version 5 each function's signature (empty when read from older
/// versions), version 6 which events full buffers kept (the first ones in
/// older versions), version 7 the result-available event (tag 7) and the
/// header's flag saying such events were recorded (clear in older
/// versions, whose completions the model infers), and the flag saying the
/// program's table was left out (`--no-embed`), version 8 the event of a
/// value a kernel wrote in place (tag 8), version 9 the program's absolute
/// path, why the recording stopped, the `--window` and the embedded source
/// text, version 10 the elements of values recorded with `--values=full`
/// (value byte 2) and the header's bound and count of values left short.
pub const VERSION: u16 = 10;
/// The oldest format version this crate reads.
pub const OLDEST_VERSION: u16 = 1;

/// Why bytes are not a recording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a valid bef-trace recording: {message} at byte {offset}")]
pub struct ReadError {
    /// Where the problem is.
    pub offset: usize,
    /// What was expected.
    pub message: String,
}

/// Serializes `recording`, without the program's table when its header
/// says it was left out.
pub fn write(recording: &Recording) -> Vec<u8> {
    write_with(recording, !recording.header.program_left_out)
}

/// Serializes `recording`, with the program's table or (`embed_program`
/// false, `--no-embed`) without it, whatever its header says.
pub fn write_with(recording: &Recording, embed_program: bool) -> Vec<u8> {
    // Growing the buffer by doubling copied it again and again (a tenth
    // of writing a large recording): sized at once from what it holds.
    let mut w = Writer {
        out: Vec::with_capacity(size_estimate(recording, embed_program)),
    };
    w.bytes(MAGIC);
    w.bytes(&VERSION.to_le_bytes());
    let h = &recording.header;
    w.str(&h.program_path);
    w.bytes(&h.program_hash.to_le_bytes());
    w.uvar(h.program_size);
    w.str(&h.work_queue);
    w.str(&h.clock);
    w.uvar(h.start_unix_ns);
    w.byte(u8::from(h.values));
    w.byte(u8::from(h.partial));
    w.byte(match h.kept {
        Keep::First => 0,
        Keep::Last => 1,
    });
    w.byte(u8::from(h.completions_recorded));
    w.byte(u8::from(!embed_program));
    w.str(&h.program_path_absolute);
    write_stop(&mut w, &h.stop);
    w.uvar(h.window_ns);
    w.len(h.sources.len());
    for source in &h.sources {
        w.str(&source.name);
        w.str(&source.text);
    }
    w.uvar(h.value_elements);
    w.uvar(h.values_short);
    let functions = if embed_program {
        &recording.functions[..]
    } else {
        &[]
    };
    if embed_program {
        w.len(functions.len());
    }
    for f in functions {
        w.str(&f.name);
        w.byte(f.kind.to_u8());
        w.str(&f.signature);
        w.len(f.kernels.len());
        for k in &f.kernels {
            w.str(&k.name);
            w.uvar(k.bef_offset);
            w.str(&k.location);
            w.uvar(k.stream);
        }
        w.len(f.registers.len());
        for r in &f.registers {
            w.len(r.users.len());
            for &u in &r.users {
                w.uvar(u.into());
            }
        }
    }
    w.len(recording.threads.len());
    for t in &recording.threads {
        w.str(&t.name);
        w.uvar(t.dropped);
        w.len(t.events.len());
        // Held as the file encodes them: written as they are.
        w.bytes(t.events.bytes());
    }
    w.out
}

/// About the bytes [`write_with`] writes: a few bytes per event (most
/// take 5 to 8), and each kernel's name and location as they are.
fn size_estimate(recording: &Recording, embed_program: bool) -> usize {
    const BYTES_PER_KERNEL: usize = 8;
    let events: usize = recording
        .threads
        .iter()
        .map(|t| t.events.bytes().len() + t.name.len() + 20)
        .sum();
    let sources: usize = recording
        .header
        .sources
        .iter()
        .map(|s| s.name.len() + s.text.len() + 8)
        .sum();
    let table: usize = if embed_program {
        recording
            .functions
            .iter()
            .flat_map(|f| &f.kernels)
            .map(|k| k.name.len() + k.location.len() + BYTES_PER_KERNEL)
            .sum()
    } else {
        0
    };
    1024 + sources + table + events
}

fn write_stop(w: &mut Writer, stop: &StopReason) {
    match stop {
        StopReason::Unknown => w.byte(0),
        StopReason::Completed => w.byte(1),
        StopReason::Interrupted => w.byte(2),
        StopReason::Duration => w.byte(3),
        StopReason::Error { kernel } => {
            w.byte(4);
            w.str(kernel);
        }
        StopReason::Slow { kernel, nanos } => {
            w.byte(5);
            w.str(kernel);
            w.uvar(*nanos);
        }
        StopReason::Snapshot => w.byte(6),
    }
}

fn read_stop(r: &mut Reader<'_>) -> Result<StopReason, ReadError> {
    let at = r.at;
    Ok(match r.byte("a stop reason")? {
        0 => StopReason::Unknown,
        1 => StopReason::Completed,
        2 => StopReason::Interrupted,
        3 => StopReason::Duration,
        4 => StopReason::Error {
            kernel: r.str("the kernel that failed")?,
        },
        5 => StopReason::Slow {
            kernel: r.str("the slow kernel")?,
            nanos: r.uvar("the slow kernel's time")?,
        },
        6 => StopReason::Snapshot,
        _ => return Err(r.error_at(at, "a stop reason (0 to 6)")),
    })
}

/// Appends the encoding of `e`, whose thread's previous event was at
/// `previous`, to `out`: the one encoder of events, for files and for
/// [`Events`].
pub(crate) fn encode_event(out: &mut Vec<u8>, e: &Event, previous: u64) {
    let mut w = Writer {
        out: std::mem::take(out),
    };
    write_event(&mut w, e, previous);
    *out = w.out;
}

fn write_event(w: &mut Writer, e: &Event, previous: u64) {
    let tag = match e.kind {
        EventKind::FunctionBegin { .. } => 0,
        EventKind::FunctionEnd => 1,
        EventKind::KernelReady { .. } => 2,
        EventKind::KernelStart { .. } => 3,
        EventKind::KernelEnd { .. } => 4,
        EventKind::RegisterSet { .. } => 5,
        EventKind::KernelWork { .. } => 6,
        EventKind::ResultAvailable { .. } => 7,
        EventKind::ValueUpdated { .. } => 8,
    };
    w.byte(tag);
    w.svar(e.time.wrapping_sub(previous) as i64);
    w.uvar(e.execution);
    match &e.kind {
        EventKind::FunctionBegin { function, caller } => {
            w.uvar((*function).into());
            match caller {
                Some(c) => {
                    w.byte(1);
                    w.uvar(c.execution);
                    w.uvar(c.kernel.into());
                }
                None => w.byte(0),
            }
        }
        EventKind::FunctionEnd => {}
        EventKind::KernelReady { kernel } | EventKind::KernelStart { kernel } => {
            w.uvar((*kernel).into())
        }
        EventKind::KernelEnd {
            kernel,
            skipped,
            live_values,
        } => {
            w.uvar((*kernel).into());
            w.byte(u8::from(*skipped));
            // 0: not sampled; n + 1: n live values.
            w.uvar(live_values.map_or(0, |n| n.saturating_add(1)));
        }
        EventKind::RegisterSet {
            register,
            producer,
            state,
            value,
        }
        | EventKind::ResultAvailable {
            register,
            producer,
            state,
            value,
        } => {
            w.uvar((*register).into());
            w.uvar((*producer).into());
            w.byte(state.to_u8());
            write_value(w, value.as_ref());
        }
        EventKind::KernelWork { flops, bytes } => {
            w.uvar(*flops);
            w.uvar(*bytes);
        }
        EventKind::ValueUpdated {
            register,
            kernel,
            value,
        } => {
            w.uvar((*register).into());
            w.uvar((*kernel).into());
            write_value(w, value.as_ref());
        }
    }
}

/// A value: none, its text, or its text and elements.
fn write_value(w: &mut Writer, value: Option<&RecordedValue>) {
    let Some(v) = value else {
        w.byte(0);
        return;
    };
    w.byte(if v.elements.is_some() { 2 } else { 1 });
    w.str(&v.text);
    match v.elements.as_deref() {
        None => {}
        Some(ValueElements::Dense(t)) => {
            w.byte(0);
            w.byte(t.dtype.code());
            w.len(t.dims.len());
            for &d in &t.dims {
                w.uvar(d);
            }
            w.len(t.data.len());
            w.bytes(&t.data);
        }
        Some(ValueElements::OverValueBound { elements, bound }) => {
            w.byte(1);
            w.uvar(*elements);
            w.uvar(*bound);
        }
        Some(ValueElements::OverTotalBound) => w.byte(2),
        Some(ValueElements::BeingWritten) => w.byte(3),
    }
}

#[derive(Default)]
struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }
    fn byte(&mut self, b: u8) {
        self.out.push(b);
    }
    fn uvar(&mut self, mut v: u64) {
        loop {
            let low = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.out.push(low);
                return;
            }
            self.out.push(low | 0x80);
        }
    }
    fn svar(&mut self, v: i64) {
        self.uvar(((v << 1) ^ (v >> 63)) as u64);
    }
    fn len(&mut self, n: usize) {
        self.uvar(n as u64);
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.bytes(s.as_bytes());
    }
}

/// Reads a recording's header alone (what a viewer needs before the
/// events: the program's path and identity), checking what it reads.
pub fn read_header(bytes: &[u8]) -> Result<Header, ReadError> {
    let mut r = Reader { bytes, at: 0 };
    read_header_from(&mut r).map(|(header, _)| header)
}

fn read_header_from(r: &mut Reader<'_>) -> Result<(Header, u16), ReadError> {
    let magic = r.take(MAGIC.len(), "the magic \"BEFTRACE\"")?;
    if magic != MAGIC {
        return Err(r.error_at(0, "the magic \"BEFTRACE\""));
    }
    let version = u16::from_le_bytes(
        r.take(2, "the format version")?
            .try_into()
            .expect("two bytes"),
    );
    if !(OLDEST_VERSION..=VERSION).contains(&version) {
        return Err(r.error_at(
            8,
            &format!(
                "format version {OLDEST_VERSION} to {VERSION} (this file is version {version})"
            ),
        ));
    }
    let header = Header {
        program_path: r.str("the program path")?,
        program_hash: u64::from_le_bytes(
            r.take(8, "the program hash")?
                .try_into()
                .expect("eight bytes"),
        ),
        program_size: r.uvar("the program size")?,
        work_queue: r.str("the work queue")?,
        clock: r.str("the clock")?,
        start_unix_ns: r.uvar("the start time")?,
        values: r.flag("the values flag")?,
        partial: version >= 3 && r.flag("the partial flag")?,
        // 1: the last events were kept.
        kept: if version >= 6 && r.flag("which events were kept")? {
            Keep::Last
        } else {
            Keep::First
        },
        completions_recorded: version >= 7 && r.flag("the completions flag")?,
        program_left_out: version >= 7 && r.flag("the program-left-out flag")?,
        ..Header::default()
    };
    let mut header = header;
    if version >= 9 {
        header.program_path_absolute = r.str("the absolute program path")?;
        header.stop = read_stop(r)?;
        header.window_ns = r.uvar("the window")?;
        let n = r.count(2, "the source file count")?;
        header.sources.reserve_exact(n);
        for _ in 0..n {
            header.sources.push(EmbeddedSource {
                name: r.str("a source file name")?,
                text: r.str("a source file's text")?,
            });
        }
    }
    if version >= 10 {
        header.value_elements = r.uvar("the value elements bound")?;
        header.values_short = r.uvar("the count of values recorded short")?;
    }
    Ok((header, version))
}

/// Reads a recording, checking every count and index. Its events are
/// kept encoded, in a copy of `bytes` the threads share.
pub fn read(bytes: &[u8]) -> Result<Recording, ReadError> {
    read_owned(bytes.to_vec())
}

/// Reads the recording `bytes` hold, as [`read`] does, keeping the bytes
/// as the threads' encoded events rather than copying them: the events
/// of a recording read this way take the file's size in memory.
pub fn read_owned(bytes: Vec<u8>) -> Result<Recording, ReadError> {
    let buffer = Arc::new(bytes);
    let bytes = &buffer[..];
    let mut r = Reader { bytes, at: 0 };
    let (header, version) = read_header_from(&mut r)?;
    let mut functions = Vec::new();
    if !header.program_left_out {
        let n = r.count(4, "the function count")?;
        functions.reserve_exact(n);
        for _ in 0..n {
            functions.push(read_function(&mut r, version)?);
        }
    }
    // Without the table, function indices are checked when a program's
    // table is attached (`program_file::attach`).
    let function_count = (!header.program_left_out).then_some(functions.len());
    let n = r.count(3, "the thread count")?;
    let mut threads = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.str("a thread name")?;
        let dropped = r.uvar("a dropped-event count")?;
        let n = r.count(3, "an event count")?;
        // Each event is decoded once to check it, and kept as its bytes.
        let start = r.at;
        let mut checkpoints = Vec::with_capacity(n.div_ceil(STRIDE));
        let mut time = 0u64;
        for i in 0..n {
            if i % STRIDE == 0 {
                checkpoints.push(Checkpoint {
                    offset: r.at - start,
                    previous: time,
                });
            }
            time = read_event(&mut r, time, function_count, version)?.time;
        }
        let events = Events::shared(Arc::clone(&buffer), (start, r.at), n, time, checkpoints);
        threads.push(ThreadTrack {
            name,
            events,
            dropped,
        });
    }
    if r.at != bytes.len() {
        return Err(r.error("the end of the recording"));
    }
    Ok(Recording {
        header,
        functions,
        threads,
    })
}

fn read_function(r: &mut Reader<'_>, version: u16) -> Result<FunctionInfo, ReadError> {
    let name = r.str("a function name")?;
    let at = r.at;
    let kind = FunctionKind::from_u8(r.byte("a function kind")?)
        .ok_or_else(|| r.error_at(at, "a function kind (0, 1 or 2)"))?;
    let signature = if version >= 5 {
        r.str("a function signature")?
    } else {
        String::new()
    };
    let n = r.count(4, "a kernel count")?;
    let mut kernels = Vec::with_capacity(n);
    for _ in 0..n {
        kernels.push(KernelInfo {
            name: r.str("a kernel name")?,
            bef_offset: r.uvar("a BEF offset")?,
            location: r.str("a location")?,
            stream: r.uvar("a stream id")?,
        });
    }
    let n = r.count(1, "a register count")?;
    let mut registers = Vec::with_capacity(n);
    for _ in 0..n {
        let m = r.count(1, "a user count")?;
        let mut users = Vec::with_capacity(m);
        for _ in 0..m {
            let at = r.at;
            let user = r.u32("a user kernel")?;
            if user as usize >= kernels.len() {
                return Err(r.error_at(at, "a user kernel within the kernel table"));
            }
            users.push(user);
        }
        registers.push(RegisterInfo { users });
    }
    Ok(FunctionInfo {
        name,
        kind,
        kernels,
        registers,
        signature,
    })
}

fn read_event(
    r: &mut Reader<'_>,
    previous: u64,
    functions: Option<usize>,
    version: u16,
) -> Result<Event, ReadError> {
    let at = r.at;
    let tag = r.byte("an event tag")?;
    let delta = r.svar("a time delta")?;
    let time = previous.wrapping_add(delta as u64);
    let execution = r.uvar("an execution id")?;
    let kind = match tag {
        0 => {
            let fat = r.at;
            let function = r.u32("a function index")?;
            if functions.is_some_and(|n| function as usize >= n) {
                return Err(r.error_at(fat, "a function index within the program"));
            }
            let caller = if r.flag("a caller flag")? {
                Some(CallerRef {
                    execution: r.uvar("a caller execution")?,
                    kernel: r.u32("a caller kernel")?,
                })
            } else {
                None
            };
            EventKind::FunctionBegin { function, caller }
        }
        1 => EventKind::FunctionEnd,
        2 => EventKind::KernelReady {
            kernel: r.u32("a kernel index")?,
        },
        3 => EventKind::KernelStart {
            kernel: r.u32("a kernel index")?,
        },
        4 => EventKind::KernelEnd {
            kernel: r.u32("a kernel index")?,
            skipped: r.flag("a skipped flag")?,
            live_values: r.uvar("a live value count")?.checked_sub(1),
        },
        5 => {
            let (register, producer, state, value) = read_value_event(r, version)?;
            EventKind::RegisterSet {
                register,
                producer,
                state,
                value,
            }
        }
        6 if version >= 4 => EventKind::KernelWork {
            flops: r.uvar("a count of operations")?,
            bytes: r.uvar("a count of bytes")?,
        },
        7 if version >= 7 => {
            let (register, producer, state, value) = read_value_event(r, version)?;
            EventKind::ResultAvailable {
                register,
                producer,
                state,
                value,
            }
        }
        8 if version >= 8 => EventKind::ValueUpdated {
            register: r.u32("a register")?,
            kernel: r.u32("a kernel index")?,
            value: read_rendering(r, version)?,
        },
        _ => {
            let last = match version {
                ..4 => 5,
                4..7 => 6,
                7 => 7,
                _ => 8,
            };
            return Err(r.error_at(at, &format!("an event tag (0 to {last})")));
        }
    };
    Ok(Event {
        time,
        execution,
        kind,
    })
}

/// Decodes the event at `r`, the thread's previous event at `previous`,
/// from bytes [`read`] validated (or [`encode_event`] wrote): the one
/// decoder of events, for files and for [`Events`].
pub(crate) fn decode_event(r: &mut Reader<'_>, previous: u64) -> Result<Event, ReadError> {
    read_event(r, previous, None, VERSION)
}

/// What a register event and a result-available event carry: register,
/// producer, state and rendering.
fn read_value_event(
    r: &mut Reader<'_>,
    version: u16,
) -> Result<(u32, u32, ValueState, Option<RecordedValue>), ReadError> {
    let register = r.u32("a register")?;
    let producer = r.u32("a producer kernel")?;
    let sat = r.at;
    let state = ValueState::from_u8(r.byte("a value state")?)
        .ok_or_else(|| r.error_at(sat, "a value state (0 to 3)"))?;
    let value = read_rendering(r, version)?;
    Ok((register, producer, state, value))
}

/// A value's rendering, if the event carries one.
fn read_rendering(r: &mut Reader<'_>, version: u16) -> Result<Option<RecordedValue>, ReadError> {
    let at = r.at;
    let with_elements = match r.byte("a value flag")? {
        0 => return Ok(None),
        1 => false,
        2 if version >= 10 => true,
        _ if version >= 10 => return Err(r.error_at(at, "a value flag (0, 1 or 2)")),
        _ => return Err(r.error_at(at, "a value flag (0 or 1)")),
    };
    let text = r.str("a value")?;
    let elements = if with_elements {
        Some(Arc::new(read_elements(r)?))
    } else {
        None
    };
    Ok(Some(RecordedValue { text, elements }))
}

/// A value's elements (version 10 on), each length checked against the
/// bytes left before anything is allocated for it.
fn read_elements(r: &mut Reader<'_>) -> Result<ValueElements, ReadError> {
    let at = r.at;
    Ok(match r.byte("an elements kind")? {
        0 => {
            let dat = r.at;
            let dtype = BtfDType::from_code(r.byte("an element type")?)
                .ok_or_else(|| r.error_at(dat, "an element type (a BTF dtype code, 0 to 9)"))?;
            let rank = r.count(1, "a tensor rank")?;
            let mut dims = Vec::with_capacity(rank);
            for _ in 0..rank {
                dims.push(r.uvar("a dimension")?);
            }
            let lat = r.at;
            let n = r.count(1, "an element byte count")?;
            let data = r.take(n, "the elements")?.to_vec();
            let elements = TensorElements { dtype, dims, data };
            if !elements.consistent() {
                return Err(r.error_at(
                    lat,
                    &format!(
                        "{} bytes of elements for dims {:?} of {}",
                        n,
                        elements.dims,
                        dtype.name()
                    ),
                ));
            }
            ValueElements::Dense(elements)
        }
        1 => ValueElements::OverValueBound {
            elements: r.uvar("an element count")?,
            bound: r.uvar("an element bound")?,
        },
        2 => ValueElements::OverTotalBound,
        3 => ValueElements::BeingWritten,
        _ => return Err(r.error_at(at, "an elements kind (0 to 3)")),
    })
}

/// A position in bytes being read, each read checked against the end.
#[derive(Clone)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// At the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// Moves to byte `at` (the end, if past it).
    pub(crate) fn seek(&mut self, at: usize) {
        self.at = at.min(self.bytes.len());
    }

    /// The position.
    pub(crate) fn at(&self) -> usize {
        self.at
    }

    fn error(&self, expected: &str) -> ReadError {
        self.error_at(self.at, expected)
    }

    fn error_at(&self, offset: usize, expected: &str) -> ReadError {
        ReadError {
            offset,
            message: format!("expected {expected}"),
        }
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ReadError> {
        if n > self.remaining() {
            return Err(self.error(&format!("{what} ({n} bytes; the file ends first)")));
        }
        let slice = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(slice)
    }

    fn byte(&mut self, what: &str) -> Result<u8, ReadError> {
        // Most reads are one byte: without a slice taken for it.
        match self.bytes.get(self.at) {
            Some(&b) => {
                self.at += 1;
                Ok(b)
            }
            None => Ok(self.take(1, what)?[0]),
        }
    }

    fn flag(&mut self, what: &str) -> Result<bool, ReadError> {
        let at = self.at;
        match self.byte(what)? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self.error_at(at, &format!("{what} (0 or 1)"))),
        }
    }

    fn uvar(&mut self, what: &str) -> Result<u64, ReadError> {
        // Most numbers of a recording fit in one byte.
        if let Some(&b) = self.bytes.get(self.at)
            && b < 0x80
        {
            self.at += 1;
            return Ok(u64::from(b));
        }
        let start = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(what)?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                break;
            }
            value |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error_at(start, &format!("{what} (a LEB128 number below 2^64)")))
    }

    fn svar(&mut self, what: &str) -> Result<i64, ReadError> {
        let v = self.uvar(what)?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    fn u32(&mut self, what: &str) -> Result<u32, ReadError> {
        let at = self.at;
        let v = self.uvar(what)?;
        u32::try_from(v).map_err(|_| self.error_at(at, &format!("{what} (below 2^32)")))
    }

    /// A count of elements that each take at least `min_bytes`, checked
    /// against what remains before the caller allocates for it.
    fn count(&mut self, min_bytes: usize, what: &str) -> Result<usize, ReadError> {
        let at = self.at;
        let n = self.uvar(what)?;
        let fits = usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(min_bytes))
            .is_some_and(|need| need <= self.remaining());
        if !fits {
            return Err(self.error_at(
                at,
                &format!(
                    "{what} that fits in the {} bytes left (found {n})",
                    self.remaining()
                ),
            ));
        }
        Ok(n as usize)
    }

    fn str(&mut self, what: &str) -> Result<String, ReadError> {
        let n = self.count(1, what)?;
        let at = self.at;
        let bytes = self.take(n, what)?;
        std::str::from_utf8(bytes)
            .map(str::to_owned)
            .map_err(|e| self.error_at(at + e.valid_up_to(), &format!("{what} in UTF-8")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Recording {
        Recording {
            header: Header {
                program_path: "p.mlir".into(),
                program_hash: 0x1234_5678_9abc_def0,
                program_size: 100,
                work_queue: "mstd:2".into(),
                clock: "monotonic".into(),
                start_unix_ns: 1_700_000_000_000_000_000,
                values: true,
                partial: true,
                kept: Keep::First,
                completions_recorded: true,
                program_left_out: false,
                ..Header::default()
            },
            functions: vec![FunctionInfo {
                name: "main".into(),
                kind: FunctionKind::Bef,
                kernels: vec![
                    KernelInfo {
                        name: "(arguments)".into(),
                        ..Default::default()
                    },
                    KernelInfo {
                        name: "tfrt.constant.i32".into(),
                        bef_offset: 77,
                        location: "\"p.mlir\":2:3".into(),
                        stream: 1,
                    },
                ],
                registers: vec![RegisterInfo { users: vec![1, 1] }],
                signature: "(sint32) -> () [I6!S3!t6R1!]".into(),
            }],
            threads: vec![ThreadTrack {
                name: "main".into(),
                dropped: 3,
                events: vec![
                    Event {
                        time: 10,
                        execution: 1,
                        kind: EventKind::FunctionBegin {
                            function: 0,
                            caller: Some(CallerRef {
                                execution: 9,
                                kernel: 4,
                            }),
                        },
                    },
                    Event {
                        time: 5,
                        execution: 1,
                        kind: EventKind::RegisterSet {
                            register: 0,
                            producer: 1,
                            state: ValueState::Error,
                            value: Some("boom".into()),
                        },
                    },
                    Event {
                        time: 6,
                        execution: 1,
                        kind: EventKind::ResultAvailable {
                            register: 0,
                            producer: 1,
                            state: ValueState::Concrete,
                            value: Some("7".into()),
                        },
                    },
                    Event {
                        time: 7,
                        execution: 0,
                        kind: EventKind::KernelWork {
                            flops: 2 * 64 * 64 * 64,
                            bytes: u64::MAX,
                        },
                    },
                    Event {
                        time: 8,
                        execution: 1,
                        kind: EventKind::ValueUpdated {
                            register: 0,
                            kernel: 1,
                            value: Some("f32[2] [0.0, 1.0]".into()),
                        },
                    },
                    Event {
                        time: u64::MAX,
                        execution: u64::MAX,
                        kind: EventKind::KernelEnd {
                            kernel: 1,
                            skipped: true,
                            live_values: Some(12),
                        },
                    },
                ]
                .into(),
            }],
        }
    }

    #[test]
    fn round_trips() {
        let recording = sample();
        let bytes = write(&recording);
        assert_eq!(read(&bytes).unwrap(), recording);
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = write(&sample());
        for len in 0..bytes.len() {
            let err = read(&bytes[..len]).unwrap_err();
            assert!(err.offset <= len, "{err}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(read(&longer).unwrap_err().offset, bytes.len());
    }

    #[test]
    fn huge_counts_are_refused_before_allocating() {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        // Empty path, hash, size 0, empty queue and clock, start 0, no
        // values, complete, the first events kept, no completions, the
        // program's table in the file, no absolute path, no stop reason,
        // no window, no source, no value bound, no values short.
        bytes.extend_from_slice(&[0; 24]);
        // A function count of 2^63.
        bytes.extend_from_slice(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
        let err = read(&bytes).unwrap_err();
        assert!(err.message.contains("function count"), "{err}");
    }

    /// `sample()` without what version 8 added: the events of values
    /// updated in place.
    fn before_version_8() -> Recording {
        let mut recording = sample();
        recording.threads[0]
            .events
            .retain(|e| !matches!(e.kind, EventKind::ValueUpdated { .. }));
        recording
    }

    /// The bytes of a recording whose version 9 and 10 fields are empty
    /// as version 8 wrote them: without those fields.
    fn before_version_9(bytes: Vec<u8>) -> Vec<u8> {
        let mut bytes = before_version_10(bytes);
        assert_eq!(&bytes[KEPT + 3..KEPT + 7], [0, 0, 0, 0], "version 9 fields");
        bytes.drain(KEPT + 3..KEPT + 7);
        bytes
    }

    /// The bytes of a recording of a program without source and values
    /// recorded short as version 9 wrote them: without the header's
    /// value bound and count.
    fn before_version_10(mut bytes: Vec<u8>) -> Vec<u8> {
        assert_eq!(&bytes[KEPT + 7..KEPT + 9], [0, 0], "version 10 fields");
        bytes.drain(KEPT + 7..KEPT + 9);
        bytes[8] = 9;
        bytes
    }

    /// `sample()` with a value recorded in full and one left short.
    fn with_elements() -> Recording {
        let mut recording = sample();
        recording.header.value_elements = 4;
        recording.header.values_short = 1;
        let mut events = recording.threads[0].events.to_vec();
        let data: Vec<u8> = [1.5f32, -2.0, 3.25, 0.0, 7.0, 8.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        if let EventKind::ValueUpdated { value, .. } = &mut events[4].kind {
            *value = Some(RecordedValue {
                text: "f32[2,3] [1.5, -2.0, …]".into(),
                elements: Some(Arc::new(ValueElements::Dense(TensorElements {
                    dtype: BtfDType::F32,
                    dims: vec![2, 3],
                    data,
                }))),
            });
        }
        if let EventKind::ResultAvailable { value, .. } = &mut events[2].kind {
            *value = Some(RecordedValue {
                text: "f32[100] [0.0, …]".into(),
                elements: Some(Arc::new(ValueElements::OverValueBound {
                    elements: 100,
                    bound: 4,
                })),
            });
        }
        recording.threads[0].events = events.into();
        recording
    }

    #[test]
    fn values_in_full_round_trip_and_every_truncation_is_an_error() {
        let recording = with_elements();
        let bytes = write(&recording);
        assert_eq!(read(&bytes).unwrap(), recording);
        for len in 0..bytes.len() {
            assert!(read(&bytes[..len]).is_err(), "{len} bytes");
        }
    }

    #[test]
    fn version_9_recordings_still_read() {
        let recording = sample();
        let bytes = before_version_10(write(&recording));
        assert_eq!(read(&bytes).unwrap(), recording);
    }

    #[test]
    fn elements_need_version_10() {
        let mut recording = with_elements();
        recording.header.value_elements = 0;
        recording.header.values_short = 0;
        let bytes = before_version_10(write(&recording));
        let err = read(&bytes).unwrap_err();
        assert!(err.message.contains("a value flag (0 or 1)"), "{err}");
    }

    #[test]
    fn element_bytes_that_disagree_with_the_shape_are_refused() {
        let recording = with_elements();
        let mut bytes = write(&recording);
        // The dims [2, 3] of f32 need 24 bytes: say 2 × 2 instead.
        let text = "f32[2,3] [1.5, -2.0, …]".as_bytes();
        let at = bytes
            .windows(text.len())
            .position(|w| w == text)
            .expect("the rendering")
            + text.len();
        assert_eq!(
            &bytes[at..at + 5],
            &[0, 4, 2, 2, 3],
            "kind, dtype, rank, dims"
        );
        bytes[at + 4] = 2;
        let err = read(&bytes).unwrap_err();
        assert!(
            err.message.contains("24 bytes of elements for dims [2, 2]"),
            "{err}"
        );
        // A byte count past the end is refused before anything is taken.
        let mut bytes = write(&recording);
        bytes[at + 5] = 0x7f;
        let err = read(&bytes).unwrap_err();
        assert!(err.message.contains("element byte count"), "{err}");
    }

    #[test]
    fn version_8_recordings_still_read() {
        let recording = sample();
        let mut bytes = before_version_9(write(&recording));
        bytes[8] = 8;
        assert_eq!(read(&bytes).unwrap(), recording);
    }

    #[test]
    fn stop_reasons_paths_windows_and_sources_round_trip() {
        let mut recording = sample();
        recording.header.program_path_absolute = "/home/me/p.mlir".into();
        recording.header.window_ns = 100_000_000;
        recording.header.sources = vec![EmbeddedSource {
            name: "p.mlir".into(),
            text: "func.func @main() {\n}\n".into(),
        }];
        for stop in [
            StopReason::Unknown,
            StopReason::Completed,
            StopReason::Interrupted,
            StopReason::Duration,
            StopReason::Error {
                kernel: "tfrt_test.fail".into(),
            },
            StopReason::Slow {
                kernel: "tfrt_test.usleep".into(),
                nanos: 12_345_678,
            },
            StopReason::Snapshot,
        ] {
            recording.header.stop = stop;
            let bytes = write(&recording);
            assert_eq!(read(&bytes).unwrap(), recording);
            assert_eq!(read_header(&bytes).unwrap(), recording.header);
            for len in 0..bytes.len() {
                assert!(read(&bytes[..len]).is_err(), "{len} bytes");
            }
        }
        let mut bytes = write(&recording);
        let at = KEPT + 3 + 1 + recording.header.program_path_absolute.len();
        assert_eq!(bytes[at], 6, "the snapshot reason");
        bytes[at] = 7;
        let err = read(&bytes).unwrap_err();
        assert_eq!(err.offset, at);
        assert!(err.message.contains("a stop reason (0 to 6)"), "{err}");
    }

    #[test]
    fn version_7_recordings_still_read() {
        let recording = before_version_8();
        let mut bytes = before_version_9(write(&recording));
        bytes[8] = 7;
        assert_eq!(read(&bytes).unwrap(), recording);
    }

    #[test]
    fn value_updated_needs_version_8() {
        let mut bytes = before_version_9(write(&sample()));
        bytes[8] = 7;
        let err = read(&bytes).unwrap_err();
        assert!(err.message.contains("an event tag (0 to 7)"), "{err}");
    }

    /// `sample()` without what version 7 added: the result-available
    /// events, and the flag saying they were recorded.
    fn before_version_7() -> Recording {
        let mut recording = before_version_8();
        recording.header.completions_recorded = false;
        recording.threads[0]
            .events
            .retain(|e| !matches!(e.kind, EventKind::ResultAvailable { .. }));
        recording
    }

    #[test]
    fn version_2_recordings_still_read_as_complete() {
        let mut recording = before_version_7();
        recording.header.partial = false;
        // Nor had version 2 the work event or the signatures.
        recording.threads[0]
            .events
            .retain(|e| !matches!(e.kind, EventKind::KernelWork { .. }));
        recording.functions[0].signature.clear();
        let mut bytes = without_signature(write(&recording));
        // Version 2: no partial flag after the values flag.
        bytes[8] = 2;
        let flag = 10 + 1 + 6 + 8 + 1 + 1 + 6 + 1 + 9 + 9 + 1;
        assert_eq!(&bytes[flag - 1..flag + 1], &[1, 0], "values, partial");
        bytes.remove(flag);
        assert_eq!(read(&bytes).unwrap(), recording);
    }

    /// Where the kept flag of `sample()` is: after the values and partial
    /// flags.
    const KEPT: usize = 10 + 1 + 6 + 8 + 1 + 1 + 6 + 1 + 9 + 9 + 1 + 1;

    /// The bytes of `before_version_7()` (its signature emptied) without
    /// the signature field versions before 5 do not have, nor the kept flag
    /// versions before 6 do not have, nor the completions flag versions
    /// before 7 do not have.
    fn without_signature(bytes: Vec<u8>) -> Vec<u8> {
        let mut bytes = without_completions_flag(bytes);
        assert_eq!(bytes[KEPT], 0, "the kept flag");
        bytes.remove(KEPT);
        let at = bytes
            .windows(7)
            .position(|w| w == b"\x04main\x00\x00")
            .expect("the function entry")
            + 6;
        bytes.remove(at);
        bytes
    }

    /// The bytes of `before_version_7()` as version 6 wrote them: without
    /// the completions and program-left-out flags.
    fn without_completions_flag(bytes: Vec<u8>) -> Vec<u8> {
        let mut bytes = before_version_9(bytes);
        assert_eq!(&bytes[KEPT + 1..KEPT + 3], [0, 0], "the version 7 flags");
        bytes.drain(KEPT + 1..KEPT + 3);
        bytes
    }

    #[test]
    fn a_recording_may_leave_its_program_out() {
        let recording = sample();
        let bytes = write_with(&recording, false);
        assert!(bytes.len() < write(&recording).len());
        let read_back = read(&bytes).unwrap();
        assert!(read_back.header.program_left_out);
        assert!(read_back.functions.is_empty());
        assert_eq!(read_back.threads, recording.threads);
        // Its header says so: it writes back the same.
        assert_eq!(write(&read_back), bytes);
        for len in 0..bytes.len() {
            assert!(read(&bytes[..len]).is_err(), "{len} bytes");
        }
    }

    #[test]
    fn without_the_program_function_indices_wait_for_it() {
        let mut recording = sample();
        recording.header.program_left_out = true;
        recording.functions.clear();
        // Function 0 of a table the file does not have: checked when a
        // table is attached, not here.
        assert_eq!(read(&write(&recording)).unwrap(), recording);
    }

    #[test]
    fn version_6_recordings_read_with_completions_left_to_infer() {
        let recording = before_version_7();
        let mut bytes = without_completions_flag(write(&recording));
        bytes[8] = 6;
        assert_eq!(read(&bytes).unwrap(), recording);
    }

    #[test]
    fn result_available_needs_version_7() {
        let mut recording = sample();
        recording.header.completions_recorded = false;
        let mut bytes = without_completions_flag(write(&recording));
        bytes[8] = 6;
        let err = read(&bytes).unwrap_err();
        assert!(err.message.contains("an event tag (0 to 6)"), "{err}");
    }

    #[test]
    fn a_completions_flag_other_than_0_or_1_is_refused() {
        let mut bytes = write(&sample());
        bytes[KEPT + 1] = 2;
        let err = read(&bytes).unwrap_err();
        assert_eq!(err.offset, KEPT + 1);
        assert!(err.message.contains("completions flag"), "{err}");
    }

    #[test]
    fn version_4_recordings_read_without_signatures() {
        let mut recording = before_version_7();
        recording.functions[0].signature.clear();
        let mut bytes = without_signature(write(&recording));
        bytes[8] = 4;
        assert_eq!(read(&bytes).unwrap(), recording);
    }

    #[test]
    fn kernel_work_needs_version_4() {
        let mut recording = before_version_7();
        recording.functions[0].signature.clear();
        let mut old = without_signature(write(&recording));
        old[8] = 3;
        let err = read(&old).unwrap_err();
        assert!(err.message.contains("an event tag (0 to 5)"), "{err}");
    }

    #[test]
    fn which_events_were_kept_round_trips_and_defaults_to_the_first() {
        let mut recording = sample();
        recording.header.kept = Keep::Last;
        assert_eq!(read(&write(&recording)).unwrap(), recording);
        let mut recording = before_version_7();
        recording.functions[0].signature.clear();
        let mut old = without_signature(write(&recording));
        old[8] = 5;
        // Version 5 has the signature field back.
        let at = old
            .windows(6)
            .position(|w| w == b"\x04main\x00")
            .expect("the function entry")
            + 6;
        old.insert(at, 0);
        assert_eq!(read(&old).unwrap(), recording);
    }

    #[test]
    fn a_kept_flag_other_than_0_or_1_is_refused() {
        let mut bytes = write(&sample());
        bytes[KEPT] = 2;
        let err = read(&bytes).unwrap_err();
        assert_eq!(err.offset, KEPT);
        assert!(err.message.contains("which events were kept"), "{err}");
    }

    #[test]
    fn wrong_version_is_named() {
        let mut bytes = write(&sample());
        bytes[8] = 11;
        let err = read(&bytes).unwrap_err();
        assert_eq!(err.offset, 8);
        assert!(err.message.contains("version 11"), "{err}");
    }
}
