//! The Execution tab on a recording of `corpus/befview/execution.mlir` (a
//! call, an error and the kernels it poisons) made with `bef_trace::record_file` on the `s`
//! work queue: snapshots at 80×24 and 200×60, the time cursor keys, the
//! register states at an event, and `--dump execution`.

mod common;

use std::path::Path;

use bef_trace::recording::{EventKind, Recording, ValueState};
use bef_trace::{RecordOptions, RecorderOptions, record_file};
use befview::app::events::Event;
use befview::app::keys::Action;
use befview::app::worker::Driver;
use befview::model::execution::Trace;
use befview::model::rows::ListId;
use befview::{App, Document};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

const PROGRAM: &str = "befview/execution.mlir";

/// A recording of every function of the program, its times replaced by
/// the events' order, so that screens are the same on every run.
fn recording() -> Recording {
    let options = RecordOptions {
        work_queue: "s".into(),
        recorder: RecorderOptions {
            values: true,
            ..RecorderOptions::default()
        },
        ..RecordOptions::default()
    };
    let (mut recording, _) =
        record_file(&common::corpus(PROGRAM), &options, |_| {}).expect("the program records");
    let mut order: Vec<(u64, usize, usize)> = Vec::new();
    for (t, track) in recording.threads.iter().enumerate() {
        for (i, e) in track.events.iter().enumerate() {
            order.push((e.time, t, i));
        }
    }
    order.sort_unstable();
    // The `s` queue runs on the calling thread, named after the test.
    for track in &mut recording.threads {
        track.name = "main".into();
    }
    let mut events: Vec<Vec<_>> = recording
        .threads
        .iter()
        .map(|t| t.events.to_vec())
        .collect();
    for (rank, (_, t, i)) in order.into_iter().enumerate() {
        events[t][i].time = rank as u64;
    }
    for (track, events) in recording.threads.iter_mut().zip(events) {
        track.events = events.into();
    }
    recording
}

/// The recording, its program checked, then its program path made
/// corpus-relative (the translation that ran depends on the name).
fn trace() -> Trace {
    let file = std::fs::read(common::corpus(PROGRAM)).expect("the program is readable");
    let mut trace = Trace::new(Path::new("run.beftrace"), recording());
    trace.check_program(Ok(&file));
    trace.recording.header.program_path = format!("corpus/{PROGRAM}");
    trace
}

fn screen(app: &mut App<'_, '_>, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw(frame, app))
        .expect("draw");
    terminal.backend().to_string()
}

/// The index of the first event that sets a register to an error.
fn first_error_step(trace: &Trace) -> usize {
    trace
        .steps
        .iter()
        .position(|s| {
            matches!(
                s.event.kind,
                EventKind::RegisterSet {
                    state: ValueState::Error,
                    ..
                }
            )
        })
        .expect("the program publishes an error")
}

#[test]
fn snapshots_at_the_first_error() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    doc.analysis();
    for (width, height) in [(80, 24), (200, 60)] {
        let trace = trace();
        let at = first_error_step(&trace);
        let mut app = App::with_trace(&doc, trace);
        screen(&mut app, width, height);
        for _ in 0..at {
            app.act(Action::StepForward);
        }
        app.act(Action::Right);
        let text = screen(&mut app, width, height);
        insta::assert_snapshot!(format!("execution_{width}x{height}"), text);
    }
}

#[test]
fn the_program_matches_the_recording() {
    assert_eq!(trace().program_note, None);
    let mut changed = trace();
    changed.recording.header.program_path = common::corpus(PROGRAM).display().to_string();
    changed.check_program(Ok(b"other bytes"));
    assert!(changed.program_note.unwrap().contains("has changed"));
    let mut missing = trace();
    missing.recording.header.program_path = common::corpus(PROGRAM).display().to_string();
    let refused = bef::tool_io::named_files::read(
        std::path::Path::new("/etc/passwd"),
        bef::tool_io::named_files::NamedFileKind::Program,
    )
    .expect_err("not a program file");
    missing.check_program(Err(&refused));
    let note = missing.program_note.unwrap();
    assert!(
        note.starts_with("program not read: /etc/passwd: not a .mlir, .mlirbc, .bef file"),
        "{note}"
    );
}

