//! What part of a recording to analyse: a time range, the executions of
//! one function and everything they call, the threads of one name. A
//! [`Selection`] is applied to the recording before its
//! [`Model`](crate::Model) is built, so that every export, the statistics
//! and the critical path (its flows included) see only what is kept, and
//! see it alike.
//!
//! A kernel run or an execution straddling a bound of the time range is
//! clipped to it: it is kept, starting at `--from` and ending at `--to`,
//! so that every time an export shows lies in the range and the time
//! summed over the range is the time spent in it. Instant events (values
//! published, completions, work, readiness) are kept when they fall in
//! the range.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::capture::recording::{Event, EventKind, Events, Recording};

/// How many known names an error about an unknown one lists.
const NAMES_LISTED: usize = 8;

/// The part of a recording to keep; every field left `None` keeps it
/// whole.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Nanoseconds after the recording's first event where the range
    /// begins.
    pub from: Option<u64>,
    /// Nanoseconds after the recording's first event where the range
    /// ends (one past the recording's last event keeps its end).
    pub to: Option<u64>,
    /// Keep the executions of the function of this name (a leading `@`
    /// is ignored) and every execution they called, directly or not.
    pub function: Option<String>,
    /// Keep the threads of this name: a thread's label as the exports
    /// show it (`pool (2)`), or its recorded name (all threads sharing it).
    pub thread: Option<String>,
}

/// Why a selection cannot be applied to a recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectionError {
    /// `--from` is after `--to`.
    FromAfterTo {
        /// `--from`, in nanoseconds.
        from: u64,
        /// `--to`, in nanoseconds.
        to: u64,
    },
    /// `--from` is past the recording's last event: nothing would be kept.
    PastEnd {
        /// `--from`, in nanoseconds.
        from: u64,
        /// How long the recording lasts, first event to last.
        length: u64,
    },
    /// No function of the recording has this name.
    UnknownFunction {
        /// The name asked for.
        name: String,
        /// A few names it has.
        known: Vec<String>,
    },
    /// No thread of the recording has this name.
    UnknownThread {
        /// The name asked for.
        name: String,
        /// A few names it has.
        known: Vec<String>,
    },
}

impl fmt::Display for SelectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelectionError::FromAfterTo { from, to } => write!(
                f,
                "--from {} is after --to {}: the range would be empty",
                time(*from),
                time(*to)
            ),
            SelectionError::PastEnd { from, length } => write!(
                f,
                "--from {} is past the end of the recording, which lasts {}",
                time(*from),
                time(*length)
            ),
            SelectionError::UnknownFunction { name, known } => write!(
                f,
                "--function {}: no function of the recording has that name; it has {}",
                crate::display::name(name),
                listed(known)
            ),
            SelectionError::UnknownThread { name, known } => write!(
                f,
                "--thread {}: no thread of the recording has that name; it has {}",
                crate::display::name(name),
                listed(known)
            ),
        }
    }
}

impl std::error::Error for SelectionError {}

/// `a, b, c, ...` of the first [`NAMES_LISTED`] names, each cut and
/// escaped as names are shown.
fn listed(names: &[String]) -> String {
    if names.is_empty() {
        return "none".to_string();
    }
    let mut text: Vec<String> = names
        .iter()
        .take(NAMES_LISTED)
        .map(|n| crate::display::name(n).into_owned())
        .collect();
    if names.len() > NAMES_LISTED {
        text.push(format!("... ({} in all)", names.len()));
    }
    text.join(", ")
}

/// `ns` as the time flags spell it: `1.500s`, `2.250ms`, `40.000us`, `7ns`.
fn time(ns: u64) -> String {
    let n = ns as f64;
    match ns {
        1_000_000_000.. => format!("{:.3}s", n / 1e9),
        1_000_000.. => format!("{:.3}ms", n / 1e6),
        1_000.. => format!("{:.3}us", n / 1e3),
        _ => format!("{ns}ns"),
    }
}

