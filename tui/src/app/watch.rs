//! The Execution tab's watchpoint: what `+`, `!` and `=` set (the
//! selected register, or the register or kernel of the event at the
//! cursor, followed across the executions of its function) and how `)`
//! and `(` move the time cursor to where it stops next or stopped before.

use super::{App, Pane, Prompt, PromptKind};
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::rows::ListId;
use crate::model::step_index::register_of;
use crate::model::watch::{Condition, Watch, Watched};

impl<'d, 'a> App<'d, 'a> {
    /// Performs a watch key.
    pub(super) fn watch_action(&mut self, action: Action) {
        match action {
            Action::Watch => self.set_watch(Condition::Changes),
            Action::WatchErrors => self.set_watch(Condition::Error),
            Action::WatchValue => match self.watch_target() {
                Ok(_) => self.prompt = Some(Prompt::new(PromptKind::WatchValue)),
                Err(why) => self.message = Some(why),
            },
            Action::WatchPrev => self.watch_step(false),
            _ => self.watch_step(true),
        }
    }

    /// Watches for the value typed (empty: any change).
    pub(super) fn watch_value(&mut self, text: String) {
        let text = text.trim().to_owned();
        self.set_watch(if text.is_empty() {
            Condition::Changes
        } else {
            Condition::Equals(text)
        });
    }

    /// What a watch set now would watch: the register selected in the
    /// registers pane, else the register the event at the cursor
    /// publishes, else its kernel.
    fn watch_target(&self) -> Result<Watched, String> {
        let Some(trace) = self.execution.trace.as_ref() else {
            return Err("no recording".to_owned());
        };
        let cursor = self.time_cursor();
        let Some(step) = trace.steps.get(cursor) else {
            return Err("no event at the cursor".to_owned());
        };
        let execution = step.event.execution;
        let Some(function) = trace.function_of(execution) else {
            return Err("the event's function is not known: nothing to watch".to_owned());
        };
        if self.pane == Pane::Second {
            let row = self.cursor(ListId::ExecRegisters).selected;
            let count = trace.registers_at(cursor, execution).len();
            return if row < count {
                Ok(Watched::Register {
                    function,
                    register: row as u32,
                })
            } else {
                Err("no register selected".to_owned())
            };
        }
        if let Some(register) = register_of(&step.event.kind) {
            return Ok(Watched::Register { function, register });
        }
        match step.kernel() {
            Some(kernel) => Ok(Watched::Kernel { function, kernel }),
            None => Err("this event is about no kernel or register: nothing to watch".to_owned()),
        }
    }

    /// Sets the watch with `condition` on the current target, or clears it
    /// when that very watch is set.
    fn set_watch(&mut self, condition: Condition) {
        let watched = match self.watch_target() {
            Ok(watched) => watched,
            Err(why) => {
                self.message = Some(why);
                return;
            }
        };
        let watch = Watch { watched, condition };
        if self.execution.watch.as_ref() == Some(&watch) {
            self.execution.watch = None;
            self.message = Some("watch cleared".to_owned());
            return;
        }
        let Some(trace) = self.execution.trace.as_ref() else {
            return;
        };
        self.message = Some(format!(
            "watching {} ({} next, {} previous)",
            watch.describe(trace),
            keys::label(Action::WatchNext, Some(Tab::Execution)),
            keys::label(Action::WatchPrev, Some(Tab::Execution))
        ));
        self.execution.watch = Some(watch);
    }

    /// Moves the time cursor to the next (`forward`) or previous event
    /// where the watch stops.
    fn watch_step(&mut self, forward: bool) {
        let (Some(trace), Some(watch)) =
            (self.execution.trace.as_ref(), self.execution.watch.as_ref())
        else {
            self.message = Some(format!(
                "no watch: press {} on a register or kernel",
                keys::label(Action::Watch, Some(Tab::Execution))
            ));
            return;
        };
        match watch.next(trace, self.time_cursor(), forward) {
            Some(at) => {
                self.message = Some(format!("{}: {}", watch.describe(trace), trace.what(at)));
                self.cursor_mut(ListId::Events).selected = at;
            }
            None => {
                let which = if forward { "later" } else { "earlier" };
                self.message = Some(format!("{}: no {which} event", watch.describe(trace)));
            }
        }
    }
}
