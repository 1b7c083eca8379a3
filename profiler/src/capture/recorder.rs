//! The recording observer: each thread appends compact fixed-size events
//! to its own preallocated [`Log`], registered with the recorder the first
//! time the thread reports to it. The hot path takes no lock and does not
//! allocate (a chunk of the log is allocated once per [`CHUNK`]
//! events); only `--values` renders values, into fixed-size slots.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use bef::exec::{ExecEvent, KernelWork, Observer, Operands, Timestamp};
use bef::runtime::{AsyncValue, live_async_values};

use crate::capture::flight::StopOn;
use crate::capture::log::{CHUNK, Keep, Log, Window};
use crate::capture::recording::{
    CallerRef, Event, EventKind, FunctionInfo, Header, RecordedValue, Recording, StopReason,
    TensorElements, ThreadTrack, ValueElements, ValueState,
};

/// At most one sample of the live async values per thread this often:
/// reading the count takes the runtime's lock.
pub const LIVE_SAMPLE_NS: u64 = 20_000;

/// Bytes of a rendered value (longer renderings are cut).
const VALUE_BYTES: usize = 47;

/// How a [`Recorder`] records.
#[derive(Debug, Clone, Copy)]
pub struct RecorderOptions {
    /// Render each published value (`--values`).
    pub values: bool,
    /// With `values`, also copy the elements of dense tensors
    /// (`--values=full`), within these bounds.
    pub full_values: Option<FullValues>,
    /// Events kept per thread, at most [`MAX_EVENTS_PER_THREAD`] (a larger
    /// number counts as that); the others are counted as dropped. (An
    /// event with a caller, a live-value sample or a rendered value takes
    /// two places, kernel work too.)
    pub events_per_thread: usize,
    /// Which events a full buffer keeps: the first (later ones are
    /// dropped) or the last (a ring: the oldest are dropped).
    pub keep: Keep,
    /// With [`Keep::Last`], `--window`: keep only the events of this many
    /// nanoseconds before the end (or the stop), within the count above.
    pub window_ns: Option<u64>,
}

/// The most events a thread keeps: 2^30, which take about 150 GB to
/// analyse. The log of a thread reserves a slot per [`CHUNK`]
/// events up front, so an unbounded number would exhaust memory before the
/// first event.
pub const MAX_EVENTS_PER_THREAD: usize = 1 << 30;

/// The default of [`RecorderOptions::events_per_thread`]: a recording and
/// its analysis take about 150 MB per million events, so a benchmark's
/// tens of millions of kernels are cut off here (about 600 MB a thread)
/// rather than exhausting the machine.
pub const DEFAULT_EVENTS_PER_THREAD: usize = 1 << 22;

/// The bounds of `--values=full`: a tensor with more elements than
/// `value_elements`, or past the recording's `total_bytes` of elements,
/// is recorded short (and counted, and marked so).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FullValues {
    /// Elements of one value at most (`--value-elements`).
    pub value_elements: u64,
    /// Bytes of elements in the whole recording at most
    /// (`--values-total-mib`).
    pub total_bytes: u64,
}

/// The default of [`FullValues::value_elements`]: 1 Mi elements (4 MiB
/// of `f32`).
pub const DEFAULT_VALUE_ELEMENTS: u64 = 1 << 20;

/// The default of [`FullValues::total_bytes`]: 256 MiB.
pub const DEFAULT_VALUES_TOTAL_BYTES: u64 = 256 << 20;

impl Default for FullValues {
    fn default() -> Self {
        FullValues {
            value_elements: DEFAULT_VALUE_ELEMENTS,
            total_bytes: DEFAULT_VALUES_TOTAL_BYTES,
        }
    }
}

impl Default for RecorderOptions {
    fn default() -> Self {
        RecorderOptions {
            values: false,
            full_values: None,
            events_per_thread: DEFAULT_EVENTS_PER_THREAD,
            keep: Keep::First,
            window_ns: None,
        }
    }
}

/// One entry of a thread's event log, as the hot path stores it: 24
/// bytes. An event that needs more than fits is stored as a head entry
/// followed at once by a continuation entry (`Caller`, `Live`, `Value`,
/// `WorkBytes`); a continuation whose head is missing is ignored when the
/// log is decoded. Executions are stored as their low 32 bits; the thread
/// logs note where the high bits change ([`ThreadLogs::high`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Entry {
    /// An execution began.
    Begin {
        time: u64,
        execution: u32,
        function: u32,
    },
    /// An execution began, as the begins log of a [`Keep::Last`] recorder
    /// keeps it (the execution whole).
    Began {
        time: u64,
        execution: u64,
        function: u32,
    },
    /// Follows the `Begin` of an execution a kernel ran: that kernel.
    Caller { execution: u64, kernel: u32 },
    /// An execution ended.
    End { time: u64, execution: u32 },
    /// A kernel became ready.
    Ready {
        time: u64,
        execution: u32,
        kernel: u32,
    },
    /// A kernel started.
    Start {
        time: u64,
        execution: u32,
        kernel: u32,
    },
    /// A kernel returned.
    KernelEnd {
        time: u64,
        execution: u32,
        kernel: u32,
        skipped: bool,
    },
    /// Follows a `KernelEnd` when the live async values were sampled.
    Live { count: u64 },
    /// A value was published.
    Set {
        time: u64,
        execution: u32,
        register: u32,
        producer: u32,
        state: ValueState,
    },
    /// A result unavailable when its kernel returned became available.
    Available {
        time: u64,
        execution: u32,
        register: u32,
        producer: u32,
        state: ValueState,
    },
    /// A kernel wrote the value of a register in place (`--values`).
    Updated {
        time: u64,
        execution: u32,
        register: u32,
        kernel: u32,
    },
    /// Follows a `Set`, an `Available` or an `Updated` whose value was
    /// rendered: its index in the value log.
    Value { slot: u64 },
    /// The innermost running kernel reported its work.
    Work { time: u64, flops: u64 },
    /// Follows a `Work`: its bytes.
    WorkBytes { bytes: u64 },
}

