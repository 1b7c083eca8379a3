//! A tensor in full: its rows (named by their outer coordinates) and
//! columns around the cursor, as numbers, or as a heat map whose cells'
//! background grows lighter with the element (24 greys between the
//! tensor's least and greatest finite element; red for NaN and
//! infinities), two cells wide so that a 28 × 28 image keeps its shape.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use bef::tool_io::escape;

use crate::app::tensors::Full;
use crate::model::tensor_grid::Cell;

/// Cells a heat-map element takes.
const HEAT_WIDTH: u16 = 2;

/// The widest a number column is drawn.
const MAX_NUMBER_WIDTH: usize = 13;

/// The grey of `x` within `range` (232 darkest to 255 lightest).
fn grey(x: f64, range: (f64, f64)) -> Color {
    let (lo, hi) = range;
    let t = if hi > lo { (x - lo) / (hi - lo) } else { 0.5 };
    Color::Indexed(232 + (t.clamp(0.0, 1.0) * 23.0).round() as u8)
}

/// Draws `full` (over the file's `bytes`) in `area`.
pub fn draw(frame: &mut Frame<'_>, bytes: &[u8], full: &mut Full, area: Rect) {
    let inner = Block::default().borders(Borders::ALL).inner(area);
    // The header line takes one row.
    let rows = u64::from(inner.height.saturating_sub(1)).max(1);
    let grid = &full.grid;
    let label_width = (full.top..(full.top + rows).min(grid.rows))
        .map(|r| grid.row_label(r).chars().count())
        .chain([grid.row_label(full.row).chars().count()])
        .max()
        .unwrap_or(1) as u16
        + 1;
    let room = inner.width.saturating_sub(label_width).max(1);
    // Numbers are as wide as the widest on screen (guessed from the rows
    // shown and the columns from the left one on).
    let cell_width = if full.numbers {
        let probe = (room / 4).max(1) as u64;
        let widest = (full.top..(full.top + rows).min(grid.rows))
            .flat_map(|r| {
                (full.left..(full.left + probe).min(grid.columns))
                    .filter_map(move |c| grid.cell(bytes, r, c))
            })
            .map(|cell| cell.text().chars().count())
            .max()
            .unwrap_or(1);
        (widest.clamp(3, MAX_NUMBER_WIDTH) + 1) as u16
    } else {
        HEAT_WIDTH
    };
    let columns = u64::from((room / cell_width).max(1));
    full.fit(rows, columns);
    let grid = &full.grid;
    let range = grid.range.or_else(|| {
        // Too large to scan whole: the elements on screen set the scale.
        let mut seen: Option<(f64, f64)> = None;
        for r in full.top..(full.top + rows).min(grid.rows) {
            for c in full.left..(full.left + columns).min(grid.columns) {
                if let Some(x) = grid.cell(bytes, r, c).and_then(Cell::value) {
                    seen = Some(seen.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))));
                }
            }
        }
        seen
    });
    let mut lines: Vec<Line> = Vec::with_capacity(rows as usize + 1);
    // Column numbers: each over a number, every 8th over a heat map.
    let w = usize::from(cell_width);
    let shown = (full.left..(full.left + columns).min(grid.columns)).count();
    let mut header: Vec<char> = vec![' '; usize::from(label_width) + shown * w + 8];
    for (i, c) in (full.left..(full.left + columns).min(grid.columns)).enumerate() {
        let text = if full.numbers {
            format!("{c:>width$}", width = w - 1)
        } else if c % 8 == 0 || i == 0 {
            c.to_string()
        } else {
            continue;
        };
        let at = usize::from(label_width) + i * w;
        for (j, ch) in text.chars().enumerate() {
            if let Some(slot) = header.get_mut(at + j) {
                *slot = ch;
            }
        }
    }
    let header: String = header.into_iter().collect::<String>().trim_end().to_owned();
    lines.push(Line::styled(header, Style::default().fg(Color::Yellow)));
    for r in full.top..(full.top + rows).min(grid.rows) {
        let mut spans = vec![Span::styled(
            format!(
                "{:<width$}",
                grid.row_label(r),
                width = usize::from(label_width)
            ),
            Style::default().fg(Color::Yellow),
        )];
        for c in full.left..(full.left + columns).min(grid.columns) {
            let cell = grid.cell(bytes, r, c);
            let selected = r == full.row && c == full.column;
            let (text, mut style) = match (full.numbers, cell) {
                (true, Some(cell)) => {
                    let text = cell.text();
                    let cut: String = text.chars().take(MAX_NUMBER_WIDTH).collect();
                    (
                        format!("{cut:>width$} ", width = usize::from(cell_width) - 1),
                        Style::default(),
                    )
                }
                (false, Some(cell)) => {
                    let bg = match (cell.value(), range) {
                        (Some(x), Some(range)) => grey(x, range),
                        (Some(_), None) => Color::Indexed(244),
                        (None, _) if matches!(cell, Cell::Coordinate(_)) => Color::Reset,
                        (None, _) => Color::Red,
                    };
                    (" ".repeat(usize::from(cell_width)), Style::default().bg(bg))
                }
                (_, None) => ("?".repeat(usize::from(cell_width)), Style::default()),
            };
            if selected {
                style = style
                    .fg(Color::Black)
                    .bg(Color::Cyan)
                    .add_modifier(Modifier::BOLD);
            }
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
    let at = grid
        .cell(bytes, full.row, full.column)
        .map_or_else(|| "-".to_owned(), Cell::text);
    let view = if full.numbers { "numbers" } else { "heat map" };
    let title = format!(
        " {} · {} {}, column {} = {at} · {view}{} ",
        grid.title(),
        if grid.is_sparse() { "stored" } else { "row" },
        full.row,
        full.column,
        range.map_or_else(String::new, |(lo, hi)| format!(
            " {} to {}",
            bef::btf::summary::compact(lo),
            bef::btf::summary::compact(hi)
        ))
    );
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(escape::terminal(&title).into_owned()),
        ),
        area,
    );
}
