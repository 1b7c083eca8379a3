//! The Functions tab: the function table (above the recorded kernel or
//! function table when a recording is open) and, for an opened function,
//! its kernel table above its register table.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use super::draw_list;
use crate::app::App;
use crate::model::rows::ListId;

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    if app.functions.open.is_none() {
        if app.execution.trace.is_none() {
            draw_list(frame, app, ListId::Functions, area, 0);
            return;
        }
        let [top, bottom] =
            Layout::vertical([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(area);
        draw_list(frame, app, ListId::Functions, top, 0);
        let profile = app.functions.profile;
        draw_list(frame, app, profile, bottom, 1);
        return;
    }
    let [top, bottom] =
        Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(area);
    draw_list(frame, app, ListId::Kernels, top, 0);
    draw_list(frame, app, ListId::Registers, bottom, 1);
}