// The size the hot path writes per entry.
const _: () = assert!(std::mem::size_of::<Entry>() == 24);

/// A rendered value: length, then UTF-8 bytes.
#[derive(Clone, Copy)]
struct ValueText {
    len: u8,
    bytes: [u8; VALUE_BYTES],
}

/// The logs of one thread.
struct ThreadLogs {
    recorder: u64,
    name: String,
    events: Log<Entry>,
    values: Log<ValueText>,
    /// With `--values=full`, the elements of the values rendered, by
    /// their slot in `values` (in slot order), those of slots the value
    /// log no longer holds let go. Only the owner appends.
    elements: Mutex<std::collections::VecDeque<(u64, Arc<ValueElements>)>>,
    /// With [`Keep::Last`], the first executions' begins again (and their
    /// callers), so that the executions still running when the ring kept
    /// only their later events (the top-level function's, outer loops')
    /// keep their function and caller.
    begins: Log<Entry>,
    /// Where the high 32 bits of the executions change: from which entry
    /// index on, and to what. Only the owner appends (rarely: once per 2^32
    /// executions).
    high: Mutex<Vec<(u64, u32)>>,
    /// The high bits of the execution of the last entry; only the owner
    /// uses it.
    current_high: AtomicU32,
    /// Values pushed so far (the next value's slot); only the owner writes.
    value_count: AtomicU64,
    /// Events this thread reported, kept or not: each is one head entry
    /// (its continuation, if any, is part of it); only the owner writes.
    /// What a thread drops is this less what it writes.
    reported: AtomicU64,
    /// When this thread last sampled the live values (+1; 0: never); only
    /// the owner uses it.
    last_sample: AtomicU64,
}

/// A kernel running on a thread, followed when the recorder has stop
/// conditions: its name (cut to what fits) and when it started.
struct RunningKernel {
    recorder: u64,
    execution: u64,
    kernel: u32,
    start: u64,
    name: ValueText,
}

thread_local! {
    /// With stop conditions, the kernels running on this thread (they nest
    /// like brackets), then the last one that ended (whose results are
    /// published once it returned).
    static RUNNING: RefCell<(Vec<RunningKernel>, Option<RunningKernel>)> =
        const { RefCell::new((Vec::new(), None)) };
    /// The logs this thread writes, one per recorder it reported to.
    static LOGS: RefCell<Vec<Arc<ThreadLogs>>> = const { RefCell::new(Vec::new()) };
    /// With `--values`, the kernels running on this thread and the write
    /// counts their tensor operands had when they started.
    static OPEN: RefCell<OpenKernels> = const {
        RefCell::new(OpenKernels {
            kernels: Vec::new(),
            counts: Vec::new(),
        })
    };
}

/// The kernels open on a thread (they nest like brackets), each with the
/// write counts of its tensor operands at its start: `(operand, count)`
/// pairs in `counts`, from the kernel's `from` on.
struct OpenKernels {
    kernels: Vec<OpenKernel>,
    counts: Vec<(u32, u64)>,
}

struct OpenKernel {
    recorder: u64,
    execution: u64,
    kernel: u32,
    from: usize,
}

/// A tensor a kernel was still writing when it returned (through tasks
/// it queued): its new version is recorded once the writes are done.
struct Unfinished {
    execution: u64,
    kernel: u32,
    register: u32,
    value: AsyncValue,
}

static NEXT_RECORDER: AtomicU64 = AtomicU64::new(1);

/// An [`Observer`] that records every event; [`finish`](Self::finish)
/// turns what it saw into a [`Recording`].
pub struct Recorder {
    id: u64,
    epoch: Timestamp,
    options: RecorderOptions,
    threads: Mutex<Vec<Arc<ThreadLogs>>>,
    /// Tensors kernels were still writing when they returned (rare: a
    /// matrix product split across workers), and whether there are any.
    unfinished: Mutex<Vec<Unfinished>>,
    any_unfinished: AtomicBool,
    /// What stops the recording by itself.
    stop_on: StopOn,
    /// The condition met first and when (a raw clock reading), once one is.
    stopped: OnceLock<(StopReason, u64)>,
    /// Told when a condition is met (it cancels the run).
    on_stop: Option<StopHook>,
    /// The latest kernels a slow condition names, timed from their start
    /// (at most [`TIMED_KERNELS`]; a kernel whose results all completed is
    /// let go).
    timed: Mutex<std::collections::VecDeque<RunningKernel>>,
    /// With `--values=full`: bytes of elements copied so far, and the
    /// tensors recorded short.
    element_bytes: AtomicU64,
    values_short: AtomicU64,
}

/// How many kernels a slow condition names are timed at once: the oldest
/// is let go for a new one (a kernel whose results complete before it
/// returns is never let go otherwise).
const TIMED_KERNELS: usize = 1024;

