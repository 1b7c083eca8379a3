//! The Source tab: every kernel beside the source text, or why there is
//! no source text.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::draw_list;
use crate::app::App;
use crate::model::rows::ListId;
use crate::model::rows::source::missing_source;

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
    draw_list(frame, app, ListId::SourceKernels, left, 0);
    if app.doc.loaded.source.is_some() {
        draw_list(frame, app, ListId::SourceLines, right, 1);
    } else {
        let mut note = vec![
            Line::from(missing_source(&app.rows())),
            Line::from(""),
            Line::from(
                "Open the .mlir program (befview translates it on the fly) to see each \
                 kernel's source line; the kernels' locations are decoded on the left.",
            ),
        ];
        if !app.doc.loaded.source_not_read.is_empty() {
            note.push(Line::from(""));
        }
        for refused in &app.doc.loaded.source_not_read {
            // Escaped by its Display.
            note.push(Line::from(refused.to_string()));
        }
        frame.render_widget(
            Paragraph::new(note)
                .wrap(Wrap { trim: true })
                .style(Style::default().fg(Color::DarkGray))
                .block(Block::default().borders(Borders::ALL).title("Source")),
            right,
        );
    }
}
