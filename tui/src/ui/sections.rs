//! The Sections tab: the sections above the decoder's and verifier's
//! findings.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use super::draw_list;
use crate::app::App;
use crate::model::rows::ListId;

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let sections = app.doc.listing.sections().len() as u16;
    let [top, bottom] =
        Layout::vertical([Constraint::Max(sections + 3), Constraint::Min(4)]).areas(area);
    draw_list(frame, app, ListId::Sections, top, 0);
    draw_list(frame, app, ListId::Findings, bottom, 1);
}
