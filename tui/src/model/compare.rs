//! Two inputs side by side (`befview A B`): two programs get the structural
//! difference `bef diff` prints (`bef::inspect::diff`), two `bef-trace`
//! recordings the time of each function and kernel in both and the change
//! (`bef_trace::analysis::compare`, as `bef-trace diff --json` writes it),
//! sorted by the change, then the critical path of each. Both are lines of
//! text with a kind, which the view colours and `--dump compare` prints.

use std::path::Path;

use bef::inspect::Listing;
use bef::inspect::diff::{DiffOptions, LineKind, diff};
use bef::tool_io::escape;
use bef_trace::Model;
use bef_trace::analysis::compare::{Comparison, compare};
use bef_trace::analysis::critical_path::{CriticalOptions, analyse};
use bef_trace::export::stats::human;
use unicode_width::UnicodeWidthStr;

use crate::model::document::{Document, Loaded};
use crate::model::execution::is_recording;
use crate::model::input::{LoadError, read};

/// What a line of the comparison says, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A title or a table's header.
    Heading,
    /// Only in the first input, or faster in the second.
    Removed,
    /// Only in the second input, or slower in the second.
    Added,
    /// In both, different.
    Changed,
    /// Nothing to mark: an unchanged time, a step of a critical path.
    Plain,
    /// A remark.
    Note,
}

/// One line of the comparison, escaped for the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// What it says.
    pub kind: Kind,
    /// The text.
    pub text: String,
}

/// The comparison of two inputs, as lines.
#[derive(Debug, Clone)]
pub struct CompareView {
    /// What is compared with what.
    pub title: String,
    /// The lines, in order.
    pub lines: Vec<Line>,
    /// Whether the two are equal (programs) or took the same time in every
    /// kernel (recordings).
    pub equal: bool,
}

/// Opens `old` and `new` and compares them: both recordings, or both
/// programs (BEF, MLIR text or bytecode). A damaged program is refused with
/// its first problem and offset.
pub fn open(old: &Path, new: &Path) -> Result<CompareView, LoadError> {
    let (a, b) = (read(old)?, read(new)?);
    match (is_recording(a.bytes()), is_recording(b.bytes())) {
        (true, true) => {
            let models = [recording(old, a.bytes())?, recording(new, b.bytes())?];
            Ok(recordings(old, new, &models))
        }
        (false, false) => {
            let (a, b) = (Loaded::from_buffer(old, a)?, Loaded::from_buffer(new, b)?);
            let (a, b) = (Document::new(&a)?, Document::new(&b)?);
            for doc in [&a, &b] {
                refuse_damage(&doc.listing, &doc.loaded.path)?;
            }
            Ok(programs(old, new, &a.listing, &b.listing))
        }
        _ => Err(LoadError(format!(
            "error: {} and {} are not of one kind: compare two recordings or two programs",
            escape::path(old),
            escape::path(new)
        ))),
    }
}

fn refuse_damage(listing: &Listing<'_>, path: &Path) -> Result<(), LoadError> {
    match listing.errors().first() {
        Some(problem) => Err(LoadError(format!(
            "error: {} is not valid BEF: {problem}",
            escape::path(path)
        ))),
        None => Ok(()),
    }
}

/// The recording in `bytes`, analysed; one made without its program's
/// table is refused (compare it with `bef-trace diff --program`).
fn recording(path: &Path, bytes: &[u8]) -> Result<Model, LoadError> {
    let shown = escape::path(path);
    let mut recording = bef_trace::read(bytes)
        .map_err(|e| LoadError(format!("error: {shown}: not a readable recording: {e}")))?;
    bef_trace::program_file::attach(&mut recording, None)
        .map_err(|e| LoadError(format!("error: {shown}: {e}")))?;
    Ok(Model::new(recording))
}

fn name(path: &Path) -> String {
    escape::path(path).into_owned()
}

/// The structural difference of two programs.
pub fn programs(old: &Path, new: &Path, a: &Listing<'_>, b: &Listing<'_>) -> CompareView {
    let difference = diff(a, b, &DiffOptions::default());
    let lines = difference
        .lines(&name(old), &name(new))
        .into_iter()
        .map(|line| Line {
            kind: match line.kind {
                LineKind::Heading => Kind::Heading,
                LineKind::Removed => Kind::Removed,
                LineKind::Added => Kind::Added,
                LineKind::Changed => Kind::Changed,
                LineKind::Note => Kind::Note,
            },
            text: format!(
                "{}{}",
                "  ".repeat(usize::from(line.depth)),
                escape::terminal(&line.text)
            ),
        })
        .collect();
    CompareView {
        title: format!("Compare programs {} → {}", name(old), name(new)),
        lines,
        equal: difference.is_empty(),
    }
}

/// A signed time: `+1.2µs`, `-30ns`, `0ns`.
pub fn signed(ns: i64) -> String {
    let sign = match ns.signum() {
        1 => "+",
        -1 => "-",
        _ => "",
    };
    format!("{sign}{}", human(ns.unsigned_abs()))
}

