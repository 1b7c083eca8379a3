//! The Execution tab: a time cursor over the events of a recording (the
//! events list), the registers of the execution at the cursor with their
//! states, and the kernel at the cursor: its times, what it still waits
//! for, and how the first error touches it.

use bef_trace::model::ErrorMark;

use super::{ListId, State};
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::execution::{Trace, Update};

/// The number of rows.
pub fn len(app: &State<'_, '_>, id: ListId) -> usize {
    let Some(trace) = app.trace.as_ref() else {
        return 0;
    };
    match id {
        ListId::Events => trace.steps.len(),
        _ => app
            .selected_execution()
            .map_or(0, |e| trace.registers_at(app.time_cursor(), e).len()),
    }
}

/// The cells of a row.
pub fn cells(app: &State<'_, '_>, id: ListId, row: usize) -> Vec<String> {
    let Some(trace) = app.trace.as_ref() else {
        return Vec::new();
    };
    if id == ListId::Events {
        let Some(step) = trace.steps.get(row) else {
            return Vec::new();
        };
        let execution = step.event.execution;
        let kernel = step.kernel().map_or_else(String::new, |k| {
            format!("k{k} {}", trace.kernel_name(execution, k))
        });
        return vec![
            crate::model::durations::time(step.event.time),
            trace.thread_name(step.thread).to_owned(),
            format!(
                "{} {}",
                trace.execution_label(execution),
                trace.function_name(execution)
            ),
            kernel,
            trace.what(row),
        ];
    }
    let Some(execution) = app.selected_execution() else {
        return Vec::new();
    };
    let registers = trace.registers_at(app.time_cursor(), execution);
    let Some(r) = registers.get(row) else {
        return Vec::new();
    };
    let producer = r.producer.map_or_else(String::new, |k| {
        format!("{k} {}", trace.kernel_name(execution, k))
    });
    let value = match (&r.value, r.state) {
        (Some(v), _) => match r.updated {
            Some(update) => format!("{v} ({})", update_note(trace, execution, update)),
            None => v.text.clone(),
        },
        (None, Some(bef_trace::recording::ValueState::Concrete))
            if !trace.recording.header.values =>
        {
            "(recorded without --values)".to_owned()
        }
        _ => String::new(),
    };
    vec![
        format!("%{}", r.register),
        r.state_name().to_owned(),
        value,
        producer,
    ]
}

/// Where a register's value comes from when a kernel wrote it in place:
/// `updated in place by k9 tfrt_test.relu_inplace.f32 at 1,234 ns`.
pub fn update_note(trace: &Trace, execution: u64, update: Update) -> String {
    format!(
        "updated in place by k{} {} at {} ns",
        update.kernel,
        trace.kernel_name(execution, update.kernel),
        crate::model::durations::time(update.time)
    )
}

/// Whether row `row` of list `id` is marked by the first error.
pub fn marked(app: &State<'_, '_>, id: ListId, row: usize) -> bool {
    let Some(trace) = app.trace.as_ref() else {
        return false;
    };
    match id {
        ListId::Events => trace.step_mark(row).is_some(),
        _ => app.selected_execution().is_some_and(|e| {
            trace
                .registers_at(app.time_cursor(), e)
                .get(row)
                .is_some_and(|r| r.state == Some(bef_trace::recording::ValueState::Error))
        }),
    }
}

/// The lines describing the kernel at the cursor, control characters
/// escaped.
pub fn kernel_lines(app: &State<'_, '_>) -> Vec<String> {
    raw_kernel_lines(app)
        .iter()
        .map(|l| bef::tool_io::escape::terminal(l).into_owned())
        .collect()
}

fn raw_kernel_lines(app: &State<'_, '_>) -> Vec<String> {
    let Some(trace) = app.trace.as_ref() else {
        return vec![
            format!(
                "No recording. Open one with `befview RECORDING`, or press {} on a function",
                keys::label(Action::Run, Some(Tab::Functions))
            ),
            "without arguments in the Functions tab to run and record it.".to_owned(),
        ];
    };
    // The first error, then the kernel at the cursor: in a short pane
    // those matter more than what the recording is, which the header says.
    let mut lines = error_lines(trace);
    lines.extend(cursor_lines(app, trace));
    lines.extend(recording_lines(trace));
    lines
}

