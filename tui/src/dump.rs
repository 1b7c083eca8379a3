//! `--dump VIEW`: a view printed once as plain text, every row, no
//! terminal. The rows are the ones the views draw.

use std::io::{self, Write};

use bef::tool_io::escape;

use crate::app::App;
use crate::inspector;
use crate::rows::{self, ListId, columns};
use crate::tensors::{COLUMNS, TensorFile};

/// The views `--dump` knows, with what each prints.
pub const VIEWS: &[(&str, &str)] = &[
    (
        "sections",
        "sections, then the decoder's and verifier's findings",
    ),
    ("hex", "every byte: offset, hex, ASCII"),
    (
        "functions",
        "the function table, then each function's kernels and registers",
    ),
    ("source", "every kernel with its location and source line"),
    ("strings", "the Strings section with users"),
    (
        "attributes",
        "attributes with types, decoded values and users",
    ),
    ("types", "the Types section with users"),
    ("locations", "the Locations section, decoded"),
    (
        "execution",
        "a recording: every event, then the registers and kernel at each step",
    ),
    ("help", "the keys"),
];

/// The views of a BTF file (named `.btf`).
pub const BTF_VIEWS: &[(&str, &str)] = &[(
    "tensors",
    "every tensor with statistics, then each one's detail",
)];

/// Whether `view` is a view `--dump` knows.
pub fn is_view(view: &str) -> bool {
    VIEWS.iter().chain(BTF_VIEWS).any(|(v, _)| *v == view)
}