/// What a [`Recorder`] calls when one of its stop conditions is met.
pub type StopHook = Box<dyn Fn(&StopReason) + Send + Sync>;

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("id", &self.id)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Recorder {
    /// A recorder whose time 0 is now.
    pub fn new(options: RecorderOptions) -> Arc<Recorder> {
        Recorder::with_stop(options, StopOn::default(), None)
    }

    /// A recorder whose time 0 is now, that calls `on_stop` when the first
    /// condition of `stop_on` is met.
    pub fn with_stop(
        options: RecorderOptions,
        stop_on: StopOn,
        on_stop: Option<StopHook>,
    ) -> Arc<Recorder> {
        Arc::new(Recorder {
            id: NEXT_RECORDER.fetch_add(1, Ordering::Relaxed),
            epoch: Timestamp::now(),
            options,
            threads: Mutex::new(Vec::new()),
            unfinished: Mutex::new(Vec::new()),
            any_unfinished: AtomicBool::new(false),
            stop_on,
            stopped: OnceLock::new(),
            on_stop,
            timed: Mutex::new(std::collections::VecDeque::new()),
            element_bytes: AtomicU64::new(0),
            values_short: AtomicU64::new(0),
        })
    }

    /// The stop condition met, if one was.
    pub fn stopped(&self) -> Option<&StopReason> {
        self.stopped.get().map(|(reason, _)| reason)
    }

    /// When time 0 was.
    pub fn epoch(&self) -> Timestamp {
        self.epoch
    }

    /// The events recorded so far (all of them once the runs observed have
    /// finished), under `header` and the program's `functions`.
    pub fn finish(&self, header: Header, functions: Vec<FunctionInfo>) -> Recording {
        // Writes never seen finished keep no value alive past the run.
        self.unfinished
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.assemble(header, functions)
    }

    /// The events recorded so far, while the run goes on (a snapshot:
    /// the recorder keeps recording).
    pub fn snapshot(&self, header: Header, functions: Vec<FunctionInfo>) -> Recording {
        self.assemble(header, functions)
    }

    fn assemble(&self, mut header: Header, functions: Vec<FunctionInfo>) -> Recording {
        header.values = self.options.values;
        if let Some(full) = self.options.full_values.filter(|_| self.options.values) {
            header.value_elements = full.value_elements.max(1);
            header.values_short = self.values_short.load(Ordering::Relaxed);
        }
        header.kept = self.options.keep;
        header.completions_recorded = true;
        let window = self.window();
        header.window_ns = window.map_or(0, |w| w.nanos);
        let limit = self
            .options
            .events_per_thread
            .clamp(1, MAX_EVENTS_PER_THREAD);
        let threads: Vec<Arc<ThreadLogs>> = self
            .threads
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let decoded: Vec<(Vec<Event>, u64, bool)> = threads
            .iter()
            .map(|logs| {
                let values = logs.values.snapshot();
                let elements: Vec<_> = logs
                    .elements
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .iter()
                    .cloned()
                    .collect();
                let entries = logs.events.snapshot();
                // Read after the entries: events reported meanwhile count
                // as dropped.
                let reported = logs.reported.load(Ordering::Relaxed);
                let high = logs.high.lock().unwrap_or_else(|e| e.into_inner()).clone();
                let events = decode(
                    &entries.entries,
                    entries.first,
                    &high,
                    Values {
                        texts: &values.entries,
                        first: values.first,
                        elements: &elements,
                    },
                );
                (events, reported, entries.first > 0)
            })
            .collect();
        // A window ends where the recording stopped itself, else at the
        // last event of any thread.
        let end = self.stopped.get().map(|&(_, time)| time).or_else(|| {
            decoded
                .iter()
                .filter_map(|(events, _, _)| events.last().map(|e| e.time))
                .max()
        });
        let threads = threads
            .iter()
            .zip(decoded)
            .map(|(logs, (mut events, reported, wrapped))| {
                let mut cut = wrapped;
                if let (Some(window), Some(end)) = (window, end) {
                    let end = Timestamp::from_raw(end);
                    let before = events.len();
                    events.retain(|e| end.nanos_since(Timestamp::from_raw(e.time)) <= window.nanos);
                    cut |= events.len() < before;
                }
                // The log holds whole chunks (`Keep::First`), or exactly
                // `limit` entries, which may start with the begins put back.
                match self.options.keep {
                    Keep::First => events.truncate(limit),
                    Keep::Last if cut => {
                        events =
                            with_earlier_begins(events, &logs.begins.snapshot().entries, limit);
                    }
                    Keep::Last => {}
                }
                for event in &mut events {
                    event.time = Timestamp::from_raw(event.time).nanos_since(self.epoch);
                }
                ThreadTrack {
                    name: logs.name.clone(),
                    dropped: reported.saturating_sub(events.len() as u64),
                    events: events.into(),
                }
            })
            .collect();
        Recording {
            header,
            functions,
            threads,
        }
    }

    /// The time window of the event logs, with `--keep last --window`.
    fn window(&self) -> Option<Window<Entry>> {
        match (self.options.keep, self.options.window_ns) {
            (Keep::Last, Some(nanos)) => Some(Window {
                nanos,
                time_of: Entry::time,
            }),
            _ => None,
        }
    }

    /// This thread's logs for this recorder, registered on first use.
    #[inline]
    fn with_logs(&self, f: impl FnOnce(&ThreadLogs)) {
        // A thread being torn down has no logs left: its events are lost.
        let _ = LOGS.try_with(|cell| {
            let mut logs = cell.borrow_mut();
            if let Some(mine) = logs.iter().rev().find(|l| l.recorder == self.id) {
                f(mine);
                return;
            }
            // First event of this thread: forget logs of recorders that are
            // gone (only this thread still holds them), register a new one.
            logs.retain(|l| Arc::strong_count(l) > 1);
            let mut threads = self.threads.lock().unwrap_or_else(|e| e.into_inner());
            let current = std::thread::current();
            let name = match current.name() {
                Some(name) => name.to_string(),
                None => format!("thread-{}", threads.len()),
            };
            let capacity = self.options.events_per_thread.min(MAX_EVENTS_PER_THREAD);
            let mine = Arc::new(ThreadLogs {
                recorder: self.id,
                name,
                events: match self.window() {
                    Some(window) => Log::with_window(capacity, window),
                    None => Log::new(capacity, self.options.keep),
                },
                // Without --values, room for a chunk of error messages.
                values: Log::new(
                    if self.options.values { capacity } else { CHUNK },
                    self.options.keep,
                ),
                begins: Log::new(
                    if self.options.keep == Keep::Last {
                        CHUNK
                    } else {
                        1
                    },
                    Keep::First,
                ),
                elements: Mutex::new(std::collections::VecDeque::new()),
                high: Mutex::new(Vec::new()),
                current_high: AtomicU32::new(0),
                value_count: AtomicU64::new(0),
                reported: AtomicU64::new(0),
                last_sample: AtomicU64::new(0),
            });
            // SAFETY: this thread is the logs' writer (they are reached
            // only through its `LOGS`).
            unsafe { mine.events.reserve_first() };
            threads.push(mine.clone());
            drop(threads);
            f(&mine);
            logs.push(mine);
        });
    }
}

