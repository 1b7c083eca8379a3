//! The Execution tab's state and what changes it: the recording shown,
//! the one loading in the background, the run `r` started on the
//! Functions tab, and the time cursor's steps.

use std::sync::Arc;

use super::{App, Pane, Prompt, PromptKind};
use crate::app::events::{Effect, RunRecorded};
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::execution::Trace;
use crate::model::rows::{Cursor, ListId};

/// The Execution tab's state.
#[derive(Default)]
pub struct Execution {
    /// The recording shown, if any.
    pub trace: Option<Arc<Trace>>,
    /// The recording being loaded in the background, if any.
    pub loading: Option<Loading>,
    /// The run `r` started, if it has not ended.
    run: Option<PendingRun>,
    /// The watchpoint `)` and `(` move to, if one is set.
    pub watch: Option<crate::model::watch::Watch>,
}

/// A recording being read on a worker while the view is live.
pub struct Loading {
    /// The recording file.
    pub path: std::path::PathBuf,
    /// What is being done now.
    pub phase: String,
    /// The first tick seen since loading began.
    started: Option<std::time::Instant>,
    /// Whole seconds loading so far.
    pub seconds: u64,
}

impl Loading {
    /// The recording at `path`, just begun.
    pub fn new(path: &std::path::Path) -> Loading {
        Loading {
            path: path.to_owned(),
            phase: "opening".to_owned(),
            started: None,
            seconds: 0,
        }
    }
}

/// A run `r` started, recording on a worker while the view stays live.
struct PendingRun {
    name: String,
    /// The first tick seen since it started: its elapsed time counts from
    /// here.
    started: Option<std::time::Instant>,
    /// Whole seconds shown so far in the status line.
    shown_seconds: u64,
    /// Whether `r` asked it to stop.
    cancelling: bool,
}

impl Execution {
    /// Whether a run started by `r` has not ended yet.
    pub fn running(&self) -> bool {
        self.run.is_some()
    }

    /// Keeps the elapsed times of loading and of a run current; the
    /// status line's new text when a run's whole seconds change.
    fn tick(&mut self, now: std::time::Instant) -> Option<String> {
        if let Some(loading) = &mut self.loading {
            let started = *loading.started.get_or_insert(now);
            loading.seconds = now.saturating_duration_since(started).as_secs();
        }
        let run = self.run.as_mut()?;
        let started = *run.started.get_or_insert(now);
        let seconds = now.saturating_duration_since(started).as_secs();
        if seconds == run.shown_seconds {
            return None;
        }
        run.shown_seconds = seconds;
        Some(if run.cancelling {
            format!("cancelling @{}… {seconds} s", run.name)
        } else {
            format!(
                "running @{}… {seconds} s ({} again cancels)",
                run.name,
                keys::label(Action::Run, Some(Tab::Functions))
            )
        })
    }

    /// The event after (or before) `cursor` that `action` steps to, or
    /// why there is none.
    fn step_from(&self, cursor: usize, action: Action) -> Result<usize, String> {
        let Some(trace) = self.trace.as_ref() else {
            return Err("no recording".to_owned());
        };
        let len = trace.steps.len();
        let next = match action {
            Action::StepBack => cursor.checked_sub(1),
            Action::StepForward => (cursor + 1 < len).then_some(cursor + 1),
            Action::KernelBack => trace.same_kernel(cursor, false),
            _ => trace.same_kernel(cursor, true),
        };
        match next {
            Some(at) => Ok(at),
            None if matches!(action, Action::StepBack | Action::StepForward) => {
                Err("no further event".to_owned())
            }
            None => {
                let which = if action == Action::KernelBack {
                    "earlier"
                } else {
                    "later"
                };
                let what = match trace.steps.get(cursor).and_then(|s| s.kernel()) {
                    Some(_) => "this kernel",
                    None => "this event",
                };
                Err(format!(
                    "no {which} execution of this function reaches {what}"
                ))
            }
        }
    }
}

impl<'d, 'a> App<'d, 'a> {
    /// The event under the time cursor (an index into the trace's steps).
    pub fn time_cursor(&self) -> usize {
        self.rows().time_cursor()
    }

