//! Drawing, and only drawing: the frame (tabs, body, status line, footer,
//! prompt, help), one file per view, over the row model in [`crate::model::rows`]
//! that `--dump` prints too.

mod compare;
mod execution;
mod functions;
mod grid;
pub mod help;
mod help_screen;
mod hex;
pub mod palette;
mod sections;
mod source;
mod tables;
mod tensors;
mod users;

pub use compare::draw as draw_compare;
pub use tensors::draw as draw_tensors;

use bef::tool_io::escape;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::app::{App, PromptKind, SelectedCell};
use crate::model::columns::{self as sizing, Fit, Need};
use crate::model::rows::{self, Column, ListId, State, columns, main_column};

use Constraint::{Length, Min};

/// The colour of problems.
pub const PROBLEM: Color = Color::Red;

/// Draws list `id` in `area`; `slot` says which mouse slot it takes.
/// Columns are sized from the rows on screen (`crate::model::columns`); the
/// focused list's selected cell is left in `app.areas.cell` for the status
/// line.
pub fn draw_list(
    frame: &mut Frame<'_>,
    app: &mut App<'_, '_>,
    id: ListId,
    area: Rect,
    slot: usize,
) {
    let focused = app.active_list() == Some(id);
    let inner = Block::default().borders(Borders::ALL).inner(area);
    let height = inner.height.saturating_sub(1) as usize;
    let total = rows::len(&app.rows(), id);
    let mut cursor = app.cursor(id);
    cursor.fit(total, height);
    let columns = columns(id);
    if let Some(c) = cursor.column {
        cursor.column = Some(c.min(columns.len().saturating_sub(1)));
    }
    *app.cursor_mut(id) = cursor;
    if focused {
        app.page = height.max(1);
    }
    let state = app.rows();
    let mut lines = Vec::new();
    for row in cursor.scroll..(cursor.scroll + height).min(total) {
        let mark = rows::marked(&state, id, row);
        let mut style = row_style(&state, id, row);
        if row == cursor.selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push((row, mark, style, rows::cells(&state, id, row)));
    }
    let mut title = rows::title(&state, id);
    if total == 0 {
        let empty = match id {
            ListId::Findings | ListId::SourceKernels if app.doc.analysis_ready().is_none() => {
                "analysing…"
            }
            ListId::Findings => "no problems found",
            _ => "(empty)",
        };
        // The message goes in the main column, shown first.
        let mut cells = vec![String::new(); columns.len()];
        cells[main_column(id).min(columns.len() - 1)] = empty.to_owned();
        lines.push((0, false, Style::default(), cells));
    }
    let needs = column_needs(&columns, &lines);
    // The mark column and the space after it come first.
    let available = usize::from(inner.width).saturating_sub(2);
    let focus = if focused { cursor.column } else { None };
    let widths = sizing::layout(&needs, available, 1, focus);
    let shown: Vec<usize> = (0..columns.len())
        .filter(|&i| widths[i].is_some())
        .collect();
    let hidden = columns.len() - shown.len();
    let fit = |i: usize, text: &str| -> String {
        let w = widths[i].unwrap_or(0);
        sizing::fit_cell(text, w, columns[i].fit).into_owned()
    };
    let header = Row::new(
        std::iter::once(Cell::from(" "))
            .chain(shown.iter().map(|&i| Cell::from(fit(i, columns[i].header))))
            .collect::<Vec<_>>(),
    )
    .style(Style::default().add_modifier(Modifier::BOLD));
    if focused && total > 0 {
        let column = cursor.column.unwrap_or(main_column(id));
        let full = lines
            .iter()
            .find(|l| l.0 == cursor.selected)
            .and_then(|l| l.3.get(column).cloned())
            .unwrap_or_default();
        let on_screen = widths.get(column).copied().flatten();
        app.areas.cell = Some(SelectedCell {
            header: columns.get(column).map_or("", |c| c.header),
            cut: on_screen.is_none_or(|w| sizing::width(&full) > w),
            chosen: cursor.column.is_some(),
            text: full,
        });
    }
    let chosen = (focused && total > 0).then_some(cursor.selected);
    let rows = table_rows(lines, &shown, cursor.column, chosen, fit);
    if hidden > 0 {
        let key = |action| keys::label(action, Some(app.tab));
        title.push_str(&format!(
            " (+{hidden} columns: {} {})",
            key(Action::ColumnLeft),
            key(Action::ColumnRight)
        ));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            Style::default().fg(Color::Cyan)
        } else {
            Style::default().fg(Color::DarkGray)
        })
        .title(title);
    frame.render_widget(block, area);
    let constraints: Vec<Constraint> = std::iter::once(Length(1))
        .chain(shown.iter().map(|&i| Length(widths[i].unwrap_or(0) as u16)))
        .collect();
    let table = Table::new(rows, constraints)
        .header(header)
        .column_spacing(1);
    frame.render_widget(table, inner);
    let rows_area = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(1),
        ..inner
    };
    app.areas.lists[slot] = (Some(id), rows_area);
}

