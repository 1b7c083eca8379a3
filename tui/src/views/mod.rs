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
pub mod users;

use std::borrow::Cow;
use std::ops::Range;

use bef::tool_io::escape;

use Constraint::{Length, Min};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};

use crate::app::{App, PromptKind, SelectedCell, Tab};
use crate::columns::{self as sizing, Fit, Need};

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

/// A column: its header, how its text may be shortened, and its priority
/// when room is short (see [`crate::columns`]).
pub struct Column {
    /// The header.
    pub header: &'static str,
    /// Lower is given room first.
    pub priority: u8,
    /// How its text may be shortened.
    pub fit: Fit,
    /// The fewest cells it is drawn in when elided.
    pub least: usize,
}

/// A column of numbers (or other text that a cut would falsify), shown
/// whole or hidden.
const fn whole(header: &'static str, priority: u8) -> Column {
    Column {
        header,
        priority,
        fit: Fit::Whole,
        least: 0,
    }
}

/// A column of names or values, elided in the middle, drawn in at least
/// `least` cells.
const fn text(header: &'static str, priority: u8, least: usize) -> Column {
    Column {
        header,
        priority,
        fit: Fit::Elide,
        least,
    }
}

/// A column of locations: elided before their `:line:col`, never in it.
const fn place(header: &'static str, priority: u8, least: usize) -> Column {
    Column {
        header,
        priority,
        fit: Fit::Location,
        least,
    }
}

