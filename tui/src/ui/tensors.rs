//! The Tensors view of a BTF file: the title, a table of tensors with the
//! columns of `bef dump`, the selected tensor's detail, and the keys.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, Wrap};

use bef::tool_io::escape;

use super::grid;
use crate::app::keys::{self, Action};
use crate::app::tensors::TensorsApp;
use crate::model::tensors::COLUMNS;

use Constraint::{Length, Min};

/// How wide each column is drawn, in the order of [`COLUMNS`]; the last
/// (the first values) takes what is left.
const WIDTHS: [u16; 11] = [5, 5, 6, 18, 9, 9, 12, 12, 12, 5, 12];

/// Columns left out, in this order, while the table is too narrow for
/// them: offsets first (the detail pane has them), then layout and NaNs.
const DROPPED_FIRST: [usize; 4] = [5, 4, 2, 9];

/// The columns drawn in `width` cells.
fn visible_columns(width: u16) -> Vec<usize> {
    let mut shown: Vec<usize> = (0..COLUMNS.len()).collect();
    let needed = |shown: &[usize]| shown.iter().map(|&c| WIDTHS[c] + 1).sum::<u16>();
    for column in DROPPED_FIRST {
        if needed(&shown) <= width {
            break;
        }
        shown.retain(|&c| c != column);
    }
    shown
}

/// `text` cut to `width` characters, ending in `…` when cut, so that a
/// shortened number never passes for another.
fn fit(text: &str, width: u16) -> String {
    let width = usize::from(width);
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Lines of the detail pane, its border included.
const DETAIL_HEIGHT: u16 = 6;

/// The footer: what the keys do here, named from the key table.
fn keys_line(app: &TensorsApp) -> String {
    let key = |action| keys::label(action, None);
    if let Some(text) = &app.prompt {
        let what = if app.full.is_some() { "row" } else { "tensor" };
        return format!(
            " go to {what} (0-based; {} again: first): {text}▏",
            key(Action::GotoOffset)
        );
    }
    if let Some(message) = &app.message {
        return format!(" {}", escape::terminal(message));
    }
    if app.full.is_some() {
        return format!(
            " j/k/{}/{} move  {} go to row  PgUp/PgDn page  {} numbers/heat map  {} back  {} keys  {} quit",
            key(Action::Left),
            key(Action::Right),
            key(Action::GotoOffset),
            key(Action::Zoom),
            key(Action::Back),
            key(Action::Help),
            key(Action::Quit)
        );
    }
    if app.help {
        return format!(
            " j/↓ next  k/↑ previous  {}/gg first  G/End last  Ctrl-d/Ctrl-u half page  \
             PgDn/PgUp page  {} go to tensor  {} in full  {} close  {} quit",
            key(Action::Top),
            key(Action::GotoOffset),
            key(Action::Enter),
            key(Action::Help),
            key(Action::Quit)
        );
    }
    format!(
        " j/k move  {} go to  G last  PgUp/PgDn page  {} in full  {} keys  {} quit",
        key(Action::GotoOffset),
        key(Action::Enter),
        key(Action::Help),
        key(Action::Quit)
    )
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame<'_>, app: &mut TensorsApp) {
    let [title, table, detail, footer] =
        Layout::vertical([Length(1), Min(3), Length(DETAIL_HEIGHT), Length(1)]).areas(frame.area());
    let footer_text = keys_line(app);
    if app.full.is_some() {
        let [title, body, footer] =
            Layout::vertical([Length(1), Min(3), Length(1)]).areas(frame.area());
        frame.render_widget(
            Paragraph::new(Line::styled(
                app.file.title(),
                Style::default().fg(Color::Gray),
            )),
            title,
        );
        let bytes = app.file.bytes();
        if let Some(full) = app.full.as_mut() {
            grid::draw(frame, bytes, full, body);
        }
        frame.render_widget(
            Paragraph::new(Line::styled(
                footer_text,
                Style::default().fg(Color::DarkGray),
            )),
            footer,
        );
        return;
    }
    frame.render_widget(
        Paragraph::new(Line::styled(
            app.file.title(),
            Style::default().fg(Color::Gray),
        )),
        title,
    );
    // Borders and the header take three lines.
    app.fit(usize::from(table.height.saturating_sub(3)));
    let shown = visible_columns(table.width.saturating_sub(2));
    let last = COLUMNS.len() - 1;
    // Each cell fits its column; the first values take the rest.
    let widths: Vec<u16> = shown
        .iter()
        .map(|&c| {
            if c == last {
                let others: u16 = shown
                    .iter()
                    .filter(|&&o| o != last)
                    .map(|&o| WIDTHS[o] + 1)
                    .sum();
                table.width.saturating_sub(2 + others).max(1)
            } else {
                WIDTHS[c]
            }
        })
        .collect();
    let select = |cells: Vec<String>| -> Vec<String> {
        shown
            .iter()
            .zip(&widths)
            .map(|(&c, &w)| fit(cells.get(c).map_or("", String::as_str), w))
            .collect()
    };
    let rows = (app.scroll..app.file.rows.len()).take(app.page).map(|row| {
        let style = if row == app.selected {
            Style::default()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD)
        } else if app.file.rows[row].is_err() {
            Style::default().fg(Color::LightRed)
        } else {
            Style::default()
        };
        Row::new(select(app.file.cells(row))).style(style)
    });
    let header = Row::new(select(COLUMNS.map(String::from).to_vec()))
        .style(Style::default().fg(Color::Yellow));
    // 0-based, as the `#` column.
    let block = Block::default()
        .borders(Borders::ALL)
        .title(if app.file.rows.is_empty() {
            " Tensors (none) ".to_owned()
        } else {
            format!(
                " Tensors: #{} of 0–{} ",
                app.selected,
                app.file.rows.len() - 1
            )
        });
    frame.render_widget(
        Table::new(rows, widths.iter().map(|&w| Length(w)))
            .header(header)
            .block(block),
        table,
    );
    let lines: Vec<Line> = app
        .file
        .detail(app.selected)
        .into_iter()
        .map(Line::from)
        .collect();
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(" Tensor ")),
        detail,
    );
    frame.render_widget(
        Paragraph::new(Line::styled(
            footer_text,
            Style::default().fg(Color::DarkGray),
        )),
        footer,
    );
}