/// An execution as its begin and end events tell it.
struct ExecutionSpan {
    begin: u64,
    end: Option<u64>,
    function: u32,
    caller: Option<crate::capture::recording::CallerRef>,
}

/// Where the pass over a thread's events stands. The events kept are
/// moved to the front of the thread's own vector as the pass goes, so
/// that a selection needs no second copy of them.
#[derive(Default)]
struct ThreadPass {
    /// How many events are kept so far (at the front).
    written: usize,
    /// Kept starts before the range whose end has not come yet, by run,
    /// with their position: one that ends before the range is discarded.
    pending: HashMap<(u64, u32), usize>,
    /// Positions of starts kept but discarded since.
    discard: Vec<usize>,
    /// Runs whose start was kept and whose end has not come yet.
    open: HashSet<(u64, u32)>,
    /// Open runs of the recording on this thread, innermost last, and
    /// whether their execution is kept: which run reported a work event.
    stack: Vec<((u64, u32), bool)>,
    /// Where each run sits on `stack`.
    depth: HashMap<(u64, u32), usize>,
}

impl Selection {
    /// Whether it keeps the whole recording.
    pub fn is_everything(&self) -> bool {
        *self == Selection::default()
    }

    /// The part of `recording` selected: the threads selected, each
    /// keeping the events of the executions selected that fall in the
    /// range, runs and executions straddling a bound clipped to it (see
    /// the [module](self) documentation). An execution whose begin was on
    /// a thread left out begins, for what is kept, on the first kept
    /// thread that has its events.
    pub fn apply(&self, mut recording: Recording) -> Result<Recording, SelectionError> {
        if self.is_everything() {
            return Ok(recording);
        }
        let (first, last) = recording
            .threads
            .iter()
            .flat_map(|t| &t.events)
            .fold((u64::MAX, 0), |(lo, hi), e| {
                (lo.min(e.time), hi.max(e.time))
            });
        let (first, last) = if first > last { (0, 0) } else { (first, last) };
        let length = last - first;
        if let (Some(from), Some(to)) = (self.from, self.to)
            && from > to
        {
            return Err(SelectionError::FromAfterTo { from, to });
        }
        if let Some(from) = self.from
            && from > length
        {
            return Err(SelectionError::PastEnd { from, length });
        }
        let lo = first.saturating_add(self.from.unwrap_or(0));
        let hi = self.to.map_or(u64::MAX, |to| first.saturating_add(to));
        let functions = self.functions_selected(&recording)?;
        let threads = self.threads_selected(&recording)?;

        let spans = execution_spans(&recording);
        let kept = kept_executions(&spans, functions.as_deref(), lo, hi);
        let clip = |time: u64| time.clamp(lo, hi);

        // Where each kept execution's begin and end were placed.
        let mut begun: HashSet<u64> = HashSet::new();
        let mut ended: HashSet<u64> = HashSet::new();
        // The first kept thread with events of an execution whose begin
        // was left out.
        let mut home: HashMap<u64, usize> = HashMap::new();
        let tracks = std::mem::take(&mut recording.threads);
        let mut out = Vec::with_capacity(tracks.len());
        for (index, mut track) in tracks.into_iter().enumerate() {
            if !threads[index] {
                continue;
            }
            let at = out.len();
            let mut pass = ThreadPass::default();
            // The events kept, encoded as they are chosen.
            let mut written = Events::new();
            for event in track.events.iter() {
                let (time, execution) = (event.time, event.execution);
                let key = |kernel: u32| (execution, kernel);
                let in_range = (lo..=hi).contains(&time);
                let execution_kept = kept.contains(&execution);
                // The event's time once kept, clipped; `None`: dropped.
                let keep = match event.kind {
                    EventKind::FunctionBegin { .. } => {
                        (execution_kept && begun.insert(execution)).then(|| clip(time))
                    }
                    EventKind::FunctionEnd => {
                        (execution_kept && ended.insert(execution)).then(|| clip(time))
                    }
                    EventKind::KernelStart { kernel } => {
                        let run = key(kernel);
                        pass.depth.insert(run, pass.stack.len());
                        pass.stack.push((run, execution_kept));
                        if !execution_kept || time > hi {
                            None
                        } else {
                            home.entry(execution).or_insert(at);
                            if in_range {
                                pass.open.insert(run);
                            } else {
                                pass.pending.insert(run, pass.written);
                            }
                            Some(clip(time))
                        }
                    }
                    EventKind::KernelEnd { kernel, .. } => {
                        let run = key(kernel);
                        if let Some(depth) = pass.depth.remove(&run)
                            && pass.stack.get(depth).is_some_and(|s| s.0 == run)
                        {
                            pass.stack.truncate(depth);
                        }
                        let started_before = pass.pending.remove(&run);
                        if !execution_kept {
                            None
                        } else if time < lo {
                            // It ended before the range: so did its start.
                            pass.discard.extend(started_before);
                            None
                        } else {
                            // A start before the range reached into it.
                            let started = started_before.is_some() || pass.open.remove(&run);
                            (in_range || started).then(|| {
                                home.entry(execution).or_insert(at);
                                clip(time)
                            })
                        }
                    }
                    EventKind::KernelWork { .. } => {
                        // Reported by the innermost run open on the thread.
                        let reporter_kept = pass.stack.last().is_none_or(|s| s.1);
                        (in_range && reporter_kept).then_some(time)
                    }
                    EventKind::KernelReady { .. }
                    | EventKind::RegisterSet { .. }
                    | EventKind::ResultAvailable { .. }
                    | EventKind::ValueUpdated { .. } => (in_range && execution_kept).then(|| {
                        home.entry(execution).or_insert(at);
                        time
                    }),
                };
                if let Some(time) = keep {
                    written.push(Event { time, ..event });
                    pass.written += 1;
                }
            }
            // Starts before the range that never ended were running in it
            // and stay; those that ended before it go.
            if !pass.discard.is_empty() {
                pass.discard.sort_unstable();
                let mut position = 0;
                written.retain(|_| {
                    let keep = pass.discard.binary_search(&position).is_err();
                    position += 1;
                    keep
                });
            }
            track.events = written;
            out.push(track);
        }
        place_bounds(&mut out, &spans, &home, &begun, &ended, clip);
        recording.threads = out;
        Ok(recording)
    }

