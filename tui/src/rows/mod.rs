//! The lists of the inspector as data: every list's columns, title, row
//! count, cells, byte ranges and copied value, read from a [`State`] that
//! borrows what they depend on (the document, the recording, cursors), so
//! reading a row changes nothing. The views draw these rows, `--dump`
//! prints them and `y` copies them. One file per tab.

pub mod execution;
pub mod functions;
pub mod sections;
pub mod source;
mod state;
pub mod tables;

pub use state::{Cursor, SORT_COLUMNS, Snapshot, State};

use std::borrow::Cow;
use std::ops::Range;

use bef::tool_io::escape;
use ratatui::layout::Constraint;

use crate::keys::{self, Action};
use crate::tab::Tab;

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
pub fn title(app: &State<'_, '_>, id: ListId) -> String {
    escape::terminal(&raw_title(app, id)).into_owned()
}

/// ` · (sint32) -> (sint32) [I6!S3!t6R6!S3!t6]`: the function's structured
/// (else raw) signature, readable, then mangled.
fn signature(app: &State<'_, '_>, function: Option<usize>) -> String {
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

fn raw_title(app: &State<'_, '_>, id: ListId) -> String {
    let name = |f: Option<usize>| {
        f.map(|f| crate::names::function_ref(&app.doc.listing, f as u32))
            .unwrap_or_default()
    };
    match id {
        ListId::Sections => "Sections".to_owned(),
        ListId::Findings => "Findings (decoder and verifier)".to_owned(),
        ListId::Functions => format!("Functions (sorted by {}; s: sort)", SORT_COLUMNS[app.sort]),
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
        ListId::Events => {
            let key = |action| keys::label(action, Some(Tab::Execution));
            format!(
                "Events ({} {} step, {} {} same kernel)",
                key(Action::StepBack),
                key(Action::StepForward),
                key(Action::KernelBack),
                key(Action::KernelForward)
            )
        }
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
pub fn len(app: &State<'_, '_>, id: ListId) -> usize {
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
pub fn cells(app: &State<'_, '_>, id: ListId, row: usize) -> Vec<String> {
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

fn raw_cells(app: &State<'_, '_>, id: ListId, row: usize) -> Vec<String> {
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
pub fn range(app: &State<'_, '_>, id: ListId, row: usize) -> Option<Range<usize>> {
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
pub fn value(app: &State<'_, '_>, id: ListId, row: usize) -> String {
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

/// Whether row `row` of list `id` holds a finding.
pub fn marked(app: &State<'_, '_>, id: ListId, row: usize) -> bool {
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
