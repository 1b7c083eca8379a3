//! The screens drawn over a tab: the help screen (`?`) and the list of
//! every user of a string, attribute or type (`u`). While one is up, the
//! keys scroll it and close it.

use super::App;
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::analysis::User;
use crate::model::rows::{self, ListId};

impl<'d, 'a> App<'d, 'a> {
    /// Does what `action` asks of the screen drawn over the tab, if one is
    /// up; says whether one was.
    pub(super) fn act_on_overlay(&mut self, action: Action) -> bool {
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

    /// Every user of row `row` of table `id` (strings, attributes, types),
    /// once the analysis is done.
    pub fn users_list(&self, id: ListId, row: usize) -> &'d [User] {
        rows::tables::users(self.doc, id, row)
    }
}
