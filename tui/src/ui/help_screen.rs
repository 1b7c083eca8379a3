//! The `?` screen, generated from the key table, with the hex colours'
//! legend (`crate::ui::help`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::app::keys::{self, Action, BINDINGS, keys_label};
use crate::ui::help::lines;

/// What stands for a colour on screen, drawn in it.
const SWATCH: &str = "██████";

/// Draws the help screen from line `app.help_scroll`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut crate::app::App<'_, '_>) {
    app.page = area.height.saturating_sub(2).max(1) as usize;
    let width = BINDINGS
        .iter()
        .map(|b| keys_label(b).chars().count())
        .max()
        .unwrap_or(8)
        + 2;
    let text: Vec<Line<'_>> = lines()
        .into_iter()
        .map(|line| {
            let (keys, style) = match line.swatch {
                Some(colour) => (SWATCH.to_owned(), Style::default().fg(colour)),
                None => (
                    line.keys,
                    Style::default()
                        .fg(Color::Cyan)
                        .add_modifier(Modifier::BOLD),
                ),
            };
            Line::from(vec![
                Span::styled(format!("{keys:>width$}  "), style),
                Span::raw(line.text),
            ])
        })
        .collect();
    let total = text.len();
    let key = |action| keys::label(action, Some(app.tab));
    let block = Block::default().borders(Borders::ALL).title(format!(
        "Keys ({} or {} closes; {}/{} scroll, line {} of {total})",
        key(Action::Help),
        key(Action::Back),
        key(Action::Down),
        key(Action::Up),
        app.help_scroll + 1
    ));
    frame.render_widget(
        Paragraph::new(text)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((app.help_scroll.min(u16::MAX as usize) as u16, 0)),
        area,
    );
}
