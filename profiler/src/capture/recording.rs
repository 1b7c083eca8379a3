//! What a recording holds, in memory: the header (program identity, work
//! queue, clock), the program's static structure (functions, kernels and
//! who reads each register) and, per thread, the events in the order that
//! thread emitted them. [`crate::capture::codec`] reads and writes it.

use std::sync::Arc;

pub use crate::capture::events::Events;
pub use crate::capture::log::Keep;

/// How a function runs (mirrors `bef::format::FunctionKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// The asynchronous dataflow executor.
    Bef,
    /// Host code without a kernel table (its body is kernel 0).
    Native,
    /// The sync interpreter.
    Sync,
}

impl FunctionKind {
    /// The kind's byte in a recording.
    pub fn to_u8(self) -> u8 {
        match self {
            FunctionKind::Bef => 0,
            FunctionKind::Native => 1,
            FunctionKind::Sync => 2,
        }
    }

    /// The kind with byte `byte`.
    pub fn from_u8(byte: u8) -> Option<FunctionKind> {
        match byte {
            0 => Some(FunctionKind::Bef),
            1 => Some(FunctionKind::Native),
            2 => Some(FunctionKind::Sync),
            _ => None,
        }
    }
}

impl From<bef::format::FunctionKind> for FunctionKind {
    fn from(kind: bef::format::FunctionKind) -> Self {
        match kind {
            bef::format::FunctionKind::Bef => FunctionKind::Bef,
            bef::format::FunctionKind::Native => FunctionKind::Native,
            bef::format::FunctionKind::Sync => FunctionKind::Sync,
        }
    }
}

/// The state a register's value had when it was published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueState {
    /// Not yet available (published at once because nothing reads it).
    Unavailable,
    /// Available with a payload.
    Concrete,
    /// Available with an error.
    Error,
    /// An indirect value not yet forwarded to the value it will stand for
    /// (a call's result that the callee sets later), published at once
    /// because nothing reads the register.
    Indirect,
}

impl ValueState {
    /// The state's byte in a recording.
    pub fn to_u8(self) -> u8 {
        match self {
            ValueState::Unavailable => 0,
            ValueState::Concrete => 1,
            ValueState::Error => 2,
            ValueState::Indirect => 3,
        }
    }

    /// The state with byte `byte`.
    pub fn from_u8(byte: u8) -> Option<ValueState> {
        match byte {
            0 => Some(ValueState::Unavailable),
            1 => Some(ValueState::Concrete),
            2 => Some(ValueState::Error),
            3 => Some(ValueState::Indirect),
            _ => None,
        }
    }
}

impl ValueState {
    /// The state of `value`, as a register shows it.
    pub fn of(value: &bef::runtime::AsyncValue) -> ValueState {
        let state = value.state();
        if !state.is_available() && value.kind() == bef::runtime::AsyncValueKind::Indirect {
            return ValueState::Indirect;
        }
        ValueState::from(state)
    }
}

impl From<bef::runtime::AsyncState> for ValueState {
    fn from(state: bef::runtime::AsyncState) -> Self {
        match state {
            bef::runtime::AsyncState::Concrete => ValueState::Concrete,
            bef::runtime::AsyncState::Error => ValueState::Error,
            _ => ValueState::Unavailable,
        }
    }
}