impl ThreadLogs {
    /// Appends `entry` (executions by their low 32 bits: see `high`).
    ///
    /// # Safety
    /// Only the thread these logs belong to may call it.
    #[inline]
    unsafe fn push(&self, entry: Entry) {
        // SAFETY: the caller is this log's only writer.
        unsafe { self.events.push(entry) }
    }

    /// Appends the event `head` and its `continuation`, counting one event
    /// reported.
    ///
    /// # Safety
    /// Only the thread these logs belong to may call it.
    #[inline]
    unsafe fn push_event(&self, head: Entry, continuation: Option<Entry>) {
        // Only this thread stores it.
        let reported = self.reported.load(Ordering::Relaxed);
        self.reported.store(reported + 1, Ordering::Relaxed);
        // SAFETY: the caller is this log's only writer.
        unsafe {
            self.push(head);
            if let Some(continuation) = continuation {
                self.push(continuation);
            }
        }
    }

    /// The low 32 bits of `execution`, noting first where its high bits
    /// differ from the previous event's.
    ///
    /// Only the thread these logs belong to may call it.
    #[inline]
    fn low_bits(&self, execution: u64) -> u32 {
        let high = (execution >> 32) as u32;
        if high != self.current_high.load(Ordering::Relaxed) {
            self.note_high(high);
        }
        execution as u32
    }

    #[cold]
    fn note_high(&self, high: u32) {
        self.current_high.store(high, Ordering::Relaxed);
        let at = self.events.pushed();
        self.high
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((at, high));
    }
}

impl Observer for Recorder {
    fn on_kernel_work(&self, work: KernelWork, _thread: std::thread::ThreadId, time: Timestamp) {
        let time = time.raw();
        self.with_logs(|logs| {
            // SAFETY: `logs` is reached only through this thread's `LOGS`,
            // so this thread is the log's only writer.
            unsafe {
                logs.push_event(
                    Entry::Work {
                        time,
                        flops: work.flops,
                    },
                    Some(Entry::WorkBytes { bytes: work.bytes }),
                );
            }
        });
    }

    #[inline]
    fn on_event(&self, event: &ExecEvent<'_>) {
        // Raw clock readings, converted to nanoseconds when the recording
        // is assembled.
        let time = event.time().raw();
        self.with_logs(|logs| {
            if self.options.values && matches!(event, ExecEvent::KernelStart { .. }) {
                // Writes finished before this kernel are versions before it.
                self.finish_writes(logs, time);
            }
            let execution = logs.low_bits(event.execution());
            // The entry, and the continuation that follows it, if any.
            let (entry, continuation) = match *event {
                ExecEvent::FunctionBegin {
                    function, caller, ..
                } => {
                    let caller = caller.map(|c| Entry::Caller {
                        execution: c.execution,
                        kernel: c.kernel,
                    });
                    if self.options.keep == Keep::Last {
                        // SAFETY: `logs` is reached only through this
                        // thread's `LOGS`, so this thread is the only writer
                        // of its logs.
                        unsafe {
                            logs.begins.push(Entry::Began {
                                time,
                                execution: event.execution(),
                                function: function as u32,
                            });
                            if let Some(caller) = caller {
                                logs.begins.push(caller);
                            }
                        }
                    }
                    let begin = Entry::Begin {
                        time,
                        execution,
                        function: function as u32,
                    };
                    (begin, caller)
                }
                ExecEvent::FunctionEnd { .. } => (Entry::End { time, execution }, None),
                ExecEvent::KernelReady { kernel, .. } => (
                    Entry::Ready {
                        time,
                        execution,
                        kernel,
                    },
                    None,
                ),
                ExecEvent::KernelStart { kernel, .. } => (
                    Entry::Start {
                        time,
                        execution,
                        kernel,
                    },
                    None,
                ),
                ExecEvent::KernelEnd {
                    kernel, skipped, ..
                } => {
                    let nanos = event.time().nanos_since(self.epoch);
                    let last = logs.last_sample.load(Ordering::Relaxed);
                    let live = (last == 0 || nanos + 1 >= last + LIVE_SAMPLE_NS).then(|| {
                        logs.last_sample.store(nanos + 1, Ordering::Relaxed);
                        Entry::Live {
                            count: live_async_values() as u64,
                        }
                    });
                    let end = Entry::KernelEnd {
                        time,
                        execution,
                        kernel,
                        skipped,
                    };
                    (end, live)
                }
                ExecEvent::RegisterSet {
                    register,
                    producer,
                    state,
                    value,
                    ..
                } => {
                    // An unavailable value may be an indirect one, waiting
                    // to be forwarded.
                    let state = if state.is_available() {
                        ValueState::from(state)
                    } else {
                        ValueState::of(value)
                    };
                    let set = Entry::Set {
                        time,
                        execution,
                        register,
                        producer,
                        state,
                    };
                    (set, self.rendered(logs, state, value))
                }
                ExecEvent::ResultAvailable {
                    register,
                    producer,
                    state,
                    value,
                    ..
                } => {
                    let state = ValueState::from(state);
                    let available = Entry::Available {
                        time,
                        execution,
                        register,
                        producer,
                        state,
                    };
                    (available, self.rendered(logs, state, value))
                }
            };
            // SAFETY: `logs` is reached only through this thread's `LOGS`,
            // so this thread is the only writer of its logs.
            unsafe { logs.push_event(entry, continuation) };
            if self.stop_on.any() {
                self.watch_for_stop(event, time);
            }
            if self.options.values {
                match *event {
                    ExecEvent::KernelStart {
                        execution,
                        kernel,
                        operands,
                        ..
                    } => self.open_kernel(execution, kernel, operands),
                    ExecEvent::KernelEnd {
                        execution,
                        kernel,
                        operands,
                        ..
                    } => {
                        self.close_kernel(logs, time, execution, kernel, operands);
                        self.finish_writes(logs, time);
                    }
                    _ => self.finish_writes(logs, time),
                }
            }
        });
    }
}