/// A row of a list as drawn: its index, its problem mark, its style and
/// its cells' full texts.
type ListLine = (usize, bool, Style, Vec<String>);

/// What each column wants and needs, from its header and the texts on screen.
fn column_needs(columns: &[Column], lines: &[ListLine]) -> Vec<Need> {
    columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let texts = || lines.iter().filter_map(move |l| l.3.get(i));
            let want = texts()
                .map(|t| sizing::width(t))
                .max()
                .unwrap_or(0)
                .max(sizing::width(c.header));
            let least = match c.fit {
                Fit::Location => texts()
                    .map(|t| sizing::location_least(t))
                    .max()
                    .unwrap_or(0)
                    .max(c.least),
                _ => c.least,
            };
            Need {
                want,
                least,
                priority: c.priority,
                fit: c.fit,
            }
        })
        .collect()
}

/// The table rows of `lines`: the mark cell, then the `shown` columns cut
/// to their widths by `fit`; the cursor's cell underlined in row `chosen`.
fn table_rows(
    lines: Vec<ListLine>,
    shown: &[usize],
    column: Option<usize>,
    chosen: Option<usize>,
    fit: impl Fn(usize, &str) -> String,
) -> Vec<Row<'static>> {
    lines
        .into_iter()
        .map(|(row, mark, style, cells)| {
            let mark_cell = if mark {
                Cell::from("!").style(Style::default().fg(PROBLEM).add_modifier(Modifier::BOLD))
            } else {
                Cell::from(" ")
            };
            let cells = shown.iter().map(|&i| {
                let text = fit(i, cells.get(i).map_or("", String::as_str));
                if chosen == Some(row) && column == Some(i) {
                    Cell::from(text).style(Style::default().add_modifier(Modifier::UNDERLINED))
                } else {
                    Cell::from(text)
                }
            });
            Row::new(std::iter::once(mark_cell).chain(cells).collect::<Vec<_>>()).style(style)
        })
        .collect()
}

