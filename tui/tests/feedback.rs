//! What the screen tells after a key: Enter frames a whole item in hex and
//! Esc goes back to its row; the column cursor shows hidden columns and
//! the selected cell whole in the status line; `u` lists every user; `m`
//! reports the mark; `?` lists the hex colours; the kernel pane gives
//! durations.

mod common;

use befview::app::Pane;
use befview::app::events::Effect;
use befview::app::keys::Action;
use befview::model::rows::{self, ListId};
use befview::{App, Document, Tab};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

fn screen(app: &mut App<'_, '_>, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw(frame, app))
        .expect("draw");
    terminal.backend().to_string()
}

/// The status line (the last but one) of a screen.
fn status(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len() - 2]
        .trim_matches('"')
        .trim_end()
        .to_owned()
}

/// Opens @main of the test program on the Functions tab, its kernels
/// focused, and selects the kernel whose bytes are the most.
fn widest_kernel(app: &mut App<'_, '_>) -> usize {
    app.act(Action::Tab(Tab::Functions.index()));
    let main = app
        .functions
        .order
        .iter()
        .position(|&f| {
            app.doc
                .listing
                .index_entry(f)
                .is_some_and(|e| e.name == "main")
        })
        .expect("@main");
    app.cursor_mut(ListId::Functions).selected = main;
    app.act(Action::Enter);
    let state = app.rows();
    let row = (0..rows::len(&state, ListId::Kernels))
        .max_by_key(|&r| rows::range(&state, ListId::Kernels, r).map_or(0, |b| b.len()))
        .expect("kernels");
    app.cursor_mut(ListId::Kernels).selected = row;
    row
}

#[test]
fn enter_frames_the_whole_item_and_esc_comes_back() {
    let loaded = common::open("befview/inspect.mlir");
    let doc = Document::new(&loaded).expect("a BEF listing");
    doc.analysis();
    let mut app = App::new(&doc);
    let row = widest_kernel(&mut app);
    screen(&mut app, 80, 24);
    let bytes = rows::range(&app.rows(), ListId::Kernels, row).expect("bytes");
    assert!(bytes.len() > 32, "an item over several hex lines");
    // From the top of the file: the item is further down, and following
    // only the cursor would leave it on the last line shown.
    app.hex.scroll = 0;
    assert!(bytes.start / befview::model::inspector::WIDTH > 24);
    app.act(Action::Enter);
    assert_eq!(app.tab, Tab::Hex);
    screen(&mut app, 80, 24);
    let width = befview::model::inspector::WIDTH;
    let visible = app.hex.scroll..app.hex.scroll + app.areas.hex.height as usize;
    let (first, last) = (bytes.start / width, (bytes.end - 1) / width);
    assert!(
        visible.contains(&first) && visible.contains(&last),
        "lines {first}..={last} of the item, {visible:?} shown"
    );
    app.act(Action::Back);
    assert_eq!((app.tab, app.pane), (Tab::Functions, Pane::First));
    assert_eq!(app.cursor(ListId::Kernels).selected, row);
    assert_eq!(app.hex.frame, None);
}

#[test]
fn the_column_cursor_shows_hidden_columns_and_the_whole_cell() {
    let loaded = common::open("befview/inspect.mlir");
    let doc = Document::new(&loaded).expect("a BEF listing");
    doc.analysis();
    let mut app = App::new(&doc);
    widest_kernel(&mut app);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains("columns: < >"), "{text}");
    assert!(!text.contains(" stream "), "{text}");
    // From the kernel name rightwards to the stream column, hidden at 80.
    for _ in 0..6 {
        app.act(Action::ColumnRight);
    }
    let text = screen(&mut app, 80, 24);
    assert!(text.contains(" stream "), "{text}");
    assert!(status(&text).contains("stream: "), "{}", status(&text));
    // The attributes cell, whole in the status line.
    for _ in 0..3 {
        app.act(Action::ColumnLeft);
    }
    let row = app.cursor(ListId::Kernels).selected;
    let full = rows::cells(&app.rows(), ListId::Kernels, row)[4].clone();
    let text = screen(&mut app, 80, 24);
    assert!(
        status(&text).contains(&format!("attributes: {full}")) || full.is_empty(),
        "{}",
        status(&text)
    );
    app.act(Action::Copy);
    match app.take_effects().pop() {
        Some(Effect::Copy(text)) => assert_eq!(text, full),
        _ => panic!("y asks for a copy"),
    }
}

#[test]
fn u_lists_every_user_of_a_string() {
    let loaded = common::open("befview/inspect.mlir");
    let doc = Document::new(&loaded).expect("a BEF listing");
    doc.analysis();
    let mut app = App::new(&doc);
    app.act(Action::Tab(Tab::Tables.index()));
    let strings = doc.listing.strings();
    let value = (0..strings.len())
        .find(|&i| strings.get(i).is_some_and(|s| s.text() == "value"))
        .expect("the attribute name \"value\"");
    app.cursor_mut(ListId::Strings).selected = value;
    let users = app.users_list(ListId::Strings, value).len();
    assert!(users >= 4, "each constant names its value: {users}");
    app.act(Action::Users);
    let text = screen(&mut app, 80, 24);
    assert!(text.contains(&format!("{users} users of")), "{text}");
    let named = text.matches("attribute name").count();
    assert_eq!(named, users, "{text}");
    // The wheel scrolls the list of users, not the table behind it, and
    // a click does not reach the table either.
    let wheel = |kind| MouseEvent {
        kind,
        column: 10,
        row: 10,
        modifiers: KeyModifiers::NONE,
    };
    app.on_mouse(wheel(MouseEventKind::ScrollDown));
    let scrolled = app.users_of.map(|(_, _, scroll)| scroll);
    assert_eq!(scrolled, Some(3.min(users - 1)));
    app.on_mouse(wheel(MouseEventKind::Down(MouseButton::Left)));
    assert_eq!(app.cursor(ListId::Strings).selected, value);
    app.act(Action::Back);
    assert_eq!(app.users_of, None);
}

