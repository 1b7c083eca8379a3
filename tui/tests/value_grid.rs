//! A register's value recorded in full (`bef-trace record --values=full`)
//! opened from the Execution tab: Enter shows the digits model's scores
//! as the Tensors view shows a tensor (a 360 × 10 grid, heat map or
//! numbers), and a value over the per-value bound says it was recorded
//! short.

mod common;

use std::path::Path;

use bef_trace::capture::recorder::FullValues;
use bef_trace::recording::{EventKind, Recording};
use bef_trace::{RecordOptions, RecorderOptions, record_file};
use befview::app::keys::Action;
use befview::model::execution::Trace;
use befview::model::rows::ListId;
use befview::{App, Document};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

const PROGRAM: &str = "models/digits/digits.mlir";

fn recording(full: FullValues) -> Recording {
    // The program names its weights relative to the repository's root.
    std::env::set_current_dir(bef_test_support::corpus::repo_root()).expect("the root exists");
    let options = RecordOptions {
        functions: vec!["digits".into()],
        recorder: RecorderOptions {
            values: true,
            full_values: Some(full),
            ..RecorderOptions::default()
        },
        ..RecordOptions::default()
    };
    record_file(&common::corpus(PROGRAM), &options, |_| {})
        .expect("the digits model records")
        .0
}

fn screen(app: &mut App<'_, '_>, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw(frame, app))
        .expect("draw");
    terminal.backend().to_string()
}

/// Puts the time cursor on the last event of `@forward` and the register
/// cursor on the register whose value reads `starts`, then presses Enter.
fn open(app: &mut App<'_, '_>, starts: &str) {
    let trace = app.execution.trace.clone().expect("a trace");
    let forward = trace
        .steps
        .iter()
        .find_map(|s| match s.event.kind {
            EventKind::FunctionBegin { function, .. }
                if trace.recording.function_name(function) == "forward" =>
            {
                Some(s.event.execution)
            }
            _ => None,
        })
        .expect("@forward runs");
    let last = trace
        .steps
        .iter()
        .rposition(|s| s.event.execution == forward)
        .expect("its events");
    app.cursor_mut(ListId::Events).selected = last;
    app.act(Action::Right);
    let row = trace
        .registers_at(last, forward)
        .iter()
        .position(|r| r.value.as_deref().is_some_and(|v| v.starts_with(starts)))
        .unwrap_or_else(|| panic!("no register of @forward holds {starts}"));
    app.cursor_mut(ListId::ExecRegisters).selected = row;
    app.act(Action::Enter);
}

#[test]
fn enter_on_a_register_recorded_in_full_shows_its_grid() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let trace = Trace::new(
        Path::new("digits.beftrace"),
        recording(FullValues::default()),
    );
    let mut app = App::with_trace(&doc, trace);
    screen(&mut app, 100, 30);
    open(&mut app, "f32[360,10]");
    let grid = &app.value_grid.as_ref().expect("the grid opened").full.grid;
    assert_eq!((grid.rows, grid.columns), (360, 10));
    // Ten columns start as a heat map; z (the Tensors view's key, not
    // the tab's) shows the numbers.
    assert!(!app.value_grid.as_ref().unwrap().full.numbers);
    app.on_key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::NONE));
    assert!(app.value_grid.as_ref().unwrap().full.numbers);
    insta::assert_snapshot!("value_grid_numbers_100x30", screen(&mut app, 100, 30));
    app.act(Action::PageDown);
    app.act(Action::Right);
    insta::assert_snapshot!("value_grid_paged_100x30", screen(&mut app, 100, 30));
    app.act(Action::Back);
    assert!(app.value_grid.is_none(), "Esc closes the grid");
}

#[test]
fn a_value_recorded_short_says_why() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let full = FullValues {
        value_elements: 1000,
        ..FullValues::default()
    };
    let trace = Trace::new(Path::new("digits.beftrace"), recording(full));
    let mut app = App::with_trace(&doc, trace);
    screen(&mut app, 100, 30);
    open(&mut app, "f32[360,64]");
    assert!(app.value_grid.is_none());
    let shown = app.value_of.as_ref().expect("the value's text");
    assert!(
        shown
            .text
            .contains("recorded short: 23040 elements, over the bound of 1000"),
        "{}",
        shown.text
    );
    assert!(screen(&mut app, 100, 30).contains("recorded short"));
}

#[test]
fn dump_values_prints_every_element_of_each_version() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let recording = recording(FullValues::default());
    let trace = Trace::new(Path::new("digits.beftrace"), recording);
    let mut app = App::with_trace(&doc, trace);
    let mut out = Vec::new();
    befview::dump::dump(&mut out, &mut app, "values").expect("written");
    let text = String::from_utf8(out).expect("UTF-8");
    // The scores as the second product left them: a title, then 360 rows
    // of their label and 10 numbers.
    let at = text
        .find("updated in place by kernel 15 tfrt_test.matmul.f32.2 · f32 [360, 10]")
        .expect("the scores' version");
    let rows: Vec<&str> = text[at..]
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), 360);
    for (i, row) in rows.iter().enumerate() {
        let mut fields = row.split(' ');
        assert_eq!(fields.next(), Some(format!("[{i},").as_str()), "{row}");
        let numbers: Vec<f32> = fields
            .skip(1)
            .map(|x| x.parse().unwrap_or_else(|_| panic!("{x} in {row}")))
            .collect();
        assert_eq!(numbers.len(), 10, "{row}");
    }
}