fn row_style(app: &State<'_, '_>, id: ListId, row: usize) -> Style {
    match id {
        ListId::Sections => {
            let kind = app.doc.listing.sections().get(row).and_then(|s| s.kind);
            Style::default().fg(palette::section(kind))
        }
        ListId::Findings => Style::default().fg(PROBLEM),
        ListId::Events | ListId::ExecRegisters => execution::row_style(app, id, row),
        ListId::SourceLines => {
            if app.cursor(ListId::SourceLines).selected == row {
                Style::default().fg(Color::Yellow)
            } else {
                Style::default()
            }
        }
        _ => Style::default(),
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>) {
    app.areas = Default::default();
    let [tabs, body, status, footer] =
        Layout::vertical([Length(1), Min(3), Length(1), Length(1)]).areas(frame.area());
    draw_tabs(frame, app, tabs);
    if app.help {
        help_screen::draw(frame, body, app);
    } else if let Some((id, row, scroll)) = app.users_of {
        users::draw(frame, body, app, id, row, scroll);
    } else if let Some(value) = app.value_grid.as_mut() {
        let crate::app::ValueGrid { full, elements } = value;
        let bytes = match &**elements {
            bef_trace::capture::recording::ValueElements::Dense(t) => &t.data[..],
            _ => &[],
        };
        grid::draw(frame, bytes, full, body);
    } else if app.value_of.is_some() {
        users::draw_value(frame, body, app);
    } else {
        match app.tab {
            Tab::Sections => sections::draw(frame, app, body),
            Tab::Hex => hex::draw(frame, app, body),
            Tab::Functions => functions::draw(frame, app, body),
            Tab::Source => source::draw(frame, app, body),
            Tab::Tables => tables::draw(frame, app, body),
            Tab::Execution => execution::draw(frame, app, body),
        }
    }
    draw_status(frame, app, status);
    draw_footer(frame, app, footer);
}

fn draw_tabs(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let mut spans = Vec::new();
    for (tab, label) in Tab::ALL.iter().zip(Tab::labels(area.width)) {
        let style = if *tab == app.tab {
            Style::default()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(Color::Gray)
        };
        spans.push(Span::styled(label, style));
        spans.push(Span::raw("│"));
    }
    // The path gives way (in its middle) before the sizes do: a cut size
    // reads as a different number.
    let loaded = app.doc.loaded;
    let used: usize = spans.iter().map(Span::width).sum();
    let free = usize::from(area.width).saturating_sub(used + 1);
    let path = escape::path(&loaded.path);
    let mut sizes = format!(" ({})", loaded.size_text());
    // Sizes go whole or not at all, and only beside part of the path.
    if sizing::width(&sizes) + 12 > free {
        sizes.clear();
    }
    let room = free.saturating_sub(sizing::width(&sizes));
    // Short of room, the file's own name says more than a path's ends.
    let name = if sizing::width(&path) > room {
        loaded
            .path
            .file_name()
            .map_or(path.clone(), |n| escape::path(std::path::Path::new(n)))
    } else {
        path
    };
    spans.push(Span::styled(
        format!(" {}{sizes}", sizing::elide_middle(&name, room)),
        Style::default().fg(Color::DarkGray),
    ));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
    app.areas.tabs = area;
}

fn draw_status(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let line = if let Some(prompt) = &app.prompt {
        let label = match prompt.kind {
            PromptKind::Search if app.tab == Tab::Hex => "search (text, #hex, =VBR): ".to_owned(),
            PromptKind::Search => "search: ".to_owned(),
            PromptKind::Goto => format!(
                "go to offset (0x.. or decimal; {}: top): ",
                keys::label(Action::GotoOffset, Some(Tab::Hex))
            ),
            PromptKind::Arguments => "arguments (JSON list): ".to_owned(),
            PromptKind::WatchValue => "watch for the value (empty: any change): ".to_owned(),
            PromptKind::SavePath => "save the live recording to: ".to_owned(),
        };
        Line::from(vec![
            Span::styled(label, Style::default().fg(Color::Yellow)),
            Span::raw(prompt.text.clone()),
            Span::styled("█", Style::default().fg(Color::Yellow)),
        ])
    } else if app.tab == Tab::Execution {
        let mut spans = Vec::new();
        if let Some(live) = &app.live {
            let colour = if live.badge() == "REPLAY" {
                Color::Cyan
            } else {
                Color::Red
            };
            let events = app.execution.trace.as_ref().map_or(0, |t| t.steps.len());
            spans.push(Span::styled(
                format!(" {} {events} events ", live.badge()),
                Style::default().fg(Color::Black).bg(colour),
            ));
            spans.push(Span::raw(" "));
        }
        spans.extend(feedback(app));
        let path = app.execution_path();
        spans.push(path_span(&spans, &path, area.width));
        Line::from(spans)
    } else {
        let offset = app.selected_offset();
        let path = crate::model::names::path_at(&app.doc.listing, offset);
        let mut spans = vec![
            Span::styled(
                format!("{offset:#010x} "),
                Style::default().fg(Color::Black).bg(Color::Gray),
            ),
            Span::raw(" "),
        ];
        spans.extend(feedback(app));
        let path = escape::terminal(&path);
        spans.push(path_span(&spans, &path, area.width));
        let finding = app.selected_range().and_then(|r| {
            app.doc
                .analysis_ready()
                .and_then(|a| a.findings_in(r).first().cloned())
        });
        if let Some(f) = finding {
            spans.push(Span::styled(
                format!("  ! {:#x}: {}", f.offset, escape::terminal(&f.message)),
                Style::default().fg(PROBLEM),
            ));
        }
        Line::from(spans)
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// The status line's path after `before`, elided in its middle to the
/// room left in `width` cells, so that its last step stays in view.
fn path_span(before: &[Span<'_>], path: &str, width: u16) -> Span<'static> {
    let used: usize = before.iter().map(Span::width).sum();
    let room = usize::from(width).saturating_sub(used);
    Span::styled(
        sizing::elide_middle(path, room).into_owned(),
        Style::default().fg(Color::White),
    )
}

/// What the status line says before the path: the last message, then
/// the selected cell when the column cursor chose it or the table shows
/// less than all of it.
fn feedback(app: &App<'_, '_>) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    if let Some(message) = &app.message {
        spans.push(Span::styled(
            format!("{}  ", escape::terminal(message)),
            Style::default().fg(Color::Yellow),
        ));
    }
    let shown = |c: &&SelectedCell| (c.chosen || c.cut) && !c.text.is_empty();
    if let Some(cell) = app.areas.cell.as_ref().filter(shown) {
        spans.push(Span::styled(
            format!("{}: ", cell.header),
            Style::default().fg(Color::Cyan),
        ));
        spans.push(Span::raw(format!("{}  ", cell.text)));
    }
    spans
}

fn draw_footer(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    if app.value_grid.is_some() {
        // A value open in full takes the Tensors view's keys.
        let key = |action| keys::label(action, None);
        let text = format!(
            " j/k/{}/{} move  PgUp/PgDn page  {} numbers/heat map  {} back  {} quit",
            key(Action::Left),
            key(Action::Right),
            key(Action::Zoom),
            key(Action::Back),
            key(Action::Quit)
        );
        frame.render_widget(Paragraph::new(text), area);
        return;
    }
    let mut spans = Vec::new();
    let mut own = Vec::new();
    for (key, what, tab_own) in crate::app::keys::footer_hints(Some(app.tab)) {
        if tab_own {
            // The tab's own keys follow, dimmed.
            own.push(format!("{key} {what}"));
            continue;
        }
        spans.push(Span::styled(
            format!(" {key} "),
            Style::default().fg(Color::Black).bg(Color::DarkGray),
        ));
        spans.push(Span::raw(format!(" {what} ")));
    }
    // The tab's own keys go whole or not at all; `?` lists the rest.
    let room = usize::from(area.width).saturating_sub(spans.iter().map(Span::width).sum());
    let mut free = room;
    let more = "  ? more";
    let mut shown = Vec::new();
    for (i, hint) in own.iter().enumerate() {
        let last = i + 1 == own.len();
        let need = sizing::width(hint) + 2 + if last { 0 } else { more.len() };
        if need > free {
            break;
        }
        free -= sizing::width(hint) + 2;
        shown.push(hint.as_str());
    }
    let tail = if shown.len() < own.len() { more } else { "" };
    let text = format!(" {}{tail}", shown.join("  "));
    if !own.is_empty() && sizing::width(&text) <= room {
        spans.push(Span::styled(text, Style::default().fg(Color::DarkGray)));
    }
    if app.doc.analysis_ready().is_none() {
        spans.push(Span::styled(
            "  analysing…",
            Style::default().fg(Color::Yellow),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