impl Recorder {
    /// Follows the kernels running on this thread and stops the recording
    /// at the first condition of `stop_on` that `event` (at raw time
    /// `time`) meets.
    fn watch_for_stop(&self, event: &ExecEvent<'_>, time: u64) {
        if self.stopped.get().is_some() {
            return;
        }
        if !self.stop_on.slow.is_empty() {
            self.watch_for_slow(event, time);
        }
        let _ = RUNNING.try_with(|running| {
            let (running, ended) = &mut *running.borrow_mut();
            match *event {
                ExecEvent::KernelStart {
                    execution,
                    kernel,
                    name,
                    ..
                } => {
                    let mut text = Fixed {
                        text: ValueText {
                            len: 0,
                            bytes: [0; VALUE_BYTES],
                        },
                    };
                    let _ = std::fmt::Write::write_str(&mut text, name);
                    running.push(RunningKernel {
                        recorder: self.id,
                        execution,
                        kernel,
                        start: time,
                        name: text.text,
                    });
                }
                ExecEvent::KernelEnd {
                    execution, kernel, ..
                } => {
                    let Some(at) = running.iter().rposition(|k| {
                        k.recorder == self.id && k.execution == execution && k.kernel == kernel
                    }) else {
                        return;
                    };
                    let run = running.remove(at);
                    running.truncate(at);
                    *ended = Some(run);
                }
                ExecEvent::RegisterSet {
                    execution,
                    producer,
                    state,
                    ..
                }
                | ExecEvent::ResultAvailable {
                    execution,
                    producer,
                    state,
                    ..
                } if self.stop_on.error && ValueState::from(state) == ValueState::Error => {
                    // The kernel publishing the error runs on this thread,
                    // or has just returned on it, unless it completed its
                    // result later elsewhere.
                    let name = running
                        .iter()
                        .rev()
                        .chain(ended.as_ref())
                        .find(|k| {
                            k.recorder == self.id
                                && k.execution == execution
                                && k.kernel == producer
                        })
                        .map_or_else(|| "kernel".to_string(), |k| k.name.as_str().to_string());
                    self.stop(
                        StopReason::Error {
                            kernel: format!("{name}#{producer}"),
                        },
                        time,
                    );
                }
                _ => {}
            }
        });
    }

    /// Times the kernels a `slow:PATTERN>TIME` condition names, from their
    /// start to their return, and to the completion of each result that
    /// completes later (an asynchronous kernel's time is its results'):
    /// stops at the first that takes longer than its condition allows.
    fn watch_for_slow(&self, event: &ExecEvent<'_>, time: u64) {
        let (execution, kernel, done) = match *event {
            ExecEvent::KernelStart {
                execution,
                kernel,
                name,
                ..
            } => {
                let matches = self
                    .stop_on
                    .slow
                    .iter()
                    .any(|s| crate::capture::flight::kernel_matches(name, kernel, &s.pattern));
                if matches {
                    let mut text = Fixed {
                        text: ValueText {
                            len: 0,
                            bytes: [0; VALUE_BYTES],
                        },
                    };
                    let _ = std::fmt::Write::write_str(&mut text, name);
                    let mut timed = self.timed.lock().unwrap_or_else(|e| e.into_inner());
                    if timed.len() >= TIMED_KERNELS {
                        timed.pop_front();
                    }
                    timed.push_back(RunningKernel {
                        recorder: self.id,
                        execution,
                        kernel,
                        start: time,
                        name: text.text,
                    });
                }
                return;
            }
            ExecEvent::KernelEnd {
                execution, kernel, ..
            } => (execution, kernel, false),
            ExecEvent::ResultAvailable {
                execution,
                producer,
                ..
            } => (execution, producer, true),
            _ => return,
        };
        let mut timed = self.timed.lock().unwrap_or_else(|e| e.into_inner());
        let Some(at) = timed
            .iter()
            .rposition(|k| k.execution == execution && k.kernel == kernel)
        else {
            return;
        };
        let nanos = Timestamp::from_raw(time).nanos_since(Timestamp::from_raw(timed[at].start));
        let name = timed[at].name.as_str().to_string();
        if done {
            timed.remove(at);
        }
        drop(timed);
        if self.stop_on.slow_match(&name, kernel, nanos).is_some() {
            self.stop(
                StopReason::Slow {
                    kernel: format!("{name}#{kernel}"),
                    nanos,
                },
                time,
            );
        }
    }

    /// Notes that the recording stops for `reason` at raw time `time`,
    /// telling the hook the first time.
    #[cold]
    fn stop(&self, reason: StopReason, time: u64) {
        if self.stopped.set((reason.clone(), time)).is_ok()
            && let Some(hook) = &self.on_stop
        {
            hook(&reason);
        }
    }

    /// Notes the write counts of the tensor operands of a kernel starting
    /// on this thread.
    fn open_kernel(&self, execution: u64, kernel: u32, operands: Operands<'_>) {
        let _ = OPEN.try_with(|open| {
            let mut open = open.borrow_mut();
            let from = open.counts.len();
            open.kernels.push(OpenKernel {
                recorder: self.id,
                execution,
                kernel,
                from,
            });
            for (i, value) in operands.values.iter().enumerate() {
                if let Some(writes) = bef::kernels::value_text::writes(value) {
                    open.counts.push((i as u32, writes.count));
                }
            }
        });
    }