/// Who made the recording, of what, and how.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// The program file as given on the command line.
    pub program_path: String,
    /// FNV-1a 64 hash of the BEF bytes that ran (the file's own, or its
    /// translation): two recordings with the same hash ran the same program.
    pub program_hash: u64,
    /// The number of BEF bytes.
    pub program_size: u64,
    /// The work queue (`s`, `mstd:2`, ...).
    pub work_queue: String,
    /// The clock the event times come from, as a description.
    pub clock: String,
    /// Wall-clock time of time 0, in nanoseconds since the Unix epoch.
    pub start_unix_ns: u64,
    /// Whether register events carry a rendering of their value.
    pub values: bool,
    /// `--values=full`: the per-value bound on the elements recorded of a
    /// dense tensor (version 10 on; 0: values recorded short only).
    pub value_elements: u64,
    /// With `--values=full`, the tensors recorded short because they were
    /// over the per-value bound, over the recording's total, or being
    /// written when recorded (version 10 on).
    pub values_short: u64,
    /// Whether the run was stopped before it ended (interrupted, or out
    /// of time): what had not run yet is missing.
    pub partial: bool,
    /// Which events the threads' buffers kept when they filled: with
    /// [`Keep::First`] the dropped events are the last of a thread, with
    /// [`Keep::Last`] its first (the start of the run is missing).
    pub kept: Keep,
    /// Whether results that became available after their kernel returned
    /// were recorded as [`EventKind::ResultAvailable`] events. Recordings
    /// made before (format versions up to 6) leave the model to infer
    /// those completions from when the values were published.
    pub completions_recorded: bool,
    /// Whether the program's table ([`Recording::functions`]) was left out
    /// of the file (`bef-trace record --no-embed`): the recording keeps the
    /// program's path, hash and size, and a reader takes the table from
    /// the program file, checked against the hash
    /// ([`crate::capture::program_file`]).
    pub program_left_out: bool,
    /// The program file made absolute when it was recorded (version 9 on;
    /// empty before): a reader looks there when the path as given
    /// ([`program_path`](Self::program_path)) does not lead to it.
    pub program_path_absolute: String,
    /// Why the recording ended (version 9 on; [`StopReason::Unknown`]
    /// before).
    pub stop: StopReason,
    /// `--window`: the nanoseconds of events each thread kept before the
    /// end (or the stop); 0 when every event that fitted was kept.
    pub window_ns: u64,
    /// The source text the program's locations point into, kept so that
    /// a recording read elsewhere still shows it (version 9 on; left out
    /// with `--no-source`).
    pub sources: Vec<EmbeddedSource>,
}

/// A source file kept in a recording: the name the program's locations
/// use for it, and its text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EmbeddedSource {
    /// The file name as the locations spell it (the program's path as
    /// given, for MLIR text).
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// Why a recording ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum StopReason {
    /// Not said: the recording is older than format version 9.
    #[default]
    Unknown,
    /// The functions ran to their end.
    Completed,
    /// Interrupted (Ctrl-C).
    Interrupted,
    /// `--duration` ran out.
    Duration,
    /// `--stop-on error`: the first kernel error, in kernel `kernel`.
    Error {
        /// The kernel whose result was the error (`NAME#INDEX`).
        kernel: String,
    },
    /// `--stop-on slow:PATTERN>TIME`: kernel `kernel` ran `nanos`.
    Slow {
        /// The kernel that ran too long (`NAME#INDEX`).
        kernel: String,
        /// How long it ran, in nanoseconds.
        nanos: u64,
    },
    /// A snapshot (SIGUSR1) taken while the run went on.
    Snapshot,
}

impl std::fmt::Display for StopReason {
    /// In words; names are shown as recorded, so whoever prints this to a
    /// terminal escapes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Unknown => f.write_str("not recorded"),
            StopReason::Completed => f.write_str("completed"),
            StopReason::Interrupted => f.write_str("interrupted"),
            StopReason::Duration => f.write_str("--duration ran out"),
            StopReason::Error { kernel } => write!(f, "error at kernel {kernel}"),
            StopReason::Slow { kernel, nanos } => {
                write!(f, "slow kernel {kernel} took {:.3} ms", *nanos as f64 / 1e6)
            }
            StopReason::Snapshot => f.write_str("snapshot of a run still going"),
        }
    }
}

/// A kernel of a function, as the BEF file describes it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KernelInfo {
    /// The kernel's name (`tfrt.add.i32`; `(arguments)` for the pseudo
    /// kernel; the function's name for a native function's body).
    pub name: String,
    /// The byte offset of the kernel's record in the BEF file.
    pub bef_offset: u64,
    /// The source location, as MLIR prints it; empty when unknown.
    pub location: String,
    /// The stream id of the kernel-table row.
    pub stream: u64,
}

/// A register of a function: which kernels read it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RegisterInfo {
    /// The kernels reading it, once per operand.
    pub users: Vec<u32>,
}

