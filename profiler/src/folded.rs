//! Folded stacks (`frame;frame;frame count`, counts in nanoseconds): the
//! call stack of each slice of kernel time, `function;kernel#index` pair
//! by pair through every call, with error marks on the kernel frames.

use std::collections::BTreeMap;

use crate::model::{ErrorMark, Model};

/// Which time a stack is charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// Time threads spent in kernels, summed over threads.
    #[default]
    Cpu,
    /// The recording's wall time: each moment shared among the kernels
    /// running then, moments when none runs charged to `(idle)`. With
    /// lanes, each thread's whole span, its idle gaps included.
    Wall,
}

/// How stacks are folded.
#[derive(Debug, Clone, Copy, Default)]
pub struct FoldOptions {
    /// Which time.
    pub clock: Clock,
    /// One lane per thread: stacks start with the thread's name.
    pub per_thread: bool,
    /// Keep time order (for flame charts): consecutive slices with the same
    /// stack merge, nothing else does.
    pub time_order: bool,
}

/// Calls kept in a stack: deeper recursion keeps its innermost calls,
/// under one [`OUTER`] frame (as profilers cap stack depth).
pub const MAX_DEPTH: usize = 128;

/// The frame standing for the calls beyond [`MAX_DEPTH`].
pub const OUTER: &str = "(outer calls)";

/// The frame of idle time.
pub const IDLE: &str = "(idle)";

/// Folded stacks of `model`: sorted by stack and merged, or in time order.
pub fn fold(model: &Model<'_>, options: &FoldOptions) -> Vec<(String, u64)> {
    let stacks = StackNames::new(model);
    let slices = match options.clock {
        Clock::Cpu => cpu_slices(model),
        Clock::Wall => wall_slices(model, options.per_thread),
    };
    let name = |slice: &Slice| {
        let mut stack = String::new();
        if options.per_thread {
            stack.push_str(&frame_text(model.thread_name(slice.thread)));
            stack.push(';');
        }
        match slice.run {
            Some(run) => stack.push_str(&stacks.of(run)),
            None => stack.push_str(IDLE),
        }
        stack
    };
    if options.time_order {
        let mut ordered = slices;
        ordered.sort_by_key(|s| (options.per_thread.then_some(s.thread), s.start));
        let mut out: Vec<(String, u64)> = Vec::new();
        for slice in &ordered {
            let stack = name(slice);
            match out.last_mut() {
                Some(last) if last.0 == stack => last.1 += slice.time,
                _ => out.push((stack, slice.time)),
            }
        }
        out.retain(|l| l.1 > 0);
        return out;
    }
    let mut merged: BTreeMap<String, u64> = BTreeMap::new();
    for slice in &slices {
        *merged.entry(name(slice)).or_default() += slice.time;
    }
    merged.into_iter().filter(|l| l.1 > 0).collect()
}

/// The folded text: one `stack count` line each.
pub fn to_text(lines: &[(String, u64)]) -> String {
    lines.iter().map(|(s, n)| format!("{s} {n}\n")).collect()
}

/// Time charged to a stack: a run's (or idle time when `run` is `None`).
struct Slice {
    thread: usize,
    start: u64,
    time: u64,
    run: Option<usize>,
}

fn cpu_slices(model: &Model<'_>) -> Vec<Slice> {
    model
        .segments
        .iter()
        .map(|s| Slice {
            thread: s.thread,
            start: s.start,
            time: s.end - s.start,
            run: Some(s.run),
        })
        .collect()
}

fn wall_slices(model: &Model<'_>, per_thread: bool) -> Vec<Slice> {
    let (begin, end) = model.span;
    if per_thread {
        // Each lane: its segments, and the gaps between them as idle.
        let mut out = Vec::new();
        let mut by_thread = vec![Vec::new(); model.recording.threads.len()];
        for s in &model.segments {
            by_thread[s.thread].push(s);
        }
        for (thread, mut mine) in by_thread.into_iter().enumerate() {
            let mut at = begin;
            mine.sort_by_key(|s| s.start);
            for s in mine {
                if s.start > at {
                    out.push(Slice {
                        thread,
                        start: at,
                        time: s.start - at,
                        run: None,
                    });
                }
                out.push(Slice {
                    thread,
                    start: s.start,
                    time: s.end - s.start,
                    run: Some(s.run),
                });
                at = at.max(s.end);
            }
            if end > at {
                out.push(Slice {
                    thread,
                    start: at,
                    time: end - at,
                    run: None,
                });
            }
        }
        return out;
    }
    // One timeline: cut at every segment boundary, share each piece.
    let mut cuts: Vec<(u64, bool, usize)> = Vec::new();
    for (i, s) in model.segments.iter().enumerate() {
        cuts.push((s.start, true, i));
        cuts.push((s.end, false, i));
    }
    cuts.sort_by_key(|c| (c.0, c.1));
    let mut active: Vec<usize> = Vec::new();
    let mut at = begin;
    let mut out = Vec::new();
    for (time, opens, i) in cuts {
        if time > at {
            share(model, &active, at, time - at, &mut out);
            at = time;
        }
        if opens {
            active.push(i);
        } else if let Some(p) = active.iter().position(|&a| a == i) {
            active.swap_remove(p);
        }
    }
    if end > at {
        share(model, &active, at, end - at, &mut out);
    }
    out
}

/// Splits `time` among the active segments (the remainder to the first).
fn share(model: &Model<'_>, active: &[usize], start: u64, time: u64, out: &mut Vec<Slice>) {
    if active.is_empty() {
        out.push(Slice {
            thread: 0,
            start,
            time,
            run: None,
        });
        return;
    }
    let n = active.len() as u64;
    for (k, &i) in active.iter().enumerate() {
        let s = &model.segments[i];
        let part = time / n + if k == 0 { time % n } else { 0 };
        out.push(Slice {
            thread: s.thread,
            start,
            time: part,
            run: Some(s.run),
        });
    }
}

/// A frame as folded text allows: no `;`, no line breaks.
fn frame_text(name: &str) -> String {
    name.replace([';', '\n', '\r'], ":")
}

/// Stack names, cached per run.
struct StackNames<'m, 'r> {
    model: &'m Model<'r>,
    cache: std::cell::RefCell<std::collections::HashMap<usize, String>>,
}

impl<'m, 'r> StackNames<'m, 'r> {
    fn new(model: &'m Model<'r>) -> Self {
        StackNames {
            model,
            cache: Default::default(),
        }
    }

    fn of(&self, run: usize) -> String {
        if let Some(s) = self.cache.borrow().get(&run) {
            return s.clone();
        }
        let model = self.model;
        let mut stack = String::new();
        let (chain, left_out) = model.call_chain_innermost(run, MAX_DEPTH);
        if left_out {
            stack.push_str(OUTER);
            stack.push(';');
        }
        for (i, &r) in chain.iter().enumerate() {
            if i > 0 {
                stack.push(';');
            }
            let function = model.function_of(r);
            stack.push_str(&frame_text(&model.recording.function_name(function)));
            stack.push(';');
            stack.push_str(&frame_text(&kernel_frame(model, r)));
        }
        self.cache.borrow_mut().insert(run, stack.clone());
        stack
    }
}

/// A run's kernel frame: `name#index`, marked when an error touched it.
pub fn kernel_frame(model: &Model<'_>, run: usize) -> String {
    let frame = model.frame(run);
    match model.runs[run].error {
        Some(ErrorMark::Origin) => format!("{frame} [error]"),
        Some(ErrorMark::Poisoned) => format!("{frame} [poisoned]"),
        None => frame,
    }
}