    /// Which function indices `--function` keeps (`None`: all of them).
    fn functions_selected(
        &self,
        recording: &Recording,
    ) -> Result<Option<Vec<bool>>, SelectionError> {
        let Some(name) = &self.function else {
            return Ok(None);
        };
        let wanted = name.strip_prefix('@').unwrap_or(name);
        let names: Vec<String> = (0..recording.functions.len() as u32)
            .map(|f| recording.function_name(f))
            .collect();
        let selected: Vec<bool> = names.iter().map(|n| n == wanted).collect();
        if !selected.contains(&true) {
            let mut known = names;
            known.sort();
            known.dedup();
            return Err(SelectionError::UnknownFunction {
                name: name.clone(),
                known,
            });
        }
        Ok(Some(selected))
    }

    /// Which threads `--thread` keeps, by index.
    fn threads_selected(&self, recording: &Recording) -> Result<Vec<bool>, SelectionError> {
        let Some(name) = &self.thread else {
            return Ok(vec![true; recording.threads.len()]);
        };
        let labels = crate::analysis::model::thread_labels(recording);
        let by_label: Vec<bool> = labels.iter().map(|l| l == name).collect();
        if by_label.contains(&true) {
            return Ok(by_label);
        }
        let by_name: Vec<bool> = recording.threads.iter().map(|t| &t.name == name).collect();
        if by_name.contains(&true) {
            return Ok(by_name);
        }
        Err(SelectionError::UnknownThread {
            name: name.clone(),
            known: labels,
        })
    }
}

