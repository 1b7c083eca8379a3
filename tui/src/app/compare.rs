//! The compare view's state (`befview A B`, opened instead of the tabs):
//! the selected line, the scroll and the help line, moved by the same key
//! table as the tabs' (`None` for its context).

use ratatui::crossterm::event::KeyEvent;

use crate::app::events::{Effect, Event};
use crate::app::keys::{self, Action};
use crate::model::compare::CompareView;

/// The compare view's state: the comparison, the selected line and the
/// scroll.
pub struct CompareApp {
    /// The comparison shown.
    pub view: CompareView,
    /// The selected line.
    pub selected: usize,
    /// The first line drawn.
    pub scroll: usize,
    /// Lines the last frame could show (for page moves).
    pub page: usize,
    /// Whether the help line is expanded.
    pub help: bool,
    /// Set when the user leaves.
    pub quit: bool,
    pending: Option<char>,
}

impl CompareApp {
    /// The view of `view`, its first line selected.
    pub fn new(view: CompareView) -> CompareApp {
        CompareApp {
            view,
            selected: 0,
            scroll: 0,
            page: 1,
            help: false,
            quit: false,
            pending: None,
        }
    }

    /// Applies `event`: keys through the shared key table; the rest only
    /// redraws. It asks for nothing.
    pub fn update(&mut self, event: Event) -> Vec<Effect> {
        if let Event::Key(key) = event {
            self.on_key(key);
        }
        Vec::new()
    }

    /// Handles a key through the shared key table.
    pub fn on_key(&mut self, key: KeyEvent) {
        let (action, pending) = keys::lookup(&key, self.pending, None);
        self.pending = pending;
        if let Some(action) = action {
            self.act(action);
        }
    }

    /// Applies `action`; those about other views do nothing here.
    pub fn act(&mut self, action: Action) {
        let last = self.view.lines.len().saturating_sub(1);
        let page = self.page.max(1);
        self.selected = match action {
            Action::Down => self.selected.saturating_add(1),
            Action::Up => self.selected.saturating_sub(1),
            Action::Top => 0,
            Action::Bottom => last,
            Action::PageDown => self.selected.saturating_add(page),
            Action::PageUp => self.selected.saturating_sub(page),
            Action::HalfPageDown => self.selected.saturating_add(page / 2),
            Action::HalfPageUp => self.selected.saturating_sub(page / 2),
            Action::Help => {
                self.help = !self.help;
                self.selected
            }
            Action::Back if self.help => {
                self.help = false;
                self.selected
            }
            Action::Quit => {
                self.quit = true;
                self.selected
            }
            _ => self.selected,
        }
        .min(last);
    }

    /// Keeps the selected line within the `rows` drawn from the scroll on.
    pub fn fit(&mut self, rows: usize) {
        self.page = rows.max(1);
        if self.selected < self.scroll {
            self.scroll = self.selected;
        } else if self.selected >= self.scroll + self.page {
            self.scroll = self.selected + 1 - self.page;
        }
    }
}
