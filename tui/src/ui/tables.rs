//! The Strings·Attributes·Types tab: a bar naming the tables (`h`/`l`)
//! above the chosen one.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::draw_list;
use crate::app::App;
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::rows::{self, TABLES};

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let [bar, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(3)]).areas(area);
    let mut spans = vec![Span::raw(" ")];
    for id in TABLES {
        let style = if id == app.table {
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            Style::default().fg(Color::Gray)
        };
        spans.push(Span::styled(rows::title(&app.rows(), id), style));
        spans.push(Span::raw("  "));
    }
    let switch = format!(
        "({}/{})",
        keys::label(Action::Left, Some(Tab::Tables)),
        keys::label(Action::Right, Some(Tab::Tables))
    );
    spans.push(Span::styled(switch, Style::default().fg(Color::DarkGray)));
    frame.render_widget(Paragraph::new(Line::from(spans)), bar);
    let table = app.table;
    draw_list(frame, app, table, body, 0);
}
