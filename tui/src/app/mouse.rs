//! The mouse: the wheel scrolls (the screen drawn over the tab, if any,
//! else the focused list), a click selects a tab, a row or a byte where
//! the last frame drew them.

use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use super::{App, Pane};
use crate::app::keys::Action;
use crate::app::tab::Tab;
use crate::model::rows::{self, ListId};

impl<'d, 'a> App<'d, 'a> {
    /// Handles a mouse event: the wheel scrolls, a click selects a tab or a
    /// row.
    pub fn on_mouse(&mut self, event: MouseEvent) {
        // Over the help screen or a users list the wheel scrolls it, not
        // the list hidden behind.
        let overlay = self.help || self.users_of.is_some();
        match event.kind {
            MouseEventKind::ScrollDown if overlay => (0..3).for_each(|_| self.act(Action::Down)),
            MouseEventKind::ScrollUp if overlay => (0..3).for_each(|_| self.act(Action::Up)),
            MouseEventKind::ScrollDown => self.step(3),
            MouseEventKind::ScrollUp => self.step(-3),
            MouseEventKind::Down(MouseButton::Left) => self.click(event.column, event.row),
            _ => {}
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        let inside = |r: Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
        if self.help || self.users_of.is_some() {
            return;
        }
        if inside(self.areas.tabs) {
            // Titles are drawn as " N Title " separated by "│".
            let mut left = self.areas.tabs.x;
            for (i, label) in Tab::labels(self.areas.tabs.width).iter().enumerate() {
                let width = label.chars().count() as u16 + 1;
                if x < left + width {
                    self.switch_tab(i);
                    return;
                }
                left += width;
            }
            return;
        }
        for (pane, (id, area)) in self.areas.lists.into_iter().enumerate() {
            let Some(id) = id else { continue };
            if inside(area) {
                self.pane = if pane == 0 { Pane::First } else { Pane::Second };
                let row = self.cursor(id).scroll + (y - area.y) as usize;
                if row < rows::len(&self.rows(), id) {
                    self.cursor_mut(id).selected = row;
                    if id == ListId::SourceKernels {
                        self.follow_kernel_to_source();
                    } else if id == ListId::SourceLines {
                        self.follow_source_to_kernel();
                    }
                }
                return;
            }
        }
        if inside(self.areas.hex) {
            let len = self.doc.bytes().len();
            self.hex.click(self.areas.hex, x, y, len);
        }
    }
}