    /// Records a new version of each tensor operand the kernel ending on
    /// this thread wrote in place (its write count changed since its
    /// start); one it is still writing through queued tasks is recorded
    /// when those are done.
    fn close_kernel(
        &self,
        logs: &ThreadLogs,
        time: u64,
        execution: u64,
        kernel: u32,
        operands: Operands<'_>,
    ) {
        let _ = OPEN.try_with(|open| {
            let mut open = open.borrow_mut();
            // Kernels nest like brackets on a thread: it is the innermost
            // open one (searched for all the same, should one be missing).
            let Some(at) = open.kernels.iter().rposition(|k| {
                k.recorder == self.id && k.execution == execution && k.kernel == kernel
            }) else {
                return;
            };
            let from = open.kernels[at].from;
            for &(i, before) in &open.counts[from..] {
                let i = i as usize;
                let (Some(value), Some(&register)) =
                    (operands.values.get(i), operands.registers.get(i))
                else {
                    continue;
                };
                // An operand given twice is one register.
                if operands.registers[..i].contains(&register) {
                    continue;
                }
                let Some(now) = bef::kernels::value_text::writes(value) else {
                    continue;
                };
                if now.count == before {
                    continue;
                }
                if now.in_progress {
                    self.unfinished
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(Unfinished {
                            execution,
                            kernel,
                            register,
                            value: value.clone(),
                        });
                    self.any_unfinished.store(true, Ordering::Release);
                } else {
                    self.push_update(logs, time, execution, register, kernel, value);
                }
            }
            open.counts.truncate(from);
            open.kernels.truncate(at);
        });
    }

    /// Records the versions of the unfinished writes that are done by
    /// now (the event at `time`, which the completion of the writing
    /// kernel's result, or anything after it, is).
    fn finish_writes(&self, logs: &ThreadLogs, time: u64) {
        if !self.any_unfinished.load(Ordering::Acquire) {
            return;
        }
        let done: Vec<Unfinished> = {
            let mut unfinished = self.unfinished.lock().unwrap_or_else(|e| e.into_inner());
            let (done, still): (Vec<_>, Vec<_>) = unfinished.drain(..).partition(|u| {
                bef::kernels::value_text::writes(&u.value).is_none_or(|w| !w.in_progress)
            });
            *unfinished = still;
            self.any_unfinished
                .store(!unfinished.is_empty(), Ordering::Release);
            done
        };
        for u in done {
            self.push_update(logs, time, u.execution, u.register, u.kernel, &u.value);
        }
    }

    /// Appends that `kernel` of `execution` wrote the value in `register`
    /// in place, as it is now.
    fn push_update(
        &self,
        logs: &ThreadLogs,
        time: u64,
        execution: u64,
        register: u32,
        kernel: u32,
        value: &AsyncValue,
    ) {
        let entry = Entry::Updated {
            time,
            execution: logs.low_bits(execution),
            register,
            kernel,
        };
        let rendered = self.rendered(logs, ValueState::Concrete, value);
        // SAFETY: `logs` is reached only through this thread's `LOGS`, so
        // this thread is the only writer of its logs.
        unsafe { logs.push_event(entry, rendered) };
    }
}

impl Recorder {
    /// The continuation carrying `value` rendered, when it is kept: errors
    /// are always worth their message, other values only when asked.
    /// Without --values the value log holds only error messages (rare),
    /// and is sized for few.
    #[inline]
    fn rendered(&self, logs: &ThreadLogs, state: ValueState, value: &AsyncValue) -> Option<Entry> {
        (self.options.values || state == ValueState::Error).then(|| {
            let slot = logs.value_count.fetch_add(1, Ordering::Relaxed);
            // SAFETY: `logs` is reached only through this thread's `LOGS`,
            // so this thread is the only writer of its logs.
            unsafe { logs.values.push(render(value)) };
            if let Some(full) = self.options.full_values.filter(|_| self.options.values)
                && let Some(elements) = self.elements(full, value)
            {
                let mut kept = logs.elements.lock().unwrap_or_else(|e| e.into_inner());
                // A ring (`--keep last`) overwrites old values: their
                // elements go too, so a long run keeps only what it shows.
                let held = self.options.events_per_thread.min(MAX_EVENTS_PER_THREAD) as u64;
                while kept
                    .front()
                    .is_some_and(|&(s, _)| s.saturating_add(held) <= slot)
                {
                    kept.pop_front();
                }
                kept.push_back((slot, Arc::new(elements)));
            }
            Entry::Value { slot }
        })
    }

    /// The elements of `value` as they are now, when it is a dense tensor
    /// of a BTF element type: copied (a kernel may write it in place
    /// later), or why not (over a bound, being written).
    fn elements(&self, full: FullValues, value: &AsyncValue) -> Option<ValueElements> {
        if !value.is_available() {
            return None;
        }
        let Ok(bef::kernels::tensor::HostTensor::Dense(dense)) =
            value.get::<bef::kernels::tensor::HostTensor>()
        else {
            return None;
        };
        let dtype = bef::btf::BtfDType::from_dtype(dense.dtype())?;
        let count = dense.num_elements() as u64;
        let short = |why: ValueElements| {
            self.values_short.fetch_add(1, Ordering::Relaxed);
            Some(why)
        };
        let bound = full.value_elements.max(1);
        if count > bound {
            return short(ValueElements::OverValueBound {
                elements: count,
                bound,
            });
        }
        let bytes = count.saturating_mul(dtype.size() as u64);
        let before = self.element_bytes.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > full.total_bytes {
            self.element_bytes.fetch_sub(bytes, Ordering::Relaxed);
            return short(ValueElements::OverTotalBound);
        }
        let Ok(data) = dense.read() else {
            self.element_bytes.fetch_sub(bytes, Ordering::Relaxed);
            return short(ValueElements::BeingWritten);
        };
        let dims = dense.shape().0.iter().map(|&d| d.max(0) as u64).collect();
        Some(ValueElements::Dense(TensorElements {
            dtype,
            dims,
            data: data.to_vec(),
        }))
    }
}

/// A thread's value log as [`decode`] reads it: the texts from slot
/// `first` on, and the elements by slot.
#[derive(Clone, Copy)]
struct Values<'a> {
    texts: &'a [ValueText],
    first: u64,
    elements: &'a [(u64, Arc<ValueElements>)],
}

