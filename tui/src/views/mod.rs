//! Drawing, and only drawing: the frame (tabs, body, status line, footer,
//! prompt, help), one file per view, over the row model in [`crate::rows`]
//! that `--dump` prints too.

mod execution;
mod functions;
mod help;
mod hex;
mod sections;
mod source;
mod tables;
mod tensors;

pub use tensors::draw as draw_tensors;

use bef::tool_io::escape;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

use crate::app::{App, PromptKind};
use crate::keys::{self, Action};
use crate::rows::{self, ListId, State, columns};
use crate::tab::Tab;

use Constraint::{Length, Min};

/// The colour of field kinds and sections, shared by every view: the same
/// kind is always the same colour.
pub mod palette {
    use bef::format::SectionId;
    use bef::inspect::FieldKind;
    use ratatui::style::Color;

    /// The colour of a field kind.
    pub fn field(kind: FieldKind) -> Color {
        use FieldKind::*;
        match kind {
            Magic | Version => Color::LightMagenta,
            SectionId => Color::Yellow,
            SectionLength | SectionAlignment => Color::LightYellow,
            Padding => Color::DarkGray,
            Count | ArgumentCount | AttributeCount | FunctionCount | ResultCount | UsedByCount => {
                Color::Cyan
            }
            StringText => Color::Green,
            StringTerminator => Color::Gray,
            StringRef => Color::LightGreen,
            AttributeBytes => Color::Rgb(230, 160, 60),
            AttributeRef => Color::Rgb(255, 190, 110),
            AttributeType => Color::Rgb(200, 130, 40),
            TypeRef => Color::LightBlue,
            FunctionKind => Color::Rgb(180, 120, 255),
            BodyOffset | KernelOffset => Color::Rgb(150, 150, 255),
            LocationRef => Color::Rgb(120, 200, 200),
            UseCount => Color::Rgb(255, 120, 160),
            OperandCount => Color::Rgb(120, 220, 160),
            StreamId => Color::Rgb(160, 200, 90),
            ReturnRegister => Color::Rgb(255, 100, 100),
            KernelCode => Color::LightCyan,
            ArgumentRegister => Color::Rgb(255, 150, 150),
            FunctionRef => Color::Rgb(200, 150, 255),
            ResultRegister => Color::Rgb(255, 200, 200),
            UsedBy => Color::Rgb(220, 220, 120),
            LocationKind => Color::Rgb(90, 170, 170),
            Line | Column => Color::Rgb(140, 220, 220),
        }
    }

    /// The colour of bytes of a section that no field claims, and of its
    /// row in the Sections view.
    pub fn section(kind: Option<SectionId>) -> Color {
        match kind {
            Some(SectionId::Strings) => Color::Rgb(90, 140, 90),
            Some(SectionId::Attributes) => Color::Rgb(170, 120, 60),
            Some(SectionId::AttributeTypes) => Color::Rgb(150, 100, 50),
            Some(SectionId::Kernels) => Color::Rgb(70, 150, 160),
            Some(SectionId::Types) => Color::Rgb(80, 110, 170),
            Some(SectionId::FunctionIndex) => Color::Rgb(130, 100, 180),
            Some(SectionId::Functions) => Color::Rgb(160, 90, 120),
            Some(SectionId::LocationStrings) => Color::Rgb(100, 150, 100),
            Some(SectionId::Locations) => Color::Rgb(80, 140, 140),
            Some(SectionId::AttributeNames) => Color::Rgb(150, 130, 90),
            Some(SectionId::RegisterTypes) => Color::Rgb(110, 110, 150),
            Some(SectionId::Signatures) => Color::Rgb(170, 150, 200),
            None => Color::Gray,
        }
    }
}

/// The colour of problems.
pub const PROBLEM: Color = Color::Red;

