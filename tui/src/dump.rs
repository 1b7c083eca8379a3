//! `--dump VIEW`: a view printed once as plain text, every row, no
//! terminal. The rows are the ones the views draw.

use std::collections::HashMap;
use std::io::{self, Write};

use bef::tool_io::escape;

use bef_trace::model::ErrorMark;
use bef_trace::recording::{EventKind, ValueState};

use crate::app::App;
use crate::model::compare::CompareView;
use crate::model::execution::{self, Trace};
use crate::model::inspector;
use crate::model::rows::{self, ListId, columns};
use crate::model::tensor_grid::Grid;
use crate::model::tensors::{COLUMNS, TensorFile};

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
        "a recording: every event, what each changed, then each execution's registers",
    ),
    (
        "kernels",
        "a recording: count, total, self, mean, max, share, off-CPU and GFLOP/s per kernel, then per function",
    ),
    (
        "values",
        "a recording made with --values=full: every tensor value recorded, each element, in event order",
    ),
    ("help", "the keys"),
];

/// The views of a BTF file (named `.btf`).
pub const BTF_VIEWS: &[(&str, &str)] = &[
    (
        "tensors",
        "every tensor with statistics, then each one's detail",
    ),
    (
        "tensor",
        "every element of tensor --index N, a line per row of its innermost dimension",
    ),
];

/// The views of two inputs (`--dump compare A B`).
pub const COMPARE_VIEWS: &[(&str, &str)] = &[(
    "compare",
    "two programs: their structural difference; two recordings: each function's and kernel's time in both and the change, then both critical paths",
)];

/// Whether `view` is a view `--dump` knows.
pub fn is_view(view: &str) -> bool {
    VIEWS
        .iter()
        .chain(BTF_VIEWS)
        .chain(COMPARE_VIEWS)
        .any(|(v, _)| *v == view)
}

/// Prints the comparison of two inputs: its title, then every line.
pub fn compare(out: &mut impl Write, view: &CompareView) -> io::Result<()> {
    writeln!(out, "== {}", view.title)?;
    for line in &view.lines {
        writeln!(out, "{}", line.text)?;
    }
    Ok(())
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

/// Lines `--dump execution` prints at most; the rest are counted and the
/// count printed with the cap.
pub const MAX_EXECUTION_LINES: u64 = 1_000_000;

/// Readers of a register named at the event that publishes it; the rest
/// are counted.
const READERS_SHOWN: usize = 4;

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A writer that passes on at most `cap` lines and counts the rest.
struct Capped<'w, W: Write> {
    out: &'w mut W,
    lines: u64,
    cap: u64,
}