/// Prints a BTF file's tensors as aligned columns under its title, then
/// each tensor's detail.
pub fn tensors(out: &mut impl Write, file: &TensorFile) -> io::Result<()> {
    writeln!(out, "== {}", file.title())?;
    let mut rows = vec![COLUMNS.map(String::from).to_vec()];
    rows.extend((0..file.rows.len()).map(|row| file.cells(row)));
    aligned(out, &rows, &vec![false; rows.len()])?;
    for row in 0..file.rows.len() {
        writeln!(out)?;
        for line in file.detail(row) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// Prints list `id` as aligned columns under a title line.
fn list(out: &mut impl Write, app: &mut App<'_, '_>, id: ListId) -> io::Result<()> {
    writeln!(out, "== {}", rows::title(&app.rows(), id))?;
    let headers: Vec<String> = columns(id).iter().map(|c| c.header.to_owned()).collect();
    let count = rows::len(&app.rows(), id);
    let mut table = vec![headers];
    let mut marks = vec![false];
    for row in 0..count {
        let mark = rows::range(&app.rows(), id, row).is_some_and(|r| {
            id != ListId::Findings
                && app
                    .doc
                    .analysis_ready()
                    .is_some_and(|a| !a.findings_in(r).is_empty())
        });
        marks.push(mark);
        table.push(rows::cells(&app.rows(), id, row));
    }
    if count == 0 {
        writeln!(out, "  (none)")?;
        return Ok(());
    }
    aligned(out, &table, &marks)
}

/// Rows as columns padded to their widest cell (at most 60 characters),
/// each line marked `!` where `marks` says.
fn aligned(out: &mut impl Write, rows: &[Vec<String>], marks: &[bool]) -> io::Result<()> {
    let ncols = rows[0].len();
    let widths: Vec<usize> = (0..ncols)
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count().min(60)))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (row, &mark) in rows.iter().zip(marks) {
        let mut line = String::from(if mark { "! " } else { "  " });
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if c + 1 < row.len() {
                let pad = widths[c].saturating_sub(cell.chars().count());
                line.push_str(&" ".repeat(pad + 2));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The Execution tab as text: the recording's summary and every event;
/// then, after each event, the registers it changed and the kernel's state.
fn execution(out: &mut impl Write, app: &mut App<'_, '_>) -> io::Result<()> {
    if app.trace.is_none() {
        return writeln!(out, "(no recording: open a bef-trace recording)");
    }
    let count = rows::len(&app.rows(), ListId::Events);
    for line in rows::execution::kernel_lines(&app.rows()) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    list(out, app, ListId::Events)?;
    writeln!(out, "\n== registers and kernels, event by event")?;
    for step in 0..count {
        app.cursor_mut(ListId::Events).selected = step;
        let cells = rows::cells(&app.rows(), ListId::Events, step);
        writeln!(out, "[{step}] {}", cells.join("  ").trim_end())?;
        let lines = rows::execution::kernel_lines(&app.rows());
        // The first lines are the summary printed above.
        let skip = lines
            .iter()
            .take_while(|l| !l.starts_with("kernel ") && !l.starts_with('#'))
            .count();
        for line in &lines[skip..] {
            writeln!(out, "    {line}")?;
        }
    }
    // Each execution's registers as the recording leaves them.
    let mut executions: Vec<(u64, usize)> = Vec::new();
    if let Some(trace) = app.trace.as_ref() {
        for (i, s) in trace.steps.iter().enumerate() {
            match executions.iter_mut().find(|(e, _)| *e == s.event.execution) {
                Some(last) => last.1 = i,
                None => executions.push((s.event.execution, i)),
            }
        }
    }
    for (_, last) in executions {
        app.cursor_mut(ListId::Events).selected = last;
        writeln!(out)?;
        list(out, app, ListId::ExecRegisters)?;
    }
    app.cursor_mut(ListId::Events).selected = 0;
    Ok(())
}

/// Prints view `view` of `app`'s file (computing the analysis first).
pub fn dump(out: &mut impl Write, app: &mut App<'_, '_>, view: &str) -> io::Result<()> {
    app.doc.analysis();
    match view {
        "sections" => {
            list(out, app, ListId::Sections)?;
            writeln!(out)?;
            list(out, app, ListId::Findings)
        }
        "hex" => {
            let bytes = app.doc.bytes();
            for line in 0..bytes.len().div_ceil(inspector::WIDTH) {
                writeln!(out, "{}", inspector::plain_line(bytes, line))?;
            }
            Ok(())
        }
        "functions" => {
            list(out, app, ListId::Functions)?;
            for index in 0..app.doc.listing.function_count() {
                if app.doc.listing.function(index).is_none() {
                    continue;
                }
                app.open_function = Some(index);
                writeln!(out)?;
                list(out, app, ListId::Kernels)?;
                list(out, app, ListId::Registers)?;
            }
            app.open_function = None;
            Ok(())
        }
        "source" => {
            list(out, app, ListId::SourceKernels)?;
            let count = app.source_kernels().len();
            if app.doc.loaded.source.is_none() {
                writeln!(out, "\n{}", rows::source::missing_source(&app.rows()))?;
                for refused in &app.doc.loaded.source_not_read {
                    // Escaped by its Display.
                    writeln!(out, "  {refused}")?;
                }
                return Ok(());
            }
            writeln!(out, "\n== kernels at their source lines")?;
            for row in 0..count {
                app.cursor_mut(ListId::SourceKernels).selected = row;
                let cells = rows::cells(&app.rows(), ListId::SourceKernels, row);
                let line = app.selected_kernel_line();
                let text = line
                    .and_then(|l| app.doc.loaded.source.as_ref()?.lines.get(l).cloned())
                    .unwrap_or_default();
                let at = line.map_or_else(|| "-".to_owned(), |l| (l + 1).to_string());
                writeln!(
                    out,
                    "{} kernel {} {}  line {at}: {}",
                    cells[0],
                    cells[1],
                    cells[2],
                    escape::terminal_lines(text.trim())
                )?;
            }
            Ok(())
        }
        "strings" => list(out, app, ListId::Strings),
        "attributes" => list(out, app, ListId::Attributes),
        "types" => list(out, app, ListId::Types),
        "locations" => list(out, app, ListId::Locations),
        "execution" => execution(out, app),
        "help" => {
            for line in crate::help::lines() {
                writeln!(out, "{:>12}  {}", line.keys, line.text)?;
            }
            Ok(())
        }
        other => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("unknown view '{other}'"),
        )),
    }
}