#[test]
fn the_time_cursor_steps_and_registers_follow() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let trace = trace();
    let at = first_error_step(&trace);
    let error_execution = trace.steps[at].event.execution;
    let mut app = App::with_trace(&doc, trace);
    screen(&mut app, 80, 24);
    assert_eq!(app.time_cursor(), 0);
    app.act(Action::StepBack);
    assert_eq!(app.time_cursor(), 0, "no event before the first");
    for _ in 0..at {
        app.act(Action::StepForward);
    }
    assert_eq!(app.time_cursor(), at);
    assert_eq!(app.selected_execution(), Some(error_execution));
    let trace = app.execution.trace.as_ref().expect("a trace");
    let registers = trace.registers_at(at, error_execution);
    let changed: Vec<_> = registers.iter().filter(|r| r.changed).collect();
    assert_eq!(changed.len(), 1, "one register changed by the step");
    assert_eq!(changed[0].state, Some(ValueState::Error));
    assert!(
        changed[0].value.as_deref().is_some_and(|m| !m.is_empty()),
        "{:?}",
        changed[0].value
    );
    // One step back, the register was not yet an error.
    let before = trace.registers_at(at - 1, error_execution);
    assert_ne!(
        before[changed[0].register as usize].state,
        Some(ValueState::Error)
    );
    assert!(trace.first_error.is_some());
    // @main runs once: from the failing kernel's start, `}` and `{` have
    // no other execution to go to, and say so.
    let kernel = trace.steps[at].kernel();
    let start = trace
        .steps
        .iter()
        .position(|s| {
            s.event.execution == error_execution
                && matches!(s.event.kind, EventKind::KernelStart { kernel: k } if Some(k) == kernel)
        })
        .expect("the failing kernel starts");
    let at = start;
    app.cursor_mut(ListId::Events).selected = at;
    app.act(Action::KernelForward);
    assert_eq!(app.time_cursor(), at);
    assert_eq!(
        app.message.as_deref(),
        Some("no later execution of this function reaches this kernel")
    );
    app.act(Action::KernelBack);
    assert_eq!(app.time_cursor(), at);
    // The status line names the path.
    app.act(Action::Right);
    assert!(
        app.execution_path().starts_with("execution › @main"),
        "{}",
        app.execution_path()
    );
    assert!(app.execution_path().contains("› register %"));
    assert!(befview::model::rows::len(&app.rows(), ListId::ExecRegisters) > 0);
}

#[test]
fn a_kernel_not_started_waits_for_its_inputs() {
    let trace = trace();
    // At the first event nothing has run: a kernel reading a register
    // waits for it, named with its producer.
    let main = trace.steps[0].event.execution;
    let f = trace.function_of(main).expect("main's function");
    let function = &trace.recording.functions[f as usize];
    let (register, reader) = function
        .registers
        .iter()
        .enumerate()
        .find_map(|(r, info)| Some((r as u32, *info.users.first()?)))
        .expect("a register that is read");
    let waiting = trace.waiting_for(0, main, reader);
    assert!(waiting.iter().any(|(r, _)| *r == register), "{waiting:?}");
    let last = trace.steps.len() - 1;
    assert!(trace.waiting_for(last, main, reader).is_empty());
    // The tab lists every kernel still waiting at the cursor.
    assert!(
        trace
            .pending(0, main)
            .iter()
            .any(|(k, inputs)| *k == reader && inputs.iter().any(|(r, _)| *r == register))
    );
    assert!(trace.pending(last, main).is_empty());
}

#[test]
fn dump_execution_prints_every_event() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let trace = trace();
    let events = trace.steps.len();
    let mut app = App::with_trace(&doc, trace);
    let mut out = Vec::new();
    befview::dump::dump(&mut out, &mut app, "execution").expect("dump");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(text.contains("first error: "), "{text}");
    assert!(text.contains("poisoned by an error"), "{text}");
    assert!(text.contains(&format!("[{}] ", events - 1)));
    assert!(!text.contains(&format!("[{events}] ")));
}

/// Opens the Functions tab with `@name` selected.
fn select_function(app: &mut App<'_, '_>, doc: &Document<'_>, name: &str) {
    app.act(Action::Tab(2));
    screen(app, 80, 24);
    let row = app
        .functions
        .order
        .iter()
        .position(|&f| doc.listing.index_entry(f).is_some_and(|e| e.name == name))
        .unwrap_or_else(|| panic!("@{name} is listed"));
    app.cursor_mut(ListId::Functions).selected = row;
}

