//! The Functions tab: the function table and, for an opened function, its
//! kernel table above its register table.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use super::draw_list;
use crate::app::App;
use crate::model::rows::ListId;

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    if app.functions.open.is_none() {
        draw_list(frame, app, ListId::Functions, area, 0);
        return;
    }
    let [top, bottom] =
        Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(area);
    draw_list(frame, app, ListId::Kernels, top, 0);
    draw_list(frame, app, ListId::Registers, bottom, 1);
}
