//! The recording observer: each thread appends compact fixed-size events
//! to its own preallocated [`Log`], registered with the recorder the first
//! time the thread reports to it. The hot path takes no lock and does not
//! allocate (a chunk of the log is allocated once per [`CHUNK`](crate::log::CHUNK)
//! events); only `--values` renders values, into fixed-size slots.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bef::exec::{ExecEvent, KernelWork, Observer};
use bef::runtime::{AsyncValue, live_async_values};

use crate::log::Log;
use crate::recording::{
    CallerRef, Event, EventKind, FunctionInfo, Header, Recording, ThreadTrack, ValueState,
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
    /// Events kept per thread, at most [`MAX_EVENTS_PER_THREAD`] (a larger
    /// number counts as that); later ones are counted as dropped.
    pub events_per_thread: usize,
}

/// The most events a thread keeps: 2^30, which take about 150 GB to
/// analyse. The log of a thread reserves a slot per [`CHUNK`](crate::log::CHUNK)
/// events up front, so an unbounded number would exhaust memory before the
/// first event.
pub const MAX_EVENTS_PER_THREAD: usize = 1 << 30;

/// The default of [`RecorderOptions::events_per_thread`]: a recording and
/// its analysis take about 150 MB per million events, so a benchmark's
/// tens of millions of kernels are cut off here (about 600 MB a thread)
/// rather than exhausting the machine.
pub const DEFAULT_EVENTS_PER_THREAD: usize = 1 << 22;

impl Default for RecorderOptions {
    fn default() -> Self {
        RecorderOptions {
            values: false,
            events_per_thread: DEFAULT_EVENTS_PER_THREAD,
        }
    }
}

const BEGIN: u8 = 0;
const END: u8 = 1;
const READY: u8 = 2;
const START: u8 = 3;
const KERNEL_END: u8 = 4;
const SET: u8 = 5;
const WORK: u8 = 6;

/// One event as the hot path stores it. `aux`: the caller's execution
/// (begin), live values + 1 or 0 (kernel end), the value's slot (register
/// set, `u64::MAX` for none) or the operations (kernel work, whose
/// `execution` holds its bytes).
#[derive(Clone, Copy)]
struct RawEvent {
    time: u64,
    execution: u64,
    aux: u64,
    a: u32,
    b: u32,
    tag: u8,
    flag: u8,
}

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
    events: Log<RawEvent>,
    values: Log<ValueText>,
    /// Values pushed so far (the next value's slot); only the owner writes.
    value_count: AtomicU64,
    /// When this thread last sampled the live values (+1; 0: never); only
    /// the owner uses it.
    last_sample: AtomicU64,
}

thread_local! {
    /// The logs this thread writes, one per recorder it reported to.
    static LOGS: RefCell<Vec<Arc<ThreadLogs>>> = const { RefCell::new(Vec::new()) };
}

static NEXT_RECORDER: AtomicU64 = AtomicU64::new(1);

/// An [`Observer`] that records every event; [`finish`](Self::finish)
/// turns what it saw into a [`Recording`].
pub struct Recorder {
    id: u64,
    epoch: Instant,
    options: RecorderOptions,
    threads: Mutex<Vec<Arc<ThreadLogs>>>,
}

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
        Arc::new(Recorder {
            id: NEXT_RECORDER.fetch_add(1, Ordering::Relaxed),
            epoch: Instant::now(),
            options,
            threads: Mutex::new(Vec::new()),
        })
    }

    /// When time 0 was.
    pub fn epoch(&self) -> Instant {
        self.epoch
    }

    /// The events recorded so far (all of them once the runs observed have
    /// finished), under `header` and the program's `functions`.
    pub fn finish(&self, mut header: Header, functions: Vec<FunctionInfo>) -> Recording {
        header.values = self.options.values;
        let threads = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        let threads = threads
            .iter()
            .map(|logs| {
                let values = logs.values.snapshot();
                let events = logs
                    .events
                    .snapshot()
                    .into_iter()
                    .map(|raw| decode(raw, &values))
                    .collect();
                ThreadTrack {
                    name: logs.name.clone(),
                    events,
                    dropped: logs.events.dropped(),
                }
            })
            .collect();
        Recording {
            header,
            functions,
            threads,
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
                events: Log::new(capacity),
                values: Log::new(if self.options.values { capacity } else { 1 }),
                value_count: AtomicU64::new(0),
                last_sample: AtomicU64::new(0),
            });
            mine.events.reserve_first();
            threads.push(mine.clone());
            drop(threads);
            f(&mine);
            logs.push(mine);
        });
    }
}