/// Draws list `id` in `area`; `slot` says which mouse slot it takes.
pub fn draw_list(
    frame: &mut Frame<'_>,
    app: &mut App<'_, '_>,
    id: ListId,
    area: Rect,
    slot: usize,
) {
    let focused = app.active_list() == Some(id);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            Style::default().fg(Color::Cyan)
        } else {
            Style::default().fg(Color::DarkGray)
        })
        .title(rows::title(&app.rows(), id));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = inner.height.saturating_sub(1) as usize;
    let total = rows::len(&app.rows(), id);
    let mut cursor = app.cursor(id);
    cursor.fit(total, height);
    *app.cursor_mut(id) = cursor;
    if focused {
        app.page = height.max(1);
    }
    let state = app.rows();
    let columns = columns(id);
    let header = Row::new(
        std::iter::once(Cell::from(" "))
            .chain(columns.iter().map(|c| Cell::from(c.header)))
            .collect::<Vec<_>>(),
    )
    .style(Style::default().add_modifier(Modifier::BOLD));
    let mut rows = Vec::new();
    // Flexible columns share the width in proportion to what they hold on
    // screen (at least their header), so no column is wasted or starved.
    let mut weights: Vec<usize> = columns.iter().map(|c| c.header.len()).collect();
    for row in cursor.scroll..(cursor.scroll + height).min(total) {
        let mark = rows::marked(&state, id, row);
        let mut style = row_style(&state, id, row);
        if row == cursor.selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let cells = rows::cells(&state, id, row);
        for (w, cell) in weights.iter_mut().zip(&cells) {
            *w = (*w).max(cell.chars().count().min(40));
        }
        let mark_cell = if mark {
            Cell::from("!").style(Style::default().fg(PROBLEM).add_modifier(Modifier::BOLD))
        } else {
            Cell::from(" ")
        };
        rows.push(
            Row::new(
                std::iter::once(mark_cell)
                    .chain(cells.into_iter().map(Cell::from))
                    .collect::<Vec<_>>(),
            )
            .style(style),
        );
    }
    if total == 0 {
        let empty = match id {
            ListId::Findings | ListId::SourceKernels if app.doc.analysis_ready().is_none() => {
                "analysing…"
            }
            ListId::Findings => "no problems found",
            _ => "(empty)",
        };
        // The message goes in the last (widest) column.
        let mut cells = vec![Cell::from(""); columns.len()];
        cells.push(Cell::from(empty));
        rows.push(Row::new(cells));
    }
    // Fixed columns keep their width; the others share what is left, so
    // narrow screens clip text, not columns.
    let widths: Vec<Constraint> = std::iter::once(Length(1))
        .chain(columns.iter().zip(&weights).map(|(c, &w)| match c.width {
            Min(n) => Constraint::Fill(w.max(usize::from(n)) as u16),
            other => other,
        }))
        .collect();
    let table = Table::new(rows, widths).header(header).column_spacing(1);
    frame.render_widget(table, inner);
    let rows_area = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(1),
        ..inner
    };
    app.areas.lists[slot] = (Some(id), rows_area);
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
        help::draw(frame, body, app);
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
    for (i, tab) in Tab::ALL.iter().enumerate() {
        let style = if *tab == app.tab {
            Style::default()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(Color::Gray)
        };
        spans.push(Span::styled(tab.label(i), style));
        spans.push(Span::raw("│"));
    }
    let loaded = app.doc.loaded;
    spans.push(Span::styled(
        format!(
            " {} ({}, {} bytes)",
            escape::path(&loaded.path),
            loaded.format_name(),
            app.doc.bytes().len()
        ),
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
        };
        Line::from(vec![
            Span::styled(label, Style::default().fg(Color::Yellow)),
            Span::raw(prompt.text.clone()),
            Span::styled("█", Style::default().fg(Color::Yellow)),
        ])
    } else if app.tab == Tab::Execution {
        let mut spans = vec![Span::styled(
            app.execution_path(),
            Style::default().fg(Color::White),
        )];
        if let Some(message) = &app.message {
            spans.push(Span::styled(
                format!("  {}", escape::terminal(message)),
                Style::default().fg(Color::Yellow),
            ));
        }
        Line::from(spans)
    } else {
        let offset = app.selected_offset();
        let path = crate::names::path_at(&app.doc.listing, offset);
        let mut spans = vec![
            Span::styled(
                format!("{offset:#010x} "),
                Style::default().fg(Color::Black).bg(Color::Gray),
            ),
            Span::raw(" "),
            Span::styled(
                escape::terminal(&path).into_owned(),
                Style::default().fg(Color::White),
            ),
        ];
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
        if let Some(message) = &app.message {
            spans.push(Span::styled(
                format!("  {}", escape::terminal(message)),
                Style::default().fg(Color::Yellow),
            ));
        }
        Line::from(spans)
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_footer(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let mut spans = Vec::new();
    let mut own = Vec::new();
    for (key, what, tab_own) in crate::keys::footer_hints(app.tab) {
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
    if !own.is_empty() {
        spans.push(Span::styled(
            format!(" {}", own.join("  ")),
            Style::default().fg(Color::DarkGray),
        ));
    }
    if app.doc.analysis_ready().is_none() {
        spans.push(Span::styled(
            "  analysing…",
            Style::default().fg(Color::Yellow),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