#[test]
fn marks_are_reported_and_help_lists_the_hex_colours() {
    let loaded = common::open("befview/inspect.mlir");
    let doc = Document::new(&loaded).expect("a BEF listing");
    let mut app = App::new(&doc);
    app.act(Action::Tab(Tab::Hex.index()));
    app.hex.cursor = 0x10;
    app.act(Action::Bookmark);
    assert_eq!(
        app.message.as_deref(),
        Some("mark set at 0x10 (1 marks; ' goes to the next)")
    );
    app.act(Action::Bookmark);
    assert_eq!(
        app.message.as_deref(),
        Some("mark at 0x10 removed (0 marks left)")
    );
    let lines: Vec<String> = befview::ui::help::lines()
        .into_iter()
        .map(|line| line.text)
        .collect();
    assert!(lines.iter().any(|l| l == "Hex colours:"));
    assert!(lines.iter().any(|l| l.starts_with("magic number")));
    assert!(lines.iter().any(|l| l.starts_with("Strings section")));
}

#[test]
fn the_kernel_pane_gives_queue_wait_and_run_time() {
    use befview::model::execution::Trace;
    use std::path::Path;
    let options = bef_trace::RecordOptions {
        work_queue: "s".into(),
        ..bef_trace::RecordOptions::default()
    };
    let (recording, _) =
        bef_trace::record_file(&common::corpus("befview/loop.mlir"), &options, |_| {})
            .expect("the program records");
    let loaded = common::open("befview/loop.mlir");
    let doc = Document::new(&loaded).expect("a BEF listing");
    let trace = Trace::new(Path::new("loop.beftrace"), recording);
    let end = trace
        .steps
        .iter()
        .position(|s| {
            matches!(
                s.event.kind,
                bef_trace::recording::EventKind::KernelEnd { .. }
            )
        })
        .expect("a kernel ends");
    let mut app = App::with_trace(&doc, trace);
    app.cursor_mut(ListId::Events).selected = end;
    let lines = rows::execution::kernel_lines(&app.rows());
    let times = lines
        .iter()
        .find(|l| l.starts_with("queue wait "))
        .expect("a durations line");
    assert!(times.contains(" run time "), "{times}");
    assert!(
        !times.contains("run time -"),
        "an ended kernel has a run time: {times}"
    );
}

/// The test program's recording on the Execution tab.
fn execution_app_trace() -> befview::model::execution::Trace {
    let (recording, _) = bef_trace::record_file(
        &common::corpus("befview/execution.mlir"),
        &bef_trace::RecordOptions {
            work_queue: "s".into(),
            recorder: bef_trace::RecorderOptions {
                values: true,
                ..bef_trace::RecorderOptions::default()
            },
            ..bef_trace::RecordOptions::default()
        },
        |_| {},
    )
    .expect("the program records");
    // The `s` queue runs on the calling thread, named after the test.
    let mut recording = recording;
    for track in &mut recording.threads {
        track.name = "bef-worker-0".into();
    }
    // The recorded times grow with the machine's load, and so would the
    // time column; 1 µs per event, in the recorded order, keeps the
    // screen the same on every run (a run under a millisecond).
    let mut order: Vec<(u64, usize, usize)> = recording
        .threads
        .iter()
        .enumerate()
        .flat_map(|(t, track)| {
            track
                .events
                .iter()
                .enumerate()
                .map(move |(i, e)| (e.time, t, i))
        })
        .collect();
    order.sort_unstable();
    let mut events: Vec<Vec<_>> = recording
        .threads
        .iter()
        .map(|t| t.events.to_vec())
        .collect();
    for (rank, (_, t, i)) in order.into_iter().enumerate() {
        events[t][i].time = 1_000 * rank as u64;
    }
    for (track, events) in recording.threads.iter_mut().zip(events) {
        track.events = events.into();
    }
    befview::model::execution::Trace::new(std::path::Path::new("run.beftrace"), recording)
}

#[test]
fn kernel_names_show_at_80_columns_and_nothing_is_cut_at_160() {
    let loaded = common::open("befview/execution.mlir");
    let doc = Document::new(&loaded).expect("a BEF listing");
    let mut app = App::with_trace(&doc, execution_app_trace());
    let text = screen(&mut app, 80, 24);
    let trace = app.execution.trace.as_ref().expect("a trace");
    let shown = text.lines().skip(3).take(18);
    for (step, line) in trace.steps.iter().zip(shown) {
        if let Some(k) = step.kernel() {
            let name = format!("k{k} {}", trace.kernel_name(step.event.execution, k));
            assert!(line.contains(&name), "{name} not in {line}");
        }
    }
    let text = screen(&mut app, 160, 50);
    let events: Vec<&str> = text
        .lines()
        .skip(2)
        .take_while(|l| !l.contains('└'))
        .map(|l| l.split("││").next().unwrap_or(l))
        .collect();
    assert!(events.len() > 20);
    for line in events {
        assert!(!line.contains('…'), "cut at 160 columns: {line}");
    }
}
