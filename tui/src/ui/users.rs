//! The lists drawn over a tab: every user of a string, attribute or type
//! (`u`), where the table's cell names the first few (only the lines on
//! screen are named, so a string with millions of users opens at once);
//! and a register's recorded value in full, wrapped and scrolled.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::app::App;
use crate::app::keys::{self, Action};
use crate::model::rows::{self, ListId};

/// Draws the users of row `row` of table `id` from line `scroll`.
pub fn draw(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &mut App<'_, '_>,
    id: ListId,
    row: usize,
    scroll: usize,
) {
    let height = area.height.saturating_sub(2) as usize;
    app.page = height.max(1);
    let users = app.users_list(id, row);
    let listing = &app.doc.listing;
    let lines: Vec<Line<'_>> = users
        .iter()
        .enumerate()
        .skip(scroll)
        .take(height)
        .map(|(i, u)| {
            Line::from(
                bef::tool_io::escape::terminal(&format!("{:>6}  {}", i + 1, u.text(listing)))
                    .into_owned(),
            )
        })
        .collect();
    let name = rows::cells(&app.rows(), id, row)
        .into_iter()
        .nth(rows::main_column(id))
        .unwrap_or_default();
    let key = |action| keys::label(action, Some(app.tab));
    let title = format!(
        "{} users of {} ({}/{} scroll, {} closes; {}-{})",
        users.len(),
        crate::model::columns::elide_middle(&name, 60),
        key(Action::Down),
        key(Action::Up),
        key(Action::Back),
        (scroll + 1).min(users.len()),
        (scroll + height).min(users.len())
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::Cyan))
        .title(title);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// Draws the register value Enter opened, wrapped to `area`, from its
/// scroll on.
pub fn draw_value(frame: &mut Frame<'_>, area: Rect, app: &mut App<'_, '_>) {
    let height = area.height.saturating_sub(2) as usize;
    let width = usize::from(area.width.saturating_sub(2)).max(1);
    app.page = height.max(1);
    let key = |action| keys::label(action, Some(app.tab));
    let (down, up, back) = (key(Action::Down), key(Action::Up), key(Action::Back));
    let Some(value) = app.value_of.as_mut() else {
        return;
    };
    let text = bef::tool_io::escape::terminal(&value.text).into_owned();
    // Wrapped by characters: values are long runs without spaces.
    let chars: Vec<char> = text.chars().collect();
    let lines: Vec<String> = chars.chunks(width).map(|c| c.iter().collect()).collect();
    value.lines = lines.len();
    value.scroll = value.scroll.min(lines.len().saturating_sub(1));
    let shown: Vec<Line<'_>> = lines
        .iter()
        .skip(value.scroll)
        .take(height)
        .map(|l| Line::from(l.clone()))
        .collect();
    let title = format!(
        "{} ({} characters; {down}/{up} scroll, {back} closes; lines {}-{} of {})",
        bef::tool_io::escape::terminal(&value.title),
        chars.len(),
        (value.scroll + 1).min(lines.len()),
        (value.scroll + height).min(lines.len()),
        lines.len()
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::Cyan))
        .title(title);
    frame.render_widget(Paragraph::new(shown).block(block), area);
}
