//! Drawing: the frame (tabs, body, status line, footer, prompt, help) and
//! the table model every list shares (columns, rows, byte ranges), which
//! `--dump` prints too. One file per view.

pub mod execution;
pub mod functions;
pub mod help;
pub mod hex;
pub mod sections;
pub mod source;
pub mod tables;
pub mod tensors;

use std::borrow::Cow;
use std::ops::Range;

use bef::tool_io::escape;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

use crate::app::{App, PromptKind, Tab};

/// Every list of the inspector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListId {
    /// Sections.
    Sections = 0,
    /// Decoder and verifier findings.
    Findings,
    /// The function table.
    Functions,
    /// The open function's kernels.
    Kernels,
    /// The open function's registers.
    Registers,
    /// Every kernel, beside the source.
    SourceKernels,
    /// The source lines.
    SourceLines,
    /// The Strings section.
    Strings,
    /// The attributes.
    Attributes,
    /// The Types section.
    Types,
    /// The Locations section.
    Locations,
    /// The events of a recording (the time cursor).
    Events,
    /// The registers of the execution at the time cursor.
    ExecRegisters,
}

impl ListId {
    /// The number of lists.
    pub const COUNT: usize = 13;
}

/// The tables of the Strings·Attributes·Types tab, in `h`/`l` order.
pub const TABLES: [ListId; 4] = [
    ListId::Strings,
    ListId::Attributes,
    ListId::Types,
    ListId::Locations,
];

/// A column: its header and width.
pub struct Column {
    /// The header.
    pub header: &'static str,
    /// How wide it is drawn.
    pub width: Constraint,
}

const fn col(header: &'static str, width: Constraint) -> Column {
    Column { header, width }
}

use Constraint::{Length, Min};

/// The columns of list `id`.
pub fn columns(id: ListId) -> Vec<Column> {
    match id {
        ListId::Sections => vec![
            col("#", Length(3)),
            col("id", Length(3)),
            col("name", Length(16)),
            col("offset", Length(9)),
            col("length", Length(9)),
            col("align", Length(5)),
            col("items", Length(7)),
            col("size", Min(10)),
        ],
        ListId::Findings => vec![
            col("offset", Length(9)),
            col("by", Length(8)),
            col("problem", Min(20)),
        ],
        ListId::Functions => vec![
            col("#", Length(4)),
            col("name", Min(12)),
            col("kind", Length(6)),
            col("arguments", Min(10)),
            col("results", Min(8)),
            col("regs", Length(5)),
            col("kernels", Length(7)),
            col("size", Length(7)),
        ],
        ListId::Kernels => vec![
            col("#", Length(3)),
            col("kernel", Min(16)),
            col("args", Min(6)),
            col("results", Min(6)),
            col("attributes", Min(16)),
            col("functions", Min(6)),
            col("used by", Min(6)),
            col("stream", Length(6)),
            col("location", Min(10)),
        ],
        ListId::Registers => vec![
            col("reg", Length(5)),
            col("type", Min(10)),
            col("producer", Min(10)),
            col("users", Min(10)),
            col("uses", Length(5)),
        ],
        ListId::SourceKernels => vec![
            col("function", Min(8)),
            col("#", Length(3)),
            col("kernel", Min(14)),
            col("location", Min(14)),
        ],
        ListId::SourceLines => vec![col("line", Length(5)), col("source", Min(20))],
        ListId::Strings => vec![
            col("#", Length(4)),
            col("offset", Length(9)),
            col("len", Length(5)),
            col("text", Min(16)),
            col("users", Min(12)),
        ],
        ListId::Attributes => vec![
            col("#", Length(4)),
            col("offset", Length(9)),
            col("type", Min(8)),
            col("size", Length(6)),
            col("value", Min(16)),
            col("users", Min(12)),
        ],
        ListId::Types => vec![
            col("#", Length(4)),
            col("offset", Length(9)),
            col("name", Min(12)),
            col("users", Min(12)),
        ],
        ListId::Locations => vec![
            col("#", Length(4)),
            col("offset", Length(9)),
            col("kind", Length(10)),
            col("location", Min(20)),
        ],
        ListId::Events => vec![
            col("time ns", Length(9)),
            col("thread", Min(6)),
            col("execution · kernel", Min(18)),
            col("what", Min(12)),
        ],
        ListId::ExecRegisters => vec![
            col("reg", Length(5)),
            col("state", Length(11)),
            col("value / message", Min(14)),
            col("producer", Min(10)),
        ],
    }
}