impl<W: Write> Write for Capped<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() {
            let line_end = rest.iter().position(|&b| b == b'\n');
            let (line, after) = match line_end {
                Some(i) => rest.split_at(i + 1),
                None => (rest, &[][..]),
            };
            if self.lines < self.cap {
                self.out.write_all(line)?;
            }
            if line_end.is_some() {
                self.lines += 1;
            }
            rest = after;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// What one execution has done so far, as the events tell it.
#[derive(Default)]
struct ExecutionSoFar {
    /// Registers published, with their last state, value and producer.
    registers: std::collections::BTreeMap<
        u32,
        (
            ValueState,
            Option<bef_trace::capture::recording::RecordedValue>,
            u32,
        ),
    >,
    /// Registers whose value a kernel wrote in place since it was
    /// published: the last such write.
    updates: std::collections::BTreeMap<u32, execution::Update>,
    /// Kernels started and not yet ended.
    running: std::collections::BTreeSet<u32>,
    ready: u64,
    started: u64,
    ended: u64,
    /// Its last event.
    last: usize,
}

/// The Execution tab as text: the recording's summary and every event;
/// then, event by event, what it changed (the kernel that became ready,
/// started or ended, the register that got a value and who reads it);
/// then each execution as its last event leaves it, as far as the events
/// tell (the registers set, the kernels still running, counts of the
/// rest). Linear in the recording: nothing is reprinted per event, and
/// the whole is capped at [`MAX_EXECUTION_LINES`], the cap named.
fn execution(out: &mut impl Write, app: &mut App<'_, '_>) -> io::Result<()> {
    if app.execution.trace.is_none() {
        return writeln!(out, "(no recording: open a bef-trace recording)");
    }
    let mut out = Capped {
        out,
        lines: 0,
        cap: MAX_EXECUTION_LINES,
    };
    app.cursor_mut(ListId::Events).selected = 0;
    for line in rows::execution::kernel_lines(&app.rows()) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    list(&mut out, app, ListId::Events)?;
    let Some(trace) = app.execution.trace.as_deref() else {
        return Ok(());
    };
    writeln!(out, "\n== what each event changed")?;
    let (order, so_far) = event_changes(&mut out, trace, &app.rows())?;
    for execution in order {
        if let Some(now) = so_far.get(&execution) {
            execution_after(&mut out, trace, execution, now)?;
        }
    }
    let (lines, cap) = (out.lines, out.cap);
    let out = out.out;
    if lines > cap {
        writeln!(
            out,
            "… {} more lines not shown (cap {} lines)",
            thousands(lines - cap),
            thousands(cap)
        )?;
    }
    Ok(())
}

/// Every value recorded with its elements (`--values=full`), in the
/// order of the events that recorded them: a line naming the register,
/// the execution and the event, then the grid's rows; a value recorded
/// short says why.
fn values(out: &mut impl Write, app: &mut App<'_, '_>) -> io::Result<()> {
    use bef_trace::capture::recording::ValueElements;
    let Some(trace) = app.execution.trace.as_deref() else {
        return writeln!(out, "(no recording: open a bef-trace recording)");
    };
    if trace.recording.header.value_elements == 0 {
        return writeln!(
            out,
            "(recorded without --values=full: no elements to print)"
        );
    }
    let mut printed = 0u64;
    for (step, s) in trace.steps.iter().enumerate() {
        let (register, what, value) = match &s.event.kind {
            EventKind::RegisterSet {
                register,
                producer,
                value,
                ..
            }
            | EventKind::ResultAvailable {
                register,
                producer,
                value,
                ..
            } => (
                register,
                format!(
                    "set by {}",
                    kernel_label(trace, s.event.execution, *producer)
                ),
                value,
            ),
            EventKind::ValueUpdated {
                register,
                kernel,
                value,
            } => (
                register,
                format!(
                    "updated in place by {}",
                    kernel_label(trace, s.event.execution, *kernel)
                ),
                value,
            ),
            _ => continue,
        };
        let Some(elements) = value.as_ref().and_then(|v| v.elements.as_deref()) else {
            continue;
        };
        let name = format!(
            "%{register} of {} {} at event {step}, {what}",
            trace.execution_label(s.event.execution),
            trace.function_name(s.event.execution)
        );
        if printed > 0 {
            writeln!(out)?;
        }
        printed += 1;
        match elements {
            ValueElements::Dense(t) => match Grid::dense(name.clone(), t.dtype, &t.dims, &t.data) {
                Ok(grid) => grid.write_all(&t.data, out)?,
                Err(why) => writeln!(out, "{}: {why}", escape::terminal(&name))?,
            },
            other => writeln!(
                out,
                "{}: {}",
                escape::terminal(&name),
                other.left_out().unwrap_or_default()
            )?,
        }
    }
    if printed == 0 {
        writeln!(out, "(no tensor values in the recording)")?;
    }
    Ok(())
}

/// `kernel 3 name`, escaped for the terminal.
fn kernel_label(trace: &Trace, execution: u64, k: u32) -> String {
    escape::terminal(&format!("kernel {k} {}", trace.kernel_name(execution, k))).into_owned()
}

/// Prints, event by event, what it changed; returns the executions in the
/// order of their first events, with what each had done by its last.
fn event_changes(
    out: &mut impl Write,
    trace: &Trace,
    state: &rows::State<'_, '_>,
) -> io::Result<(Vec<u64>, HashMap<u64, ExecutionSoFar>)> {
    let mut order: Vec<u64> = Vec::new();
    let mut so_far: HashMap<u64, ExecutionSoFar> = HashMap::new();
    let kernel = |execution: u64, k: u32| kernel_label(trace, execution, k);
    for step in 0..trace.steps.len() {
        let cells = rows::cells(state, ListId::Events, step);
        writeln!(out, "[{step}] {}", cells.join("  ").trim_end())?;
        let event = &trace.steps[step].event;
        let execution = event.execution;
        let now = so_far.entry(execution).or_insert_with(|| {
            order.push(execution);
            ExecutionSoFar::default()
        });
        now.last = step;
        match &event.kind {
            EventKind::KernelReady { kernel: k } => {
                now.ready += 1;
                writeln!(out, "    {} is ready", kernel(execution, *k))?;
            }
            EventKind::KernelStart { kernel: k } => {
                now.started += 1;
                now.running.insert(*k);
                writeln!(out, "    {} started", kernel(execution, *k))?;
            }
            EventKind::KernelEnd { kernel: k, .. } => {
                now.ended += 1;
                now.running.remove(k);
                let mark = match trace.mark(execution, *k) {
                    Some(ErrorMark::Origin) => "; ! an error began here",
                    Some(ErrorMark::Poisoned) => "; ! poisoned by an error",
                    None => "",
                };
                writeln!(out, "    {} ended{mark}", kernel(execution, *k))?;
            }
            EventKind::RegisterSet {
                register,
                producer,
                state,
                value,
            }
            | EventKind::ResultAvailable {
                register,
                producer,
                state,
                value,
            } => {
                now.updates.remove(register);
                let before = now
                    .registers
                    .insert(*register, (*state, value.clone(), *producer))
                    .map_or("not produced", |(s, _, _)| execution::state_name(s));
                let readers = trace
                    .function_of(execution)
                    .and_then(|f| trace.recording.functions.get(f as usize))
                    .and_then(|f| f.registers.get(*register as usize))
                    .map_or(&[][..], |r| r.users.as_slice());
                let mut read_by: Vec<String> = readers
                    .iter()
                    .take(READERS_SHOWN)
                    .map(|&k| kernel(execution, k))
                    .collect();
                if readers.len() > READERS_SHOWN {
                    read_by.push(format!("{} more", readers.len() - READERS_SHOWN));
                }
                let read_by = if read_by.is_empty() {
                    "read by no kernel".to_owned()
                } else {
                    format!("read by {}", read_by.join(", "))
                };
                writeln!(
                    out,
                    "    %{register}: {before} -> {}, from {}; {read_by}",
                    execution::state_name(*state),
                    kernel(execution, *producer)
                )?;
            }
            EventKind::ValueUpdated {
                register,
                kernel: k,
                value,
            } => {
                if let Some((_, shown, _)) = now.registers.get_mut(register) {
                    shown.clone_from(value);
                }
                now.updates.insert(
                    *register,
                    execution::Update {
                        kernel: *k,
                        time: event.time,
                    },
                );
                writeln!(
                    out,
                    "    %{register} updated in place by {}",
                    kernel(execution, *k)
                )?;
            }
            EventKind::FunctionBegin { .. }
            | EventKind::FunctionEnd
            | EventKind::KernelWork { .. } => {}
        }
    }
    Ok((order, so_far))
}

/// Prints execution `execution` as its last event leaves it.
fn execution_after(
    out: &mut impl Write,
    trace: &Trace,
    execution: u64,
    now: &ExecutionSoFar,
) -> io::Result<()> {
    let kernel = |execution: u64, k: u32| kernel_label(trace, execution, k);
    let function = trace
        .function_of(execution)
        .and_then(|f| trace.recording.functions.get(f as usize));
    let kernels = function.map_or(0, |f| f.kernels.len());
    let registers = function.map_or(0, |f| f.registers.len());
    writeln!(
        out,
        "\n== {} {} after its last event [{}]",
        trace.execution_label(execution),
        escape::terminal(&trace.function_name(execution)),
        now.last
    )?;
    writeln!(
        out,
        "  kernels: {kernels} in the function; {} ready, {} started, {} ended events",
        now.ready, now.started, now.ended
    )?;
    if !now.running.is_empty() {
        let running: Vec<String> = now.running.iter().map(|&k| kernel(execution, k)).collect();
        writeln!(out, "  still running: {}", running.join(", "))?;
    }
    writeln!(
        out,
        "  registers: {} of {registers} published{}",
        now.registers.len(),
        if now.registers.len() < registers {
            " (the others not produced)"
        } else {
            ""
        }
    )?;
    let mut table = vec![
        ["reg", "state", "value / message", "producer"]
            .map(String::from)
            .to_vec(),
    ];
    for (register, (state, value, producer)) in &now.registers {
        let value = match (value, state) {
            (Some(v), _) => {
                let v = match now.updates.get(register) {
                    Some(&update) => format!(
                        "{v} ({})",
                        rows::execution::update_note(trace, execution, update)
                    ),
                    None => v.text.clone(),
                };
                escape::terminal(&v).into_owned()
            }
            (None, ValueState::Concrete) if !trace.recording.header.values => {
                "(recorded without --values)".to_owned()
            }
            _ => String::new(),
        };
        table.push(vec![
            format!("%{register}"),
            execution::state_name(*state).to_owned(),
            value,
            kernel(execution, *producer),
        ]);
    }
    if table.len() > 1 {
        let marks: Vec<bool> = table
            .iter()
            .map(|row| row[1] == execution::state_name(ValueState::Error))
            .collect();
        aligned(out, &table, &marks)?;
    }
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
                app.functions.open = Some(index);
                writeln!(out)?;
                list(out, app, ListId::Kernels)?;
                list(out, app, ListId::Registers)?;
            }
            app.functions.open = None;
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
        "values" => values(out, app),
        "kernels" => {
            if app.execution.trace.is_none() {
                return writeln!(out, "(no recording: open a bef-trace recording)");
            }
            list(out, app, ListId::KernelProfile)?;
            writeln!(out)?;
            list(out, app, ListId::FunctionProfile)
        }
        "help" => {
            for line in crate::ui::help::lines() {
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