    /// The execution of the event under the time cursor.
    pub fn selected_execution(&self) -> Option<u64> {
        self.rows().selected_execution()
    }

    /// Whether a run started by `r` has not ended yet.
    pub fn running(&self) -> bool {
        self.execution.running()
    }

    /// The status line's path on the Execution tab:
    /// `execution › @fib › kernel 7 › register %3`.
    pub fn execution_path(&self) -> String {
        bef::tool_io::escape::terminal(&self.raw_execution_path()).into_owned()
    }

    fn raw_execution_path(&self) -> String {
        let mut path = String::from("execution");
        let Some(trace) = self.execution.trace.as_ref() else {
            return path + " › no recording";
        };
        let Some(step) = trace.steps.get(self.time_cursor()) else {
            return path;
        };
        let execution = step.event.execution;
        path.push_str(&format!(
            " › {} ({})",
            trace.function_name(execution),
            trace.execution_label(execution)
        ));
        if let Some(k) = step.kernel() {
            path.push_str(&format!(
                " › kernel {k} {}",
                trace.kernel_name(execution, k)
            ));
        }
        if self.pane == Pane::Second {
            let row = self.cursor(ListId::ExecRegisters).selected;
            let count = trace.registers_at(self.time_cursor(), execution).len();
            if row < count {
                path.push_str(&format!(" › register %{row}"));
            }
        }
        path
    }

    /// Asks for the function selected on the Functions tab to be run on
    /// the `s` work queue and recorded with `bef_trace` ([`Effect::Run`],
    /// performed by a worker so that the view stays live);
    /// [`Event::RunEnded`](crate::app::events::Event::RunEnded) shows the
    /// recording on the Execution tab. While it runs, this asks for it to
    /// be cancelled instead. A function with arguments asks for them first,
    /// as JSON (as `bef run --call` takes them); a failed run is a message.
    pub fn run_selected(&mut self) {
        if let Some(run) = &mut self.execution.run {
            self.effects.push(Effect::CancelRun);
            run.cancelling = true;
            self.message = Some(format!(
                "cancelling @{}: kernels not started are skipped",
                run.name
            ));
            return;
        }
        let index = self
            .functions
            .selected(self.cursor(ListId::Functions).selected);
        let Some(entry) = index.and_then(|i| self.doc.listing.index_entry(i)) else {
            self.message = Some("no function selected".to_owned());
            return;
        };
        let name = entry.name.to_owned();
        if name.is_empty() {
            self.message = Some("an unnamed function cannot be run".to_owned());
            return;
        }
        if !entry.argument_types.is_empty() {
            self.message = Some(format!(
                "@{name} takes arguments: type them as a JSON list (or @FILE holding it), {} runs ({}: cancel)",
                keys::label(Action::Enter, Some(Tab::Functions)),
                keys::label(Action::Back, Some(Tab::Functions))
            ));
            self.arguments_for = Some(name);
            self.prompt = Some(Prompt {
                kind: PromptKind::Arguments,
                text: String::new(),
            });
            return;
        }
        self.start_run(name, None);
    }

    /// Asks for `@name` to be run and recorded, with JSON `arguments` if
    /// it takes some.
    pub(super) fn start_run(&mut self, name: String, arguments: Option<String>) {
        self.effects.push(Effect::Run {
            program: self.doc.loaded.path.clone(),
            function: name.clone(),
            arguments,
        });
        self.message = Some(format!(
            "running @{name}… ({} again cancels)",
            keys::label(Action::Run, Some(Tab::Functions))
        ));
        self.execution.run = Some(PendingRun {
            name,
            started: None,
            shown_seconds: 0,
            cancelling: false,
        });
    }

    /// Shows the recording loaded in the background, or why it is not.
    pub(super) fn finish_loading(&mut self, outcome: Result<Box<Trace>, String>) {
        self.execution.loading = None;
        match outcome {
            Ok(trace) => {
                self.message = trace.program_note.clone();
                self.show_trace(*trace);
            }
            Err(e) => self.message = Some(e),
        }
    }

    /// Shows `trace` on the Execution tab, its cursors at the start.
    fn show_trace(&mut self, trace: Trace) {
        self.execution.trace = Some(Arc::new(trace));
        *self.cursor_mut(ListId::Events) = Cursor::default();
        *self.cursor_mut(ListId::ExecRegisters) = Cursor::default();
    }