/// The title of list `id`, escaped as [`cells`] are.
pub fn title(app: &App<'_, '_>, id: ListId) -> String {
    escape::terminal(&raw_title(app, id)).into_owned()
}

/// ` · (sint32) -> (sint32) [I6!S3!t6R6!S3!t6]`: the function's structured
/// (else raw) signature, readable, then mangled.
fn signature(app: &App<'_, '_>, function: Option<usize>) -> String {
    let Some(row) = function.and_then(|f| app.doc.listing.signature(f)) else {
        return String::new();
    };
    match row.raw {
        Ok(raw) => format!(
            " · {} [{raw}]",
            row.structured.as_deref().unwrap_or(&row.readable)
        ),
        Err(e) => format!(" · signature: {e}"),
    }
}

fn raw_title(app: &App<'_, '_>, id: ListId) -> String {
    let name = |f: Option<usize>| {
        f.map(|f| crate::names::function_ref(&app.doc.listing, f as u32))
            .unwrap_or_default()
    };
    match id {
        ListId::Sections => "Sections".to_owned(),
        ListId::Findings => "Findings (decoder and verifier)".to_owned(),
        ListId::Functions => format!(
            "Functions (sorted by {}; s: sort)",
            crate::app::SORT_COLUMNS[app.sort]
        ),
        ListId::Kernels => format!(
            "{} kernels{}",
            name(app.open_function),
            signature(app, app.open_function)
        ),
        ListId::Registers => format!("{} registers", name(app.open_function)),
        ListId::SourceKernels => "Kernels".to_owned(),
        ListId::SourceLines => app
            .doc
            .loaded
            .source
            .as_ref()
            .map_or_else(|| "Source".to_owned(), |s| s.name.clone()),
        ListId::Strings => "Strings".to_owned(),
        ListId::Attributes => "Attributes".to_owned(),
        ListId::Types => "Types".to_owned(),
        ListId::Locations => "Locations".to_owned(),
        ListId::Events => "Events ([ ] step, { } same kernel)".to_owned(),
        ListId::ExecRegisters => match (app.trace.as_ref(), app.selected_execution()) {
            (Some(trace), Some(e)) => format!(
                "{} {} registers",
                trace.execution_label(e),
                trace.function_name(e)
            ),
            _ => "Registers".to_owned(),
        },
    }
}

/// The number of rows of list `id`.
pub fn len(app: &mut App<'_, '_>, id: ListId) -> usize {
    match id {
        ListId::Sections => app.doc.listing.sections().len(),
        ListId::Findings => app.doc.analysis_ready().map_or(0, |a| a.findings.len()),
        ListId::Functions | ListId::Kernels | ListId::Registers => functions::len(app, id),
        ListId::SourceKernels | ListId::SourceLines => source::len(app, id),
        ListId::Strings | ListId::Attributes | ListId::Types | ListId::Locations => {
            tables::len(app, id)
        }
        ListId::Events | ListId::ExecRegisters => execution::len(app, id),
    }
}

/// The cells of row `row` of list `id` (which must exist), every
/// character that could drive a terminal shown escaped: names, values and
/// source text come from the file. The screen, `--dump` and `y` all take
/// their text from here.
pub fn cells(app: &mut App<'_, '_>, id: ListId, row: usize) -> Vec<String> {
    let cells = raw_cells(app, id, row);
    let escape = if id == ListId::SourceLines {
        // A source line keeps its tabs.
        escape::terminal_lines
    } else {
        escape::terminal
    };
    cells
        .into_iter()
        .map(|cell| match escape(&cell) {
            Cow::Borrowed(_) => cell,
            Cow::Owned(escaped) => escaped,
        })
        .collect()
}