impl Observer for Recorder {
    fn on_kernel_work(&self, work: KernelWork, _thread: std::thread::ThreadId, time: Instant) {
        let raw = RawEvent {
            time: time.saturating_duration_since(self.epoch).as_nanos() as u64,
            execution: work.bytes,
            aux: work.flops,
            a: 0,
            b: 0,
            tag: WORK,
            flag: 0,
        };
        // SAFETY: `logs` is reached only through this thread's `LOGS`, so
        // this thread is the log's only writer.
        self.with_logs(|logs| unsafe { logs.events.push(raw) });
    }

    #[inline]
    fn on_event(&self, event: &ExecEvent<'_>) {
        let time = event
            .time()
            .saturating_duration_since(self.epoch)
            .as_nanos() as u64;
        let execution = event.execution();
        let mut raw = RawEvent {
            time,
            execution,
            aux: 0,
            a: 0,
            b: 0,
            tag: 0,
            flag: 0,
        };
        let mut value = None;
        match *event {
            ExecEvent::FunctionBegin {
                function, caller, ..
            } => {
                raw.tag = BEGIN;
                raw.a = function as u32;
                if let Some(c) = caller {
                    raw.flag = 1;
                    raw.aux = c.execution;
                    raw.b = c.kernel;
                }
            }
            ExecEvent::FunctionEnd { .. } => raw.tag = END,
            ExecEvent::KernelReady { kernel, .. } => {
                raw.tag = READY;
                raw.a = kernel;
            }
            ExecEvent::KernelStart { kernel, .. } => {
                raw.tag = START;
                raw.a = kernel;
            }
            ExecEvent::KernelEnd {
                kernel, skipped, ..
            } => {
                raw.tag = KERNEL_END;
                raw.a = kernel;
                raw.flag = u8::from(skipped);
            }
            ExecEvent::RegisterSet {
                register,
                producer,
                state,
                value: v,
                ..
            } => {
                raw.tag = SET;
                raw.a = register;
                raw.b = producer;
                // An unavailable value may be an indirect one, waiting to be
                // forwarded.
                let state = if state.is_available() {
                    ValueState::from(state)
                } else {
                    ValueState::of(v)
                };
                raw.flag = state.to_u8();
                raw.aux = u64::MAX;
                // Errors are always worth their message; other values only
                // when asked.
                if self.options.values || state == ValueState::Error {
                    value = Some(render(v));
                }
            }
        }
        self.with_logs(|logs| {
            if raw.tag == KERNEL_END {
                let last = logs.last_sample.load(Ordering::Relaxed);
                if last == 0 || time + 1 >= last + LIVE_SAMPLE_NS {
                    logs.last_sample.store(time + 1, Ordering::Relaxed);
                    raw.aux = live_async_values() as u64 + 1;
                }
            }
            // Without --values the value log holds only error messages
            // (rare), and is sized for few.
            if let Some(text) = value {
                raw.aux = logs.value_count.fetch_add(1, Ordering::Relaxed);
                // SAFETY: `logs` is reached only through this thread's
                // `LOGS`, so this thread is the log's only writer.
                unsafe { logs.values.push(text) };
            }
            // SAFETY: as above, this thread is the only writer.
            unsafe { logs.events.push(raw) };
        });
    }
}

fn decode(raw: RawEvent, values: &[ValueText]) -> Event {
    let kind = match raw.tag {
        BEGIN => EventKind::FunctionBegin {
            function: raw.a,
            caller: (raw.flag == 1).then_some(CallerRef {
                execution: raw.aux,
                kernel: raw.b,
            }),
        },
        END => EventKind::FunctionEnd,
        READY => EventKind::KernelReady { kernel: raw.a },
        START => EventKind::KernelStart { kernel: raw.a },
        KERNEL_END => EventKind::KernelEnd {
            kernel: raw.a,
            skipped: raw.flag == 1,
            live_values: raw.aux.checked_sub(1),
        },
        WORK => {
            return Event {
                time: raw.time,
                execution: 0,
                kind: EventKind::KernelWork {
                    flops: raw.aux,
                    bytes: raw.execution,
                },
            };
        }
        _ => EventKind::RegisterSet {
            register: raw.a,
            producer: raw.b,
            state: ValueState::from_u8(raw.flag).unwrap_or(ValueState::Unavailable),
            value: usize::try_from(raw.aux)
                .ok()
                .and_then(|i| values.get(i))
                .map(|t| String::from_utf8_lossy(&t.bytes[..t.len as usize]).into_owned()),
        },
    };
    Event {
        time: raw.time,
        execution: raw.execution,
        kind,
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
