//! Watchpoints on a recording: a register or a kernel of a function,
//! followed across every execution of the function, and the next (or
//! previous) event where it changes, becomes an error, or takes a value
//! typed in. The events come from the trace's [`StepIndex`], so a jump
//! scans only the watched subject's events.
//!
//! [`StepIndex`]: crate::model::step_index::StepIndex

use bef_trace::recording::{EventKind, ValueState};

use crate::model::execution::Trace;
use crate::model::step_index::Subject;

/// What is watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watched {
    /// Register `register` of function `function`, in every execution.
    Register {
        /// The function's index in the recording.
        function: u32,
        /// The register.
        register: u32,
    },
    /// Kernel `kernel` of function `function`, in every execution.
    Kernel {
        /// The function's index in the recording.
        function: u32,
        /// The kernel.
        kernel: u32,
    },
}

/// Where a watch stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// Wherever the register's state or value differs from its version
    /// before (every publication when values were not recorded); for a
    /// kernel, every event of it.
    Changes,
    /// Where the register becomes an error; for a kernel, where it ends
    /// as the origin of an error or poisoned by one.
    Error,
    /// Where the register (or a register the kernel publishes) takes this
    /// value, as the tab shows it.
    Equals(String),
}

/// A watchpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watch {
    /// What is watched.
    pub watched: Watched,
    /// Where it stops.
    pub condition: Condition,
}

/// A published or updated register's state and value at one event.
fn version(kind: &EventKind) -> Option<(ValueState, Option<&str>)> {
    match kind {
        EventKind::RegisterSet { state, value, .. }
        | EventKind::ResultAvailable { state, value, .. } => Some((*state, value.as_deref())),
        EventKind::ValueUpdated { value, .. } => Some((ValueState::Concrete, value.as_deref())),
        _ => None,
    }
}

impl Watch {
    /// How the status line names the watch: `%3 of @body: changes`.
    pub fn describe(&self, trace: &Trace) -> String {
        let (what, function) = match self.watched {
            Watched::Register { function, register } => (format!("%{register}"), function),
            Watched::Kernel { function, kernel } => (
                format!(
                    "kernel {kernel} {}",
                    trace.recording.kernel_name(function, kernel)
                ),
                function,
            ),
        };
        let when = match &self.condition {
            Condition::Changes => "changes".to_owned(),
            Condition::Error => "becomes an error".to_owned(),
            Condition::Equals(v) => format!("= {v}"),
        };
        format!(
            "{what} of @{}: {when}",
            trace.recording.function_name(function)
        )
    }

    /// The next (`forward`) or previous event from `cursor` where the
    /// watch stops, if any.
    pub fn next(&self, trace: &Trace, cursor: usize, forward: bool) -> Option<usize> {
        match self.watched {
            Watched::Register { function, register } => {
                self.next_of_register(trace, function, register, cursor, forward)
            }
            Watched::Kernel { function, kernel } => {
                self.next_of_kernel(trace, function, kernel, cursor, forward)
            }
        }
    }

    fn next_of_register(
        &self,
        trace: &Trace,
        function: u32,
        register: u32,
        cursor: usize,
        forward: bool,
    ) -> Option<usize> {
        let steps = trace.index().register_steps(function, register);
        let kind_at = |j: usize| {
            steps
                .get(j)
                .and_then(|&s| trace.steps.get(s as usize))
                .and_then(|s| version(&s.event.kind))
        };
        let stops = |j: usize| {
            let Some((state, value)) = kind_at(j) else {
                return false;
            };
            match &self.condition {
                Condition::Changes => {
                    value.is_none()
                        || j.checked_sub(1)
                            .and_then(kind_at)
                            .is_none_or(|before| before != (state, value))
                }
                Condition::Error => state == ValueState::Error,
                Condition::Equals(wanted) => value.is_some_and(|v| v.trim() == wanted.trim()),
            }
        };
        if forward {
            let from = steps.partition_point(|&s| (s as usize) <= cursor);
            (from..steps.len())
                .find(|&j| stops(j))
                .map(|j| steps[j] as usize)
        } else {
            let to = steps.partition_point(|&s| (s as usize) < cursor);
            (0..to).rev().find(|&j| stops(j)).map(|j| steps[j] as usize)
        }
    }

    fn next_of_kernel(
        &self,
        trace: &Trace,
        function: u32,
        kernel: u32,
        cursor: usize,
        forward: bool,
    ) -> Option<usize> {
        let stops = |step: usize| {
            let Some(s) = trace.steps.get(step) else {
                return false;
            };
            match &self.condition {
                Condition::Changes => true,
                Condition::Error => {
                    matches!(s.event.kind, EventKind::KernelEnd { .. })
                        && trace.step_mark(step).is_some()
                }
                Condition::Equals(wanted) => version(&s.event.kind)
                    .and_then(|(_, v)| v)
                    .is_some_and(|v| v.trim() == wanted.trim()),
            }
        };
        // Grouped by execution, not by time: the nearest is the least
        // (or greatest) step beyond the cursor of all of them.
        let candidates = trace
            .index()
            .subject_steps(function, Subject::Kernel(kernel))
            .iter()
            .map(|&(_, step)| step as usize)
            .filter(|&step| {
                if forward {
                    step > cursor
                } else {
                    step < cursor
                }
            })
            .filter(|&step| stops(step));
        if forward {
            candidates.min()
        } else {
            candidates.max()
        }
    }
}