/// The columns of list `id`. Priorities: 0 what a row is (names,
/// locations), 1 what identifies or measures it, 2 and 3 the rest.
pub fn columns(id: ListId) -> Vec<Column> {
    match id {
        ListId::Sections => vec![
            whole("#", 3),
            whole("id", 3),
            text("name", 0, 10),
            whole("offset", 1),
            whole("length", 1),
            whole("align", 3),
            whole("items", 2),
            text("size", 2, 8),
        ],
        ListId::Findings => vec![whole("offset", 0), text("by", 2, 8), text("problem", 0, 20)],
        ListId::Functions => vec![
            whole("#", 2),
            text("name", 0, 12),
            text("kind", 2, 6),
            text("arguments", 1, 10),
            text("results", 1, 8),
            whole("regs", 3),
            whole("kernels", 3),
            whole("size", 3),
        ],
        ListId::Kernels => vec![
            whole("#", 1),
            text("kernel", 0, 16),
            text("args", 2, 6),
            text("results", 2, 6),
            text("attributes", 1, 16),
            text("functions", 3, 6),
            text("used by", 3, 6),
            whole("stream", 3),
            place("location", 0, 12),
        ],
        ListId::Registers => vec![
            whole("reg", 0),
            text("type", 1, 10),
            text("producer", 0, 10),
            text("users", 1, 10),
            whole("uses", 2),
        ],
        ListId::SourceKernels => vec![
            text("function", 2, 8),
            whole("#", 3),
            text("kernel", 0, 14),
            place("location", 0, 12),
        ],
        ListId::SourceLines => vec![whole("line", 0), text("source", 0, 20)],
        ListId::Strings => vec![
            whole("#", 2),
            whole("offset", 1),
            whole("len", 3),
            text("text", 0, 16),
            text("users", 1, 12),
        ],
        ListId::Attributes => vec![
            whole("#", 2),
            whole("offset", 1),
            text("type", 1, 8),
            whole("size", 3),
            text("value", 0, 16),
            text("users", 1, 12),
        ],
        ListId::Types => vec![
            whole("#", 2),
            whole("offset", 1),
            text("name", 0, 12),
            text("users", 1, 12),
        ],
        ListId::Locations => vec![
            whole("#", 2),
            whole("offset", 1),
            text("kind", 2, 6),
            place("location", 0, 20),
        ],
        ListId::Events => vec![
            whole("time ns", 1),
            text("thread", 3, 8),
            text("execution", 2, 8),
            text("kernel", 0, 20),
            text("what", 1, 10),
        ],
        ListId::ExecRegisters => vec![
            whole("reg", 0),
            whole("state", 0),
            text("value / message", 0, 8),
            text("producer", 2, 10),
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
        ListId::Events => "Events ([ ] step, { } same kernel in another execution)".to_owned(),
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

/// The value `y` copies from row `row` of list `id`: the cell under the
/// column cursor, else its main cell.
pub fn value(app: &mut App<'_, '_>, id: ListId, row: usize) -> String {
    let column = app.cursor(id).column.unwrap_or(main_column(id));
    cells(app, id, row)
        .into_iter()
        .nth(column)
        .unwrap_or_default()
}

/// The column that says what a row of list `id` is: where the column
/// cursor starts.
pub fn main_column(id: ListId) -> usize {
    match id {
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
        ListId::Events => 4,
        ListId::ExecRegisters => 2,
    }
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

    /// Every field kind, in the order the hex legend lists their colours.
    pub const FIELD_KINDS: [FieldKind; 35] = {
        use FieldKind::*;
        [
            Magic,
            Version,
            SectionId,
            SectionLength,
            SectionAlignment,
            Padding,
            Count,
            ArgumentCount,
            AttributeCount,
            FunctionCount,
            ResultCount,
            UsedByCount,
            StringText,
            StringTerminator,
            StringRef,
            AttributeBytes,
            AttributeRef,
            AttributeType,
            TypeRef,
            FunctionKind,
            BodyOffset,
            KernelOffset,
            LocationRef,
            UseCount,
            OperandCount,
            StreamId,
            ReturnRegister,
            KernelCode,
            ArgumentRegister,
            FunctionRef,
            ResultRegister,
            UsedBy,
            LocationKind,
            Line,
            Column,
        ]
    };

    /// The hex view's colours, each with what it marks: field kinds
    /// sharing a colour on one line, then the sections' colours for bytes
    /// no field claims.
    pub fn legend() -> Vec<(Color, String)> {
        let mut out: Vec<(Color, String)> = Vec::new();
        for kind in FIELD_KINDS {
            let colour = field(kind);
            match out.iter_mut().find(|(c, _)| *c == colour) {
                Some((_, text)) => {
                    text.push_str(", ");
                    text.push_str(kind.label());
                }
                None => out.push((colour, kind.label().to_owned())),
            }
        }
        for id in SectionId::ALL {
            out.push((
                section(Some(id)),
                format!("{} section, outside fields", id.name()),
            ));
        }
        out.push((section(None), "outside any section".to_owned()));
        out
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
/// Columns are sized from the rows on screen (`crate::columns`); the
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
    let total = len(app, id);
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
    let mut lines = Vec::new();
    for row in cursor.scroll..(cursor.scroll + height).min(total) {
        let mark = marked(app, id, row);
        let mut style = row_style(app, id, row);
        if row == cursor.selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push((row, mark, style, cells(app, id, row)));
    }
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
    let needs: Vec<Need> = columns
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
        .collect();
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
    let rows: Vec<Row> = lines
        .into_iter()
        .map(|(row, mark, style, cells)| {
            let mark_cell = if mark {
                Cell::from("!").style(Style::default().fg(PROBLEM).add_modifier(Modifier::BOLD))
            } else {
                Cell::from(" ")
            };
            let chosen = focused && row == cursor.selected && total > 0;
            let cells = shown.iter().map(|&i| {
                let text = fit(i, cells.get(i).map_or("", String::as_str));
                if chosen && cursor.column == Some(i) {
                    Cell::from(text).style(Style::default().add_modifier(Modifier::UNDERLINED))
                } else {
                    Cell::from(text)
                }
            });
            Row::new(std::iter::once(mark_cell).chain(cells).collect::<Vec<_>>()).style(style)
        })
        .collect();
    let mut title = title(app, id);
    if hidden > 0 {
        title.push_str(&format!(" (+{hidden} columns: < >)"));
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
    } else if let Some((id, row, scroll)) = app.users_of {
        users::draw(frame, body, app, id, row, scroll);
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
        format!(" {} ({})", escape::path(&loaded.path), loaded.size_text()),
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
        let mut spans = feedback(app);
        spans.push(Span::styled(
            app.execution_path(),
            Style::default().fg(Color::White),
        ));
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
        ];
        spans.extend(feedback(app));
        spans.push(Span::styled(
            escape::terminal(&path).into_owned(),
            Style::default().fg(Color::White),
        ));
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