impl Values<'_> {
    const NONE: Values<'static> = Values {
        texts: &[],
        first: 0,
        elements: &[],
    };

    /// The value in `slot`, if the log still holds it.
    fn get(&self, slot: u64) -> Option<RecordedValue> {
        let text = slot
            .checked_sub(self.first)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.texts.get(i))?;
        let elements = self
            .elements
            .binary_search_by_key(&slot, |&(s, _)| s)
            .ok()
            .map(|i| self.elements[i].1.clone());
        Some(RecordedValue {
            text: String::from_utf8_lossy(&text.bytes[..text.len as usize]).into_owned(),
            elements,
        })
    }
}

/// The events of one thread's log: `entries` are the log's entries from
/// index `first` on, `high` where the executions' high bits changed (from
/// which entry index on), `values` the value log's.
fn decode(entries: &[Entry], first: u64, high: &[(u64, u32)], values: Values<'_>) -> Vec<Event> {
    let mut events: Vec<Event> = Vec::with_capacity(entries.len());
    let mut changes = high.iter().peekable();
    let mut high_bits = 0u64;
    for (index, &entry) in (first..).zip(entries) {
        while let Some(&&(at, bits)) = changes.peek() {
            if at > index {
                break;
            }
            high_bits = u64::from(bits) << 32;
            changes.next();
        }
        let full = |low: u32| high_bits | u64::from(low);
        let (time, execution, kind) = match entry {
            Entry::Begin {
                time,
                execution,
                function,
            } => (
                time,
                full(execution),
                EventKind::FunctionBegin {
                    function,
                    caller: None,
                },
            ),
            Entry::End { time, execution } => (time, full(execution), EventKind::FunctionEnd),
            Entry::Ready {
                time,
                execution,
                kernel,
            } => (time, full(execution), EventKind::KernelReady { kernel }),
            Entry::Start {
                time,
                execution,
                kernel,
            } => (time, full(execution), EventKind::KernelStart { kernel }),
            Entry::KernelEnd {
                time,
                execution,
                kernel,
                skipped,
            } => (
                time,
                full(execution),
                EventKind::KernelEnd {
                    kernel,
                    skipped,
                    live_values: None,
                },
            ),
            Entry::Set {
                time,
                execution,
                register,
                producer,
                state,
            } => (
                time,
                full(execution),
                EventKind::RegisterSet {
                    register,
                    producer,
                    state,
                    value: None,
                },
            ),
            Entry::Available {
                time,
                execution,
                register,
                producer,
                state,
            } => (
                time,
                full(execution),
                EventKind::ResultAvailable {
                    register,
                    producer,
                    state,
                    value: None,
                },
            ),
            Entry::Began {
                time,
                execution,
                function,
            } => (
                time,
                execution,
                EventKind::FunctionBegin {
                    function,
                    caller: None,
                },
            ),
            Entry::Work { time, flops } => (time, 0, EventKind::KernelWork { flops, bytes: 0 }),
            Entry::Updated {
                time,
                execution,
                register,
                kernel,
            } => (
                time,
                full(execution),
                EventKind::ValueUpdated {
                    register,
                    kernel,
                    value: None,
                },
            ),
            continuation => {
                // Completes the event before it; without one (its head was
                // dropped) it is ignored.
                if let Some(last) = events.last_mut() {
                    complete(&mut last.kind, continuation, values);
                }
                continue;
            }
        };
        events.push(Event {
            time,
            execution,
            kind,
        });
    }
    events
}

/// `events`, the last ones of a thread, after the begins (from `begins`,
/// the first ones) of the executions they belong to that began before
/// them; at most `limit` events in all, the oldest of `events` left out to
/// make room for the begins.
fn with_earlier_begins(mut events: Vec<Event>, begins: &[Entry], limit: usize) -> Vec<Event> {
    let begins = decode(begins, 0, &[], Values::NONE);
    let earlier = |events: &[Event]| -> Vec<Event> {
        let begun: HashSet<u64> = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::FunctionBegin { .. }))
            .map(|e| e.execution)
            .collect();
        let seen: HashSet<u64> = events.iter().map(|e| e.execution).collect();
        let start = events.first().map_or(u64::MAX, |e| e.time);
        begins
            .iter()
            .filter(|b| {
                seen.contains(&b.execution) && !begun.contains(&b.execution) && b.time <= start
            })
            .cloned()
            .collect()
    };
    // Leaving out the oldest events changes which begins are needed, a
    // little: a few rounds settle it, then the begins are cut.
    let mut put_back = earlier(&events);
    for _ in 0..4 {
        let excess = (put_back.len() + events.len()).saturating_sub(limit);
        if excess == 0 {
            break;
        }
        events.drain(..excess.min(events.len()));
        put_back = earlier(&events);
    }
    put_back.truncate(limit.saturating_sub(events.len()));
    put_back.extend(events);
    put_back
}

/// Adds what `continuation` carries to the event `kind` it follows (when it
/// is the kind it belongs to).
fn complete(kind: &mut EventKind, continuation: Entry, values: Values<'_>) {
    match (kind, continuation) {
        (EventKind::FunctionBegin { caller, .. }, Entry::Caller { execution, kernel }) => {
            *caller = Some(CallerRef { execution, kernel });
        }
        (EventKind::KernelEnd { live_values, .. }, Entry::Live { count }) => {
            *live_values = Some(count);
        }
        (
            EventKind::RegisterSet { value, .. }
            | EventKind::ResultAvailable { value, .. }
            | EventKind::ValueUpdated { value, .. },
            Entry::Value { slot },
        ) => {
            *value = values.get(slot);
        }
        (EventKind::KernelWork { bytes, .. }, Entry::WorkBytes { bytes: b }) => *bytes = b,
        _ => {}
    }
}