/// The first error, if there is one.
fn error_lines(trace: &crate::model::execution::Trace) -> Vec<String> {
    let Some((execution, kernel, message)) = &trace.first_error else {
        return Vec::new();
    };
    vec![format!(
        "first error: {} {} kernel {kernel} {}: {}",
        trace.execution_label(*execution),
        trace.function_name(*execution),
        trace.kernel_name(*execution, *kernel),
        message.as_deref().unwrap_or("(no message recorded)")
    )]
}

/// What the recording is, and "no error" when it has none.
fn recording_lines(trace: &crate::model::execution::Trace) -> Vec<String> {
    let mut lines = Vec::new();
    let header = &trace.recording.header;
    lines.push(format!(
        "recording of {} (work queue {}, {} events{})",
        header.program_path,
        header.work_queue,
        trace.steps.len(),
        if trace.recording.dropped() > 0 {
            format!(", {} dropped", trace.recording.dropped())
        } else {
            String::new()
        }
    ));
    if header.stop != bef_trace::recording::StopReason::Unknown || header.partial {
        lines.push(format!(
            "stopped: {}{}",
            header.stop,
            if header.partial { " (partial)" } else { "" }
        ));
    }
    if let Some(note) = &trace.program_note {
        lines.push(format!("! {note}"));
    }
    if trace.first_error.is_none() {
        lines.push("no error".to_owned());
    }
    lines
}

/// The kernel or execution at the time cursor: times, durations, marks and
/// what it waits for.
fn cursor_lines(app: &State<'_, '_>, trace: &crate::model::execution::Trace) -> Vec<String> {
    let mut lines = Vec::new();
    let cursor = app.time_cursor();
    let Some(step) = trace.steps.get(cursor) else {
        return lines;
    };
    let execution = step.event.execution;
    let pending = trace.pending(cursor, execution);
    let waiting_lines: Vec<String> = pending
        .iter()
        .map(|(k, inputs)| {
            let list: Vec<String> = inputs
                .iter()
                .map(|(r, p)| match p {
                    Some(p) => format!("%{r} (kernel {p})"),
                    None => format!("%{r}"),
                })
                .collect();
            format!(
                "  kernel {k} {} waits for {}",
                trace.kernel_name(execution, *k),
                list.join(", ")
            )
        })
        .collect();
    let Some(kernel) = step.kernel() else {
        lines.push(format!(
            "{} {}: {}",
            trace.execution_label(execution),
            trace.function_name(execution),
            trace.what(cursor)
        ));
        if !waiting_lines.is_empty() {
            lines.push("not started, waiting:".to_owned());
            lines.extend(waiting_lines);
        }
        return lines;
    };
    lines.push(format!(
        "kernel {kernel} {} of {} {}",
        trace.kernel_name(execution, kernel),
        trace.execution_label(execution),
        trace.function_name(execution)
    ));
    let t = trace.kernel_times(execution, kernel);
    let show = |t: Option<u64>| t.map_or_else(|| "-".to_owned(), crate::model::durations::time);
    lines.push(format!(
        "ready {}  start {}  end {} ns  thread {}{}",
        show(t.ready),
        show(t.start),
        show(t.end),
        t.thread.map_or("-", |th| trace.thread_name(th)),
        if t.skipped { "  (skipped)" } else { "" }
    ));
    let span = |from, to| {
        crate::model::durations::between(from, to)
            .map_or_else(|| "-".to_owned(), crate::model::durations::duration)
    };
    lines.push(format!(
        "queue wait {}  run time {}",
        span(t.ready, t.start),
        span(t.start, t.end)
    ));
    match trace.mark(execution, kernel) {
        Some(ErrorMark::Origin) => lines.push("! an error began here".to_owned()),
        Some(ErrorMark::Poisoned) => lines.push("! poisoned by an error".to_owned()),
        None => {}
    }
    if !trace.started_by(cursor, execution, kernel) {
        let waiting = trace.waiting_for(cursor, execution, kernel);
        if waiting.is_empty() {
            lines.push("not started; waits for no register".to_owned());
        } else {
            let list: Vec<String> = waiting
                .iter()
                .map(|(r, p)| match p {
                    Some(p) => format!("%{r} from kernel {p} {}", trace.kernel_name(execution, *p)),
                    None => format!("%{r}"),
                })
                .collect();
            lines.push(format!("not started; waits for {}", list.join(", ")));
        }
    }
    if !waiting_lines.is_empty() {
        lines.push(format!(
            "not started, waiting ({}):",
            trace.execution_label(execution)
        ));
        lines.extend(waiting_lines);
    }
    lines
}