/// A function of the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionInfo {
    /// The name. A region's anonymous function is named by the kernel that
    /// owns it (`bef::inspect::Listing::region_names`); recordings made
    /// before that leave it empty.
    pub name: String,
    /// How it runs.
    pub kind: FunctionKind,
    /// The kernel table (empty for native functions).
    pub kernels: Vec<KernelInfo>,
    /// The registers (empty for native functions).
    pub registers: Vec<RegisterInfo>,
    /// Its signature, readable then mangled (`(sint32) -> (sint32)
    /// [I6!S3!t6R6!S3!t6]`; the structure instead of the raw types when
    /// the function has signature metadata); empty for the body of a
    /// region, and in recordings older than version 5.
    pub signature: String,
}

/// A thread that emitted events.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ThreadTrack {
    /// The thread's name (`main`, a worker's name), or `thread-N`.
    pub name: String,
    /// The events, in the order the thread emitted them, encoded (see
    /// [`Events`]).
    pub events: Events,
    /// Events lost because the thread's buffer was full.
    pub dropped: u64,
}

/// One event: when, in which execution, what.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Nanoseconds since the recording started.
    pub time: u64,
    /// The execution (see `bef::exec::ExecutionId`).
    pub execution: u64,
    /// What happened.
    pub kind: EventKind,
}

/// A calling kernel: kernel `kernel` of execution `execution`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CallerRef {
    /// The calling kernel's execution.
    pub execution: u64,
    /// Its index in its function's kernel table.
    pub kernel: u32,
}

/// What an [`Event`] reports (the observer's events, with names left to
/// the program table).
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// An execution of function `function` began, run by `caller`.
    FunctionBegin {
        /// Index into [`Recording::functions`].
        function: u32,
        /// The kernel that ran it; `None` for a call from the host.
        caller: Option<CallerRef>,
    },
    /// The execution ended.
    FunctionEnd,
    /// A kernel's operands are all available.
    KernelReady {
        /// The kernel's index.
        kernel: u32,
    },
    /// A kernel started.
    KernelStart {
        /// The kernel's index.
        kernel: u32,
    },
    /// A kernel returned.
    KernelEnd {
        /// The kernel's index.
        kernel: u32,
        /// It was skipped (an error argument or cancellation).
        skipped: bool,
        /// Async values alive in the process when it returned, sampled
        /// (reading the count takes a lock): at most one sample per
        /// thread every [`LIVE_SAMPLE_NS`](crate::capture::recorder::LIVE_SAMPLE_NS).
        live_values: Option<u64>,
    },
    /// A value was published into a register.
    RegisterSet {
        /// The register.
        register: u32,
        /// The kernel that produced it (0: an argument).
        producer: u32,
        /// Its state.
        state: ValueState,
        /// A short rendering (recorded with `--values`, and for errors),
        /// with `--values=full` a dense tensor's elements.
        value: Option<RecordedValue>,
    },
    /// A result that was unavailable when its kernel returned became
    /// available: on this event's thread (the one that completed it: the
    /// blocking pool's, a worker's, a callee's), at this event's time. A
    /// result something reads is published ([`EventKind::RegisterSet`])
    /// after; one nothing reads was published before, unavailable, and
    /// its completion may follow the execution's end.
    ResultAvailable {
        /// The register.
        register: u32,
        /// The kernel that produced it.
        producer: u32,
        /// Its state: concrete or error.
        state: ValueState,
        /// A short rendering (recorded with `--values`, and for errors),
        /// with `--values=full` a dense tensor's elements.
        value: Option<RecordedValue>,
    },
    /// Kernel `kernel` wrote the value in `register` in place (a tensor it
    /// took as an operand: `tfrt_test.relu_inplace`, a matrix product's
    /// output): the register holds the same value, changed. Recorded with
    /// `--values` only, when the kernel returned, or when its writes left
    /// to queued tasks were done (at the completion of its result, on that
    /// thread).
    ValueUpdated {
        /// The register holding the value written.
        register: u32,
        /// The kernel that wrote it.
        kernel: u32,
        /// The value as the kernel left it (see [`RecordedValue`]).
        value: Option<RecordedValue>,
    },
    /// The kernel running innermost on the thread reported the work it did
    /// (see `bef::exec::observer`'s Kernel work); the event's execution is
    /// 0, the thread's open kernels tell which run it belongs to.
    KernelWork {
        /// Arithmetic operations (2·M·N·K for a matrix product).
        flops: u64,
        /// Bytes of tensor data read and written.
        bytes: u64,
    },
}