    /// Keeps the elapsed times of loading and of a run current.
    pub(super) fn tick(&mut self, now: std::time::Instant) {
        if let Some(message) = self.execution.tick(now) {
            self.message = Some(message);
        }
    }

    /// Shows the end of the run of `@name`: its recording on the
    /// Execution tab, or why there is none.
    pub(super) fn finish_run(&mut self, name: String, outcome: Result<Box<RunRecorded>, String>) {
        self.execution.run = None;
        match outcome {
            Ok(run) => {
                let RunRecorded {
                    trace,
                    failed,
                    cancelled,
                } = *run;
                self.message = Some(match &trace.program_note {
                    Some(note) => note.clone(),
                    None if cancelled => {
                        format!("cancelled @{name}: the recording stops where the run was stopped")
                    }
                    None if failed => format!("ran @{name}: it returned an error"),
                    None => format!("ran @{name}"),
                });
                self.show_trace(trace);
                self.tab = Tab::Execution;
                self.pane = Pane::First;
            }
            Err(text) => {
                self.message = Some(format!(
                    "cannot run @{name}: {}",
                    text.lines().next().unwrap_or("")
                ));
            }
        }
    }

    /// The register a value is followed from: the one selected in the
    /// registers pane, or on the events pane the one the event at the
    /// cursor publishes (else the one selected below it).
    fn followed_register(&self) -> Option<(u64, u32)> {
        let trace = self.execution.trace.as_ref()?;
        let cursor = self.time_cursor();
        let execution = trace.steps.get(cursor)?.event.execution;
        let selected = self.cursor(ListId::ExecRegisters).selected as u32;
        let register = match self.pane {
            Pane::First => trace.register_of(cursor).unwrap_or(selected),
            Pane::Second => selected,
        };
        let count = trace.registers_at(cursor, execution).len() as u32;
        (register < count).then_some((execution, register))
    }

    /// Follows a value: to the event that produced the register followed
    /// (`Producer`), or to the next or previous start of a kernel reading
    /// it (`NextReader`, `PrevReader`). The registers pane keeps showing
    /// the register followed.
    pub(super) fn follow_value(&mut self, action: Action) {
        let Some(trace) = self.execution.trace.clone() else {
            self.message = Some("no recording".to_owned());
            return;
        };
        let Some((execution, register)) = self.followed_register() else {
            self.message = Some("no register selected".to_owned());
            return;
        };
        let cursor = self.time_cursor();
        let (target, what) = if action == Action::Producer {
            let at = trace.producer_event(execution, register);
            let what = at
                .and_then(|i| trace.steps[i].kernel())
                .map(|k| format!("produced by kernel {k} {}", trace.kernel_name(execution, k)));
            (at, what)
        } else {
            let readers = trace.reader_events(execution, register);
            let at = if action == Action::NextReader {
                readers.iter().position(|&i| i > cursor)
            } else {
                readers.iter().rposition(|&i| i < cursor)
            };
            let what = at.and_then(|n| {
                let k = trace.steps[readers[n]].kernel()?;
                Some(format!(
                    "read by kernel {k} {} ({} of {})",
                    trace.kernel_name(execution, k),
                    n + 1,
                    readers.len()
                ))
            });
            (at.map(|n| readers[n]), what)
        };
        match target {
            Some(step) => {
                self.cursor_mut(ListId::Events).selected = step;
                self.cursor_mut(ListId::ExecRegisters).selected = register as usize;
                self.message = Some(format!("%{register} {}", what.unwrap_or_default()));
            }
            None => {
                self.message = Some(match action {
                    Action::Producer => format!("%{register}: no recorded producer"),
                    Action::NextReader => format!("%{register}: no later reader"),
                    _ => format!("%{register}: no earlier reader"),
                })
            }
        }
    }

    /// Moves the time cursor as `action` asks (a step, or the same
    /// kernel's next or previous run).
    pub(super) fn step_time(&mut self, action: Action) {
        match self.execution.step_from(self.time_cursor(), action) {
            Ok(at) => self.cursor_mut(ListId::Events).selected = at,
            Err(message) => self.message = Some(message),
        }
    }
}
