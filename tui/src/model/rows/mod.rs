//! The lists of the inspector as data: every list's columns, title, row
//! count, cells, byte ranges and copied value, read from a [`State`] that
//! borrows what they depend on (the document, the recording, cursors), so
//! reading a row changes nothing. The views draw these rows, `--dump`
//! prints them and `y` copies them. One file per tab.

pub mod execution;
pub mod functions;
pub mod profile;
pub mod sections;
pub mod source;
mod state;
pub mod tables;

pub use functions::SortKey;
pub use state::{Cursor, Snapshot, State};

use std::borrow::Cow;
use std::ops::Range;

use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::columns::Fit;
use bef::tool_io::escape;

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
    /// A recording's statistics per kernel name (Functions tab).
    KernelProfile,
    /// A recording's statistics per function (Functions tab).
    FunctionProfile,
}

impl ListId {
    /// Every list, in the order of their numbers.
    pub const ALL: &'static [ListId] = &[
        ListId::Sections,
        ListId::Findings,
        ListId::Functions,
        ListId::Kernels,
        ListId::Registers,
        ListId::SourceKernels,
        ListId::SourceLines,
        ListId::Strings,
        ListId::Attributes,
        ListId::Types,
        ListId::Locations,
        ListId::Events,
        ListId::ExecRegisters,
        ListId::KernelProfile,
        ListId::FunctionProfile,
    ];

    /// The number of lists.
    pub const COUNT: usize = ListId::ALL.len();
}

/// The tables of the Strings·Attributes·Types tab, in `h`/`l` order.
pub const TABLES: [ListId; 4] = [
    ListId::Strings,
    ListId::Attributes,
    ListId::Types,
    ListId::Locations,
];

/// A column: its header, how its text may be shortened, and its priority
/// when room is short (see [`crate::model::columns`]).
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
        // An event is its time, kernel and what happened: those three
        // share the room before thread and execution are shown.
        ListId::Events => vec![
            whole("time ns", 0),
            text("thread", 3, 8),
            text("execution", 2, 8),
            text("kernel", 0, 16),
            text("what", 0, 10),
        ],
        ListId::ExecRegisters => vec![
            whole("reg", 0),
            whole("state", 0),
            text("value / message", 0, 8),
            text("producer", 2, 10),
        ],
        ListId::KernelProfile | ListId::FunctionProfile => {
            let priority = [0, 1, 1, 1, 2, 2, 1, 3, 2];
            crate::model::profile::HEADERS
                .iter()
                .zip(priority)
                .map(|(&h, p)| if p == 0 { text(h, 0, 16) } else { whole(h, p) })
                .collect()
        }
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
    // Without metadata the raw signature names what the ABI cannot pass
    // (`Unrecognized<?>` for every `!t.tensor`): the file's own type
    // names say more.
    let readable = row.structured.clone().unwrap_or_else(|| {
        let listing = &app.doc.listing;
        match function.and_then(|f| listing.index_entry(f)) {
            Some(entry) => format!(
                "({}) -> ({})",
                crate::model::names::type_list(listing, entry.argument_types),
                crate::model::names::type_list(listing, entry.result_types)
            ),
            None => row.readable.clone(),
        }
    });
    match row.raw {
        Ok(raw) => format!(" · {readable} [{raw}]"),
        Err(e) => format!(" · signature: {e}"),
    }
}

fn raw_title(app: &State<'_, '_>, id: ListId) -> String {
    let name = |f: Option<usize>| {
        f.map(|f| crate::model::names::function_ref(&app.doc.listing, f as u32))
            .unwrap_or_default()
    };
    match id {
        ListId::Sections => "Sections".to_owned(),
        ListId::Findings => "Findings (decoder and verifier)".to_owned(),
        ListId::Functions => format!("Functions (sorted by {}; s: sort)", app.sort.name()),
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
                "Events ({} {} step, {} {} same kernel in another execution)",
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
        ListId::KernelProfile | ListId::FunctionProfile => {
            let key = |action| keys::label(action, Some(Tab::Functions));
            format!(
                "Recorded {} (sorted by {}; {} sort, {} slowest in Execution, {} {} switch)",
                if id == ListId::KernelProfile {
                    "kernels"
                } else {
                    "functions"
                },
                app.profile_sort.name(),
                key(Action::Sort),
                key(Action::Enter),
                key(Action::Left),
                key(Action::Right)
            )
        }
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
        ListId::KernelProfile | ListId::FunctionProfile => profile::len(app, id),
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
        ListId::KernelProfile | ListId::FunctionProfile => profile::cells(app, id, row),
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
        ListId::Events
        | ListId::ExecRegisters
        | ListId::KernelProfile
        | ListId::FunctionProfile => None,
    }
}

/// The value `y` copies from row `row` of list `id`: the cell under the
/// column cursor, else its main cell.
pub fn value(app: &State<'_, '_>, id: ListId, row: usize) -> String {
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
        ListId::KernelProfile | ListId::FunctionProfile => 0,
    }
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

#[cfg(test)]
mod tests {
    use super::ListId;

    #[test]
    fn every_list_is_listed_once_at_its_number() {
        for (i, &id) in ListId::ALL.iter().enumerate() {
            assert_eq!(id as usize, i, "{id:?}");
        }
    }
}