/// A value as recorded: its short rendering, and with `--values=full` the
/// elements of a dense tensor (or why they were left out).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecordedValue {
    /// The one-line rendering (`f32[2,3] [1.0, …]`, `42`, `error: …`).
    pub text: String,
    /// The elements, when the value is a dense tensor recorded in full.
    pub elements: Option<Arc<ValueElements>>,
}

impl From<String> for RecordedValue {
    fn from(text: String) -> Self {
        RecordedValue {
            text,
            elements: None,
        }
    }
}

impl From<&str> for RecordedValue {
    fn from(text: &str) -> Self {
        RecordedValue::from(text.to_owned())
    }
}

/// Most places show only the text: a recorded value reads as it.
impl std::ops::Deref for RecordedValue {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl PartialEq<str> for RecordedValue {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl PartialEq<&str> for RecordedValue {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

impl std::fmt::Display for RecordedValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// The elements of a dense tensor recorded with `--values=full`, or why
/// the recording kept only its short rendering.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueElements {
    /// Every element.
    Dense(TensorElements),
    /// Left out: more elements than the per-value bound (`--value-elements`).
    OverValueBound {
        /// The tensor's element count.
        elements: u64,
        /// The bound.
        bound: u64,
    },
    /// Left out: the recording's total for elements was spent.
    OverTotalBound,
    /// Left out: a kernel was writing the tensor when it was recorded.
    BeingWritten,
}

/// A dense tensor's type, shape and elements.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorElements {
    /// The element type.
    pub dtype: bef::btf::BtfDType,
    /// The dimensions.
    pub dims: Vec<u64>,
    /// The elements, row-major, little-endian (`dims` product × the
    /// dtype's size bytes).
    pub data: Vec<u8>,
}

impl TensorElements {
    /// The element count of `dims` when it matches `data` for `dtype`.
    pub fn consistent(&self) -> bool {
        self.dims
            .iter()
            .try_fold(1u64, |n, &d| n.checked_mul(d))
            .and_then(|n| usize::try_from(n).ok())
            .and_then(|n| n.checked_mul(self.dtype.size()))
            == Some(self.data.len())
    }
}

impl ValueElements {
    /// Why the elements were left out, in words (`None`: they were kept).
    pub fn left_out(&self) -> Option<String> {
        match self {
            ValueElements::Dense(_) => None,
            ValueElements::OverValueBound { elements, bound } => Some(format!(
                "recorded short: {elements} elements, over the bound of {bound} per value (--value-elements)"
            )),
            ValueElements::OverTotalBound => Some(
                "recorded short: the recording's total for elements was spent (--values-total-mib)"
                    .to_owned(),
            ),
            ValueElements::BeingWritten => {
                Some("recorded short: a kernel was writing the tensor".to_owned())
            }
        }
    }
}

/// A whole recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// Program identity, work queue, clock.
    pub header: Header,
    /// The program's functions, by function index (empty, until a reader
    /// attaches them, when the file left them out:
    /// [`Header::program_left_out`]).
    pub functions: Vec<FunctionInfo>,
    /// The threads that emitted events, in the order they first did.
    pub threads: Vec<ThreadTrack>,
}

impl Recording {
    /// The number of events recorded.
    pub fn event_count(&self) -> usize {
        self.threads.iter().map(|t| t.events.len()).sum()
    }

    /// Events lost to full buffers.
    pub fn dropped(&self) -> u64 {
        self.threads.iter().map(|t| t.dropped).sum()
    }

    /// The name of kernel `kernel` of function `function` (`?` when the
    /// table has no such kernel).
    pub fn kernel_name(&self, function: u32, kernel: u32) -> &str {
        let Some(f) = self.functions.get(function as usize) else {
            return "?";
        };
        match f.kernels.get(kernel as usize) {
            Some(k) => &k.name,
            None if f.kind == FunctionKind::Native => &f.name,
            None => "?",
        }
    }

    /// The name of function `function`: `(region N)` for an unnamed one
    /// (a region, in a recording that did not name regions).
    pub fn function_name(&self, function: u32) -> String {
        match self.functions.get(function as usize) {
            Some(f) if !f.name.is_empty() => f.name.clone(),
            _ => format!("(region {function})"),
        }
    }
}

/// FNV-1a 64 of `bytes`: the program identity hash.
pub fn content_hash(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}
