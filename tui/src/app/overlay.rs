//! The screens drawn over a tab: the help screen (`?`), the list of
//! every user of a string, attribute or type (`u`), and a register's
//! recorded value in full (Enter on the Execution tab's registers). While
//! one is up, the keys scroll it and close it.

use bef_trace::capture::recording::ValueElements;

use super::{App, ValueGrid, ValueShown};
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::app::tensors::Full;
use crate::model::analysis::User;
use crate::model::rows::{self, ListId};
use crate::model::tensor_grid::Grid;

impl<'d, 'a> App<'d, 'a> {
    /// Does what `action` asks of the screen drawn over the tab, if one is
    /// up; says whether one was.
    pub(super) fn act_on_overlay(&mut self, action: Action) -> bool {
        if let Some(grid) = &mut self.value_grid {
            match action {
                Action::Quit => self.quit = true,
                Action::Enter | Action::Back => self.value_grid = None,
                action => grid.full.act(action),
            }
            return true;
        }
        if let Some(value) = &mut self.value_of {
            let page = self.page.max(1);
            let last = value.lines.saturating_sub(1);
            match action {
                Action::Quit => self.quit = true,
                Action::Enter | Action::Back => self.value_of = None,
                Action::Down => value.scroll = (value.scroll + 1).min(last),
                Action::Up => value.scroll = value.scroll.saturating_sub(1),
                Action::PageDown | Action::HalfPageDown => {
                    value.scroll = (value.scroll + page).min(last)
                }
                Action::PageUp | Action::HalfPageUp => {
                    value.scroll = value.scroll.saturating_sub(page)
                }
                Action::Top => value.scroll = 0,
                Action::Bottom => value.scroll = last,
                _ => {}
            }
            return true;
        }
        if let Some((id, row, scroll)) = self.users_of {
            let last = self.users_list(id, row).len().saturating_sub(1);
            let page = self.page.max(1);
            let scroll = match action {
                Action::Quit => {
                    self.quit = true;
                    scroll
                }
                Action::Users | Action::Back => {
                    self.users_of = None;
                    return true;
                }
                Action::Down => (scroll + 1).min(last),
                Action::Up => scroll.saturating_sub(1),
                Action::PageDown | Action::HalfPageDown => (scroll + page).min(last),
                Action::PageUp | Action::HalfPageUp => scroll.saturating_sub(page),
                Action::Top => 0,
                Action::Bottom => last,
                _ => scroll,
            };
            self.users_of = Some((id, row, scroll));
            return true;
        }
        if self.help {
            let last = crate::ui::help::lines().len().saturating_sub(1);
            let page = self.page.max(1);
            let scroll = &mut self.help_scroll;
            match action {
                Action::Quit => self.quit = true,
                Action::Help | Action::Back => self.help = false,
                Action::Down => *scroll = (*scroll + 1).min(last),
                Action::Up => *scroll = scroll.saturating_sub(1),
                Action::PageDown | Action::HalfPageDown => *scroll = (*scroll + page).min(last),
                Action::PageUp | Action::HalfPageUp => *scroll = scroll.saturating_sub(page),
                Action::Top => *scroll = 0,
                Action::Bottom => *scroll = last,
                _ => {}
            }
            return true;
        }
        false
    }

    /// Opens the list of every user of the selected string, attribute or
    /// type (the table cell names the first few).
    pub(super) fn open_users(&mut self) {
        let Some(id) = self.active_list() else {
            return;
        };
        if !matches!(id, ListId::Strings | ListId::Attributes | ListId::Types) {
            self.message = Some(format!(
                "{} lists users in the strings, attributes and types tables",
                keys::label(Action::Users, Some(Tab::Tables))
            ));
            return;
        }
        if self.doc.analysis_ready().is_none() {
            self.message = Some("still analysing: users are not known yet".to_owned());
            return;
        }
        let row = self.cursor(id).selected;
        if self.users_list(id, row).is_empty() {
            self.message = Some("no users".to_owned());
            return;
        }
        self.users_of = Some((id, row, 0));
    }

    /// Shows the value of the register selected on the Execution tab, as
    /// recorded (`--values`), in full.
    pub(super) fn open_value(&mut self) {
        let Some(trace) = self.execution.trace.clone() else {
            return;
        };
        let Some(execution) = self.selected_execution() else {
            return;
        };
        let row = self.cursor(ListId::ExecRegisters).selected;
        let registers = trace.registers_at(self.time_cursor(), execution);
        let Some(register) = registers.get(row) else {
            return;
        };
        let Some(value) = register.value.clone() else {
            self.message = Some(format!(
                "%{row} has no recorded value (record with --values to keep values)"
            ));
            return;
        };
        let title = format!(
            "%{row} of {} {} after event {}",
            trace.execution_label(execution),
            trace.function_name(execution),
            self.time_cursor()
        );
        let mut text = value.text.clone();
        if let Some(elements) = value.elements {
            match &*elements {
                ValueElements::Dense(t) => {
                    match Grid::dense(title.clone(), t.dtype, &t.dims, &t.data) {
                        Ok(grid) => {
                            self.value_grid = Some(ValueGrid {
                                full: Full::new(grid),
                                elements: elements.clone(),
                            });
                            return;
                        }
                        Err(why) => text.push_str(&format!(" ({why})")),
                    }
                }
                other => {
                    if let Some(why) = other.left_out() {
                        text.push_str(&format!(" ({why})"));
                    }
                }
            }
        }
        self.value_of = Some(ValueShown {
            title,
            text,
            scroll: 0,
            lines: usize::MAX,
        });
    }

    /// Every user of row `row` of table `id` (strings, attributes, types),
    /// once the analysis is done.
    pub fn users_list(&self, id: ListId, row: usize) -> &'d [User] {
        rows::tables::users(self.doc, id, row)
    }
}