fn kind_of_delta(delta: i64) -> Kind {
    match delta.signum() {
        1 => Kind::Added,
        -1 => Kind::Removed,
        _ => Kind::Plain,
    }
}

/// Rows of cells as lines, each column as wide as its widest cell (numbers
/// right-aligned).
fn table(header: &[&str], rows: Vec<(Kind, Vec<String>)>, numeric: &[bool]) -> Vec<Line> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for (_, cells) in &rows {
        for (w, cell) in widths.iter_mut().zip(cells) {
            *w = (*w).max(cell.width());
        }
    }
    let render = |cells: &[String]| {
        let mut text = String::from("  ");
        for (c, cell) in cells.iter().enumerate() {
            let pad = " ".repeat(widths[c].saturating_sub(cell.width()));
            if numeric.get(c) == Some(&true) {
                text.push_str(&pad);
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.push_str(&pad);
            }
            text.push_str("  ");
        }
        text.trim_end().to_owned()
    };
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    let mut lines = vec![Line {
        kind: Kind::Heading,
        text: render(&header),
    }];
    lines.extend(rows.into_iter().map(|(kind, cells)| Line {
        kind,
        text: render(&cells),
    }));
    lines
}

/// The times of two recordings side by side, then their critical paths.
pub fn recordings(old: &Path, new: &Path, models: &[Model; 2]) -> CompareView {
    let comparison = compare(&models[0], &models[1]);
    let (a, b) = (name(old), name(new));
    let mut lines = vec![
        Line {
            kind: Kind::Heading,
            text: format!("self time in kernels: {a} → {b}"),
        },
        Line {
            kind: kind_of_delta(comparison.delta_ns),
            text: format!(
                "total  {}  {}  {}",
                human(comparison.before_ns),
                human(comparison.after_ns),
                signed(comparison.delta_ns)
            ),
        },
    ];
    if comparison.different_programs {
        lines.push(Line {
            kind: Kind::Note,
            text: "note: the recordings ran different programs; kernels are matched by function, name and location".to_owned(),
        });
    }
    lines.extend(delta_tables(&comparison));
    for (path, model) in [(&a, &models[0]), (&b, &models[1])] {
        lines.push(Line {
            kind: Kind::Note,
            text: String::new(),
        });
        lines.extend(critical_path(path, model));
    }
    CompareView {
        title: format!("Compare recordings {a} → {b}"),
        lines,
        equal: comparison.kernels.iter().all(|k| k.delta_ns == 0),
    }
}

/// The functions' and kernels' tables, the largest change first.
fn delta_tables(comparison: &Comparison) -> Vec<Line> {
    let mut lines = vec![Line {
        kind: Kind::Heading,
        text: format!("Functions ({}), by change:", comparison.functions.len()),
    }];
    let rows = comparison
        .functions
        .iter()
        .map(|f| {
            (
                kind_of_delta(f.delta_ns),
                vec![
                    escape::terminal(&f.function).into_owned(),
                    human(f.before_ns),
                    human(f.after_ns),
                    signed(f.delta_ns),
                    format!("{}→{}", f.before_count, f.after_count),
                ],
            )
        })
        .collect();
    lines.extend(table(
        &["function", "before", "after", "delta", "calls"],
        rows,
        &[false, true, true, true, true],
    ));
    lines.push(Line {
        kind: Kind::Heading,
        text: format!("Kernels ({}), by change:", comparison.kernels.len()),
    });
    let rows = comparison
        .kernels
        .iter()
        .map(|k| {
            let kernel = match k.kernel_index {
                Some(index) => format!("{}#{index}", k.kernel),
                None => k.kernel.clone(),
            };
            (
                kind_of_delta(k.delta_ns),
                vec![
                    escape::terminal(&k.function).into_owned(),
                    escape::terminal(&kernel).into_owned(),
                    human(k.before_ns),
                    human(k.after_ns),
                    signed(k.delta_ns),
                    format!("{}→{}", k.before_count, k.after_count),
                    escape::terminal(&k.location).into_owned(),
                ],
            )
        })
        .collect();
    // The location last: it can be long, and the times should stay in view.
    lines.extend(table(
        &[
            "function", "kernel", "before", "after", "delta", "runs", "location",
        ],
        rows,
        &[false, false, true, true, true, true, false],
    ));
    lines
}

/// A recording's critical path: its length and its kernels in order.
fn critical_path(name: &str, model: &Model) -> Vec<Line> {
    let analysis = analyse(model, &CriticalOptions::default());
    let mut lines = vec![Line {
        kind: Kind::Heading,
        text: format!(
            "Critical path of {name}: {} kernels, {} ({} of kernel time on it)",
            analysis.path.len(),
            human(analysis.length_ns),
            human(analysis.weight_ns)
        ),
    }];
    let rows = analysis
        .path
        .iter()
        .map(|&run| {
            (
                Kind::Plain,
                vec![
                    escape::terminal(&model.function_label(run)).into_owned(),
                    escape::terminal(&model.frame(run)).into_owned(),
                    human(model.runs[run].self_time),
                ],
            )
        })
        .collect();
    lines.extend(table(
        &["function", "kernel", "self"],
        rows,
        &[false, false, true],
    ));
    lines
}