impl Entry {
    /// The clock reading of an entry that has one (not a continuation).
    fn time(&self) -> Option<u64> {
        match *self {
            Entry::Begin { time, .. }
            | Entry::Began { time, .. }
            | Entry::End { time, .. }
            | Entry::Ready { time, .. }
            | Entry::Start { time, .. }
            | Entry::KernelEnd { time, .. }
            | Entry::Set { time, .. }
            | Entry::Available { time, .. }
            | Entry::Updated { time, .. }
            | Entry::Work { time, .. } => Some(time),
            Entry::Caller { .. }
            | Entry::Live { .. }
            | Entry::Value { .. }
            | Entry::WorkBytes { .. } => None,
        }
    }
}

impl ValueText {
    /// The text (cut at a character boundary when it was written).
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("?")
    }
}

/// A short rendering of `value`, cut to [`VALUE_BYTES`] at a character
/// boundary, without allocating.
fn render(value: &AsyncValue) -> ValueText {
    let mut out = Fixed {
        text: ValueText {
            len: 0,
            bytes: [0; VALUE_BYTES],
        },
    };
    // The one-line form every tool shows (tensors and shapes short); the
    // slot keeps what fits.
    let _ = bef::kernels::value_text::write_value(&mut out, value);
    out.text
}

/// A `fmt::Write` into a [`ValueText`] that keeps what fits.
struct Fixed {
    text: ValueText,
}

impl std::fmt::Write for Fixed {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let len = self.text.len as usize;
        let room = VALUE_BYTES - len;
        let mut take = s.len().min(room);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        self.text.bytes[len..len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.text.len = (len + take) as u8;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bef::runtime::{Chain, Diagnostic};

    fn shown(value: AsyncValue) -> String {
        let t = render(&value);
        String::from_utf8(t.bytes[..t.len as usize].to_vec()).unwrap()
    }

    #[test]
    fn continuations_complete_their_event_and_orphans_are_ignored() {
        let entries = [
            // Its head was dropped: ignored.
            Entry::Caller {
                execution: 1,
                kernel: 1,
            },
            Entry::Begin {
                time: 5,
                execution: 7,
                function: 2,
            },
            Entry::Caller {
                execution: 3,
                kernel: 4,
            },
            Entry::KernelEnd {
                time: 6,
                execution: 7,
                kernel: 1,
                skipped: true,
            },
            Entry::Live { count: 9 },
            Entry::Set {
                time: 6,
                execution: 7,
                register: 2,
                producer: 1,
                state: ValueState::Error,
            },
            Entry::Value { slot: 11 },
            Entry::Available {
                time: 7,
                execution: 7,
                register: 3,
                producer: 1,
                state: ValueState::Error,
            },
            Entry::Value { slot: 10 },
            Entry::Work { time: 7, flops: 8 },
            Entry::WorkBytes { bytes: 16 },
        ];
        let mut text = ValueText {
            len: 4,
            bytes: [0; VALUE_BYTES],
        };
        text.bytes[..4].copy_from_slice(b"oops");
        // The value log kept entries 10 and 11.
        let events = decode(
            &entries,
            100,
            &[],
            Values {
                texts: &[text, text],
                first: 10,
                elements: &[],
            },
        );
        let kinds: Vec<_> = events.iter().map(|e| e.kind.clone()).collect();
        assert_eq!(
            kinds,
            [
                EventKind::FunctionBegin {
                    function: 2,
                    caller: Some(CallerRef {
                        execution: 3,
                        kernel: 4
                    }),
                },
                EventKind::KernelEnd {
                    kernel: 1,
                    skipped: true,
                    live_values: Some(9),
                },
                EventKind::RegisterSet {
                    register: 2,
                    producer: 1,
                    state: ValueState::Error,
                    value: Some("oops".into()),
                },
                EventKind::ResultAvailable {
                    register: 3,
                    producer: 1,
                    state: ValueState::Error,
                    value: Some("oops".into()),
                },
                EventKind::KernelWork {
                    flops: 8,
                    bytes: 16
                },
            ]
        );
        assert_eq!(events[0].time, 5);
        assert_eq!(events[0].execution, 7);
        assert_eq!(events[3].execution, 7);
        assert_eq!(events[4].execution, 0);
    }

    #[test]
    fn executions_get_their_high_bits_back() {
        let at = |time| Entry::End { time, execution: 3 };
        // Entry indices 50..53; the high bits become 1 at 51 and 2 at 52.
        let events = decode(
            &[at(0), at(1), at(2)],
            50,
            &[(51, 1), (52, 2)],
            Values::NONE,
        );
        let executions: Vec<u64> = events.iter().map(|e| e.execution).collect();
        assert_eq!(executions, [3, (1 << 32) | 3, (2 << 32) | 3]);
    }

    #[test]
    fn recorded_executions_keep_all_64_bits() {
        let recorder = Recorder::new(RecorderOptions::default());
        let execution = (5u64 << 32) | 9;
        recorder.on_event(&ExecEvent::FunctionEnd {
            execution: 9,
            thread: std::thread::current().id(),
            time: Timestamp::now(),
        });
        recorder.on_event(&ExecEvent::FunctionEnd {
            execution,
            thread: std::thread::current().id(),
            time: Timestamp::now(),
        });
        let recording = recorder.finish(Header::default(), Vec::new());
        let executions: Vec<u64> = recording.threads[0]
            .events
            .iter()
            .map(|e| e.execution)
            .collect();
        assert_eq!(executions, [9, execution]);
    }

    #[test]
    fn values_render_short() {
        assert_eq!(shown(AsyncValue::available(-3i32)), "-3");
        assert_eq!(shown(AsyncValue::available(1.5f64)), "1.5");
        assert_eq!(shown(AsyncValue::available(Chain)), "chain");
        assert_eq!(
            shown(AsyncValue::error(Diagnostic::new("boom"))),
            "error: boom"
        );
        let long = shown(AsyncValue::available("é".repeat(40)));
        assert!(
            long.len() <= VALUE_BYTES && long.starts_with("\"éé"),
            "{long}"
        );
    }
}