#[test]
fn r_runs_a_function_and_shows_its_recording() {
    let loaded = befview::Loaded::open(&common::corpus(PROGRAM)).expect("the program opens");
    let doc = Document::new(&loaded).expect("a BEF listing");
    let mut app = App::new(&doc);
    let mut driver = Driver::new(&doc);
    select_function(&mut app, &doc, "fails");
    // The run records on a thread of its own; the view stays where it is
    // until its result is picked up.
    app.act(Action::Run);
    assert!(app.running());
    assert_eq!(app.tab, befview::Tab::Functions);
    driver.settle(&mut app);
    assert!(!app.running());
    assert_eq!(app.tab, befview::Tab::Execution, "{:?}", app.message);
    let trace = app.execution.trace.as_ref().expect("a recording");
    assert_eq!(trace.program_note, None);
    assert!(trace.first_error.is_some(), "@fails fails");
    assert_eq!(
        trace.function_name(trace.steps[0].event.execution),
        "@fails"
    );
    // A function with arguments asks for them, as JSON.
    select_function(&mut app, &doc, "add");
    app.act(Action::Run);
    assert!(!app.running());
    assert_eq!(app.tab, befview::Tab::Functions);
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("takes arguments")),
        "{:?}",
        app.message
    );
    let key = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    // Arguments that do not fit: the run fails with the typed call's
    // message.
    for c in "[2]".chars() {
        app.on_key(key(c));
    }
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    driver.settle(&mut app);
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("mismatched call arity")),
        "{:?}",
        app.message
    );
    select_function(&mut app, &doc, "add");
    app.act(Action::Run);
    for c in "[2, 40]".chars() {
        app.on_key(key(c));
    }
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert!(app.running());
    driver.settle(&mut app);
    assert_eq!(app.tab, befview::Tab::Execution, "{:?}", app.message);
    let trace = app.execution.trace.as_ref().expect("a recording");
    assert_eq!(trace.first_error, None);
    assert_eq!(trace.function_name(trace.steps[0].event.execution), "@add");
}

#[test]
fn r_again_cancels_a_run_that_does_not_end() {
    let loaded =
        befview::Loaded::open(&common::corpus("trace/endless.mlir")).expect("the program opens");
    let doc = Document::new(&loaded).expect("a BEF listing");
    let mut app = App::new(&doc);
    let mut driver = Driver::new(&doc);
    select_function(&mut app, &doc, "endless");
    app.act(Action::Run);
    driver.flush(&mut app);
    std::thread::sleep(std::time::Duration::from_millis(200));
    // Two billion iterations do not end by themselves; ticks show how long
    // it has run.
    driver.send(&mut app, Event::Tick(std::time::Instant::now()));
    driver.send(
        &mut app,
        Event::Tick(std::time::Instant::now() + std::time::Duration::from_secs(2)),
    );
    assert!(app.running());
    assert!(
        app.message.as_deref().is_some_and(|m| m.contains("… 2 s")),
        "{:?}",
        app.message
    );
    app.act(Action::Run);
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.starts_with("cancelling @endless")),
        "{:?}",
        app.message
    );
    driver.settle(&mut app);
    assert_eq!(app.tab, befview::Tab::Execution, "{:?}", app.message);
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.starts_with("cancelled @endless")),
        "{:?}",
        app.message
    );
}

