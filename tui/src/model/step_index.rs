//! Where each kernel and register of a function shows up in a recording's
//! events, built once when the recording is ordered, so that following a
//! kernel across executions (`}`/`{`) and following a watched register or
//! kernel to its next change take a binary search and a short scan, not a
//! pass over millions of events.
//!
//! Events are named by their position in the time-ordered steps (`u32`:
//! a recording holding more steps than that could not be held in memory
//! anyway; steps past it are left out of the index).

use hashbrown::HashMap;

use bef_trace::recording::EventKind;

/// What an event is about, within one function: one of its kernels, or
/// the function's own begin and end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Subject {
    /// Kernel `.0` of the function.
    Kernel(u32),
    /// The function's begin or end.
    Frame,
}

/// The positions of every kernel's and register's events, per function.
#[derive(Debug, Default)]
pub struct StepIndex {
    /// Each step's execution ordinal (1-based, in order of first
    /// appearance; 0: none known).
    ordinals: Vec<u32>,
    /// (function, subject) → its events as (execution ordinal, step),
    /// sorted: every execution's events of the subject are together.
    subjects: HashMap<(u32, Subject), Vec<(u32, u32)>>,
    /// (function, register) → the steps publishing or updating it in any
    /// execution of the function, in time order.
    registers: HashMap<(u32, u32), Vec<u32>>,
}

impl StepIndex {
    /// Indexes the steps `steps` lists in time order (each step's
    /// execution, what it is about, the register it publishes), whose
    /// executions run the functions `function_of` gives and are numbered
    /// as `ordinal_of` numbers them.
    pub fn build(
        steps: impl ExactSizeIterator<Item = (u64, Option<Subject>, Option<u32>)>,
        function_of: impl Fn(u64) -> Option<u32>,
        ordinal_of: impl Fn(u64) -> Option<usize>,
    ) -> StepIndex {
        let mut index = StepIndex {
            ordinals: Vec::with_capacity(steps.len()),
            ..StepIndex::default()
        };
        // Consecutive steps are mostly of one execution: look it up once.
        let mut last: Option<(u64, Option<u32>, u32)> = None;
        for (i, (execution, subject, register)) in steps.enumerate() {
            let Ok(position) = u32::try_from(i) else {
                break;
            };
            let (function, ordinal) = match last {
                Some((e, f, o)) if e == execution => (f, o),
                _ => {
                    let f = function_of(execution);
                    let o = ordinal_of(execution)
                        .and_then(|o| u32::try_from(o).ok())
                        .unwrap_or(0);
                    last = Some((execution, f, o));
                    (f, o)
                }
            };
            index.ordinals.push(ordinal);
            let Some(function) = function else { continue };
            if let Some(subject) = subject {
                index
                    .subjects
                    .entry((function, subject))
                    .or_default()
                    .push((ordinal, position));
            }
            if let Some(register) = register {
                index
                    .registers
                    .entry((function, register))
                    .or_default()
                    .push(position);
            }
        }
        for postings in index.subjects.values_mut() {
            // Steps are already in order within an ordinal: a stable sort.
            postings.sort_by_key(|&(ordinal, _)| ordinal);
        }
        index
    }

    /// The execution ordinal of step `step` (0: none).
    pub fn ordinal(&self, step: usize) -> u32 {
        self.ordinals.get(step).copied().unwrap_or(0)
    }

    /// The events of `subject` in the nearest execution of `function`
    /// after (`forward`) or before ordinal `here`, in step order.
    pub fn nearest_execution(
        &self,
        function: u32,
        subject: Subject,
        here: u32,
        forward: bool,
    ) -> &[(u32, u32)] {
        let Some(postings) = self.subjects.get(&(function, subject)) else {
            return &[];
        };
        let target = if forward {
            let from = postings.partition_point(|&(o, _)| o <= here);
            match postings.get(from) {
                Some(&(o, _)) => o,
                None => return &[],
            }
        } else {
            let to = postings.partition_point(|&(o, _)| o < here);
            match to.checked_sub(1).and_then(|i| postings.get(i)) {
                Some(&(o, _)) => o,
                None => return &[],
            }
        };
        let start = postings.partition_point(|&(o, _)| o < target);
        let end = postings.partition_point(|&(o, _)| o <= target);
        &postings[start..end]
    }

    /// Every event of `subject` in every execution of `function`, as
    /// (execution ordinal, step), grouped by execution.
    pub fn subject_steps(&self, function: u32, subject: Subject) -> &[(u32, u32)] {
        self.subjects
            .get(&(function, subject))
            .map_or(&[], Vec::as_slice)
    }

    /// The steps publishing or updating register `register` in any
    /// execution of `function`, in time order.
    pub fn register_steps(&self, function: u32, register: u32) -> &[u32] {
        self.registers
            .get(&(function, register))
            .map_or(&[], Vec::as_slice)
    }
}

/// The register an event publishes or updates, if any.
pub fn register_of(kind: &EventKind) -> Option<u32> {
    match kind {
        EventKind::RegisterSet { register, .. }
        | EventKind::ResultAvailable { register, .. }
        | EventKind::ValueUpdated { register, .. } => Some(*register),
        _ => None,
    }
}