fn raw_cells(app: &mut App<'_, '_>, id: ListId, row: usize) -> Vec<String> {
    match id {
        ListId::Sections | ListId::Findings => sections::cells(app, id, row),
        ListId::Functions | ListId::Kernels | ListId::Registers => functions::cells(app, id, row),
        ListId::SourceKernels | ListId::SourceLines => source::cells(app, id, row),
        ListId::Strings | ListId::Attributes | ListId::Types | ListId::Locations => {
            tables::cells(app, id, row)
        }
        ListId::Events | ListId::ExecRegisters => execution::cells(app, id, row),
    }
}

/// The bytes of row `row` of list `id`.
pub fn range(app: &mut App<'_, '_>, id: ListId, row: usize) -> Option<Range<usize>> {
    match id {
        ListId::Sections | ListId::Findings => sections::range(app, id, row),
        ListId::Functions | ListId::Kernels | ListId::Registers => functions::range(app, id, row),
        ListId::SourceKernels | ListId::SourceLines => source::range(app, id, row),
        ListId::Strings | ListId::Attributes | ListId::Types | ListId::Locations => {
            tables::range(app, id, row)
        }
        ListId::Events | ListId::ExecRegisters => None,
    }
}

/// The value `y` copies from row `row` of list `id`: its main cell.
pub fn value(app: &mut App<'_, '_>, id: ListId, row: usize) -> String {
    let cells = cells(app, id, row);
    let main = match id {
        ListId::Sections => 2,
        ListId::Findings => 2,
        ListId::Functions => 1,
        ListId::Kernels => 1,
        ListId::Registers => 1,
        ListId::SourceKernels => 2,
        ListId::SourceLines => 1,
        ListId::Strings => 3,
        ListId::Attributes => 4,
        ListId::Types => 2,
        ListId::Locations => 3,
        ListId::Events => 3,
        ListId::ExecRegisters => 2,
    };
    cells.into_iter().nth(main).unwrap_or_default()
}

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

/// Whether row `row` of list `id` holds a finding.
fn marked(app: &mut App<'_, '_>, id: ListId, row: usize) -> bool {
    if id == ListId::Findings || id == ListId::SourceLines {
        return false;
    }
    if id == ListId::Events || id == ListId::ExecRegisters {
        return execution::marked(app, id, row);
    }
    let Some(range) = range(app, id, row) else {
        return false;
    };
    app.doc
        .analysis_ready()
        .is_some_and(|a| !a.findings_in(range).is_empty())
}

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
        .title(title(app, id));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = inner.height.saturating_sub(1) as usize;
    let total = len(app, id);
    let mut cursor = app.cursor(id);
    cursor.fit(total, height);
    *app.cursor_mut(id) = cursor;
    if focused {
        app.page = height.max(1);
    }
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
        let mark = marked(app, id, row);
        let mut style = row_style(app, id, row);
        if row == cursor.selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let cells = cells(app, id, row);
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

fn row_style(app: &mut App<'_, '_>, id: ListId, row: usize) -> Style {
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

/// How the tab bar labels tab `i`.
pub fn tab_label(i: usize, tab: Tab) -> String {
    format!(" {} {} ", i + 1, tab.title())
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
        spans.push(Span::styled(tab_label(i, *tab), style));
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
            PromptKind::Search if app.tab == Tab::Hex => "search (text, #hex, =VBR): ",
            PromptKind::Search => "search: ",
            PromptKind::Goto => "go to offset (0x.. or decimal; g: top): ",
            PromptKind::Arguments => "arguments (JSON list): ",
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
    for (key, what) in crate::keys::footer_hints() {
        spans.push(Span::styled(
            format!(" {key} "),
            Style::default().fg(Color::Black).bg(Color::DarkGray),
        ));
        spans.push(Span::raw(format!(" {what} ")));
    }
    let extra = match app.tab {
        Tab::Hex => " g goto  m mark  ' next mark",
        Tab::Functions if app.open_function.is_none() => " s sort  r run",
        Tab::Functions | Tab::Source | Tab::Sections => " h/l pane",
        Tab::Tables => " h/l table",
        Tab::Execution => " [ ] step  { } kernel  h/l pane",
    };
    spans.push(Span::styled(extra, Style::default().fg(Color::DarkGray)));
    if app.doc.analysis_ready().is_none() {
        spans.push(Span::styled(
            "  analysing…",
            Style::default().fg(Color::Yellow),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