/// `}` on a loop body's kernel goes to the same kernel in the next
/// iteration, and on its publication of a register to the same register's,
/// so that a loop counter can be followed; `{` comes back.
#[test]
fn braces_follow_a_loop_counter_across_iterations() {
    let options = RecordOptions {
        work_queue: "s".into(),
        recorder: RecorderOptions {
            values: true,
            ..RecorderOptions::default()
        },
        ..RecordOptions::default()
    };
    let (recording, _) = record_file(&common::corpus("befview/loop.mlir"), &options, |_| {})
        .expect("the program records");
    let loaded = common::open("befview/loop.mlir");
    let doc = Document::new(&loaded).expect("a BEF listing");
    let trace = Trace::new(Path::new("loop.beftrace"), recording);
    // The body's add publishes the counter: its first publication.
    let first = trace
        .steps
        .iter()
        .position(|s| {
            matches!(&s.event.kind, EventKind::RegisterSet { value: Some(v), .. } if v == "1")
                && trace.kernel_name(s.event.execution, s.kernel().unwrap_or(0)) == "tfrt.add.i32"
        })
        .expect("the first iteration publishes 1");
    let mut app = App::with_trace(&doc, trace);
    app.cursor_mut(ListId::Events).selected = first;
    let mut seen = Vec::new();
    let mut labels = Vec::new();
    loop {
        let trace = app.execution.trace.as_ref().expect("a trace");
        let step = &trace.steps[app.time_cursor()];
        let EventKind::RegisterSet { value, .. } = &step.event.kind else {
            panic!("not a publication: {:?}", step.event.kind);
        };
        seen.push(value.clone().unwrap_or_default());
        labels.push(trace.execution_label(step.event.execution));
        let before = app.time_cursor();
        app.act(Action::KernelForward);
        if app.time_cursor() == before {
            break;
        }
    }
    assert_eq!(seen, ["1", "2", "3", "4"], "executions {labels:?}");
    let mut sorted = labels.clone();
    sorted.sort_by_key(|l| l.trim_start_matches('#').parse::<usize>().unwrap_or(0));
    assert_eq!(labels, sorted, "in the tab's execution order");
    for _ in 0..3 {
        app.act(Action::KernelBack);
    }
    assert_eq!(app.time_cursor(), first);
}

/// Work a kernel reports (recorded under execution 0) is shown with that
/// kernel, the innermost open on its thread, as the model attributes it:
/// no event names an execution that does not exist.
#[test]
fn work_is_shown_with_the_kernel_that_reported_it() {
    const WORK: &str = "trace/tensor_work.mlir";
    let options = RecordOptions {
        work_queue: "s".into(),
        ..RecordOptions::default()
    };
    let (recording, _) =
        record_file(&common::corpus(WORK), &options, |_| {}).expect("the program records");
    let model = bef_trace::Model::new(recording.clone());
    let executions: Vec<u64> = model.executions.iter().map(|e| e.id).collect();
    let work: Vec<(&str, u64, u64)> = model
        .work_events
        .iter()
        .map(|w| {
            let Some(EventKind::KernelWork { flops, bytes }) = recording.threads[w.thread]
                .events
                .get(w.event)
                .map(|e| e.kind)
            else {
                panic!("not a work event");
            };
            (model.kernel_name(w.run), flops, bytes)
        })
        .collect();
    assert_eq!(
        work,
        [
            ("tfrt_test.matmul.f32.2", 24, 64),
            ("tfrt_test.add.f32", 0, 72),
            ("tfrt_test.relu_inplace.f32", 0, 48),
        ]
    );
    let matmul = (0..model.runs.len())
        .find(|&run| model.kernel_name(run) == "tfrt_test.matmul.f32.2")
        .expect("the product ran");
    let reported = model.work_of(matmul).expect("the product reports its work");
    assert_eq!((reported.flops, reported.bytes), (24, 64));

    let loaded = common::open(WORK);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let trace = Trace::new(Path::new("work.beftrace"), recording);
    for step in &trace.steps {
        assert!(
            executions.contains(&step.event.execution),
            "{step:?} names no execution of the recording"
        );
    }
    let at_work: Vec<String> = trace
        .steps
        .iter()
        .filter(|s| matches!(s.event.kind, EventKind::KernelWork { .. }))
        .map(|s| {
            trace
                .kernel_name(s.event.execution, s.kernel().expect("its kernel"))
                .to_owned()
        })
        .collect();
    assert_eq!(
        at_work,
        [
            "tfrt_test.matmul.f32.2",
            "tfrt_test.add.f32",
            "tfrt_test.relu_inplace.f32"
        ]
    );
    let mut app = App::with_trace(&doc, trace);
    let mut out = Vec::new();
    befview::dump::dump(&mut out, &mut app, "execution").expect("dump");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(!text.contains("#?") && !text.contains("#2"), "{text}");
    assert!(!text.contains(" ? "), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("work: 24 operations, 64 bytes"))
        .expect("the product's work is listed");
    assert!(
        line.contains("#1 @tensor_work  k9 tfrt_test.matmul.f32.2"),
        "{line}"
    );
}