/// Every execution's begin (the earliest) and end (the latest), by id.
fn execution_spans(recording: &Recording) -> HashMap<u64, ExecutionSpan> {
    let mut spans: HashMap<u64, ExecutionSpan> = HashMap::new();
    for e in recording.threads.iter().flat_map(|t| &t.events) {
        if let EventKind::FunctionBegin { function, caller } = e.kind {
            let span = spans.entry(e.execution).or_insert(ExecutionSpan {
                begin: e.time,
                end: None,
                function,
                caller,
            });
            if e.time < span.begin {
                *span = ExecutionSpan {
                    begin: e.time,
                    end: span.end,
                    function,
                    caller,
                };
            }
        }
    }
    for e in recording.threads.iter().flat_map(|t| &t.events) {
        if let EventKind::FunctionEnd = e.kind
            && let Some(span) = spans.get_mut(&e.execution)
        {
            span.end = Some(span.end.map_or(e.time, |end| end.max(e.time)));
        }
    }
    spans
}

/// The executions kept: those reaching into `lo..=hi`, of a function
/// selected or called (directly or not) from one. A caller counts only
/// if it began first, as in the model, so that callers never loop.
fn kept_executions(
    spans: &HashMap<u64, ExecutionSpan>,
    functions: Option<&[bool]>,
    lo: u64,
    hi: u64,
) -> HashSet<u64> {
    let mut order: Vec<(u64, u64)> = spans.iter().map(|(&id, s)| (s.begin, id)).collect();
    order.sort_unstable();
    let mut of_function: HashSet<u64> = HashSet::new();
    if let Some(functions) = functions {
        for &(begin, id) in &order {
            let span = &spans[&id];
            let selected = functions.get(span.function as usize) == Some(&true)
                || span.caller.is_some_and(|c| {
                    of_function.contains(&c.execution)
                        && spans.get(&c.execution).is_some_and(|s| s.begin < begin)
                });
            if selected {
                of_function.insert(id);
            }
        }
    }
    order
        .into_iter()
        .map(|(_, id)| id)
        .filter(|id| functions.is_none() || of_function.contains(id))
        .filter(|id| {
            let span = &spans[id];
            span.begin <= hi && span.end.is_none_or(|end| end >= lo)
        })
        .collect()
}

/// Gives each kept execution with events whose begin (or end) was on a
/// thread left out a begin (and end) on its home thread, clipped, in
/// time order among that thread's events.
fn place_bounds(
    threads: &mut [crate::capture::recording::ThreadTrack],
    spans: &HashMap<u64, ExecutionSpan>,
    home: &HashMap<u64, usize>,
    begun: &HashSet<u64>,
    ended: &HashSet<u64>,
    clip: impl Fn(u64) -> u64,
) {
    let mut added: Vec<Vec<Event>> = vec![Vec::new(); threads.len()];
    for (&id, &thread) in home {
        let span = &spans[&id];
        if !begun.contains(&id) {
            added[thread].push(Event {
                time: clip(span.begin),
                execution: id,
                kind: EventKind::FunctionBegin {
                    function: span.function,
                    caller: span.caller,
                },
            });
        }
        if let Some(end) = span.end
            && !ended.contains(&id)
        {
            added[thread].push(Event {
                time: clip(end),
                execution: id,
                kind: EventKind::FunctionEnd,
            });
        }
    }
    for (track, mut extra) in threads.iter_mut().zip(added) {
        if extra.is_empty() {
            continue;
        }
        // Begins before the events at their time, ends after.
        let rank = |e: &Event| matches!(e.kind, EventKind::FunctionEnd);
        extra.sort_by_key(|e| (e.time, rank(e), e.execution));
        let events = std::mem::take(&mut track.events);
        let mut merged = Events::new();
        let mut extra = extra.into_iter().peekable();
        for e in events.iter() {
            while let Some(x) = extra.next_if(|x| {
                x.time < e.time || (x.time == e.time && !matches!(x.kind, EventKind::FunctionEnd))
            }) {
                merged.push(x);
            }
            merged.push(e);
        }
        merged.extend(extra);
        track.events = merged;
    }
}
