//! The compare view (`befview A B`): two programs of `corpus/diff/` show
//! their structural difference, two recordings of one corpus program the
//! time of every kernel in both; snapshots at two sizes, the keys, and
//! `--dump compare` checked against the comparison `bef-trace diff --json`
//! writes (`bef_trace::analysis::compare`, which it serializes).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use bef_trace::analysis::compare::compare;
use bef_trace::export::stats::human;
use bef_trace::{Model, RecordOptions, Recording, record_file};
use befview::app::compare::CompareApp;
use befview::app::keys::Action;
use befview::model::compare::{self, CompareView, Kind, signed};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn screen(app: &mut CompareApp, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw_compare(frame, app))
        .expect("draw");
    terminal.backend().to_string()
}

/// `corpus/diff/A` against `corpus/diff/B`, named corpus-relative.
fn programs(a: &str, b: &str) -> CompareView {
    let (pa, pb) = (
        common::open(&format!("diff/{a}")),
        common::open(&format!("diff/{b}")),
    );
    let (da, db) = (
        befview::Document::new(&pa).expect("opens"),
        befview::Document::new(&pb).expect("opens"),
    );
    compare::programs(&pa.path, &pb.path, &da.listing, &db.listing)
}

#[test]
fn two_programs_show_the_kernel_inserted() {
    for (width, height) in [(80, 24), (160, 40)] {
        let mut app = CompareApp::new(programs("base.mlir", "one_kernel.mlir"));
        let text = screen(&mut app, width, height);
        assert!(text.contains("· different"), "{text}");
        assert!(text.contains("@main: changed"), "{text}");
        assert!(text.contains("+ [5] "), "{text}");
        insta::assert_snapshot!(format!("compare_programs_{width}x{height}"), text);
    }
    let view = programs("base.mlir", "base.mlir");
    assert!(view.equal);
    assert!(view.lines.iter().any(|l| l.text == "no differences"));
}

#[test]
fn keys_move_the_selection_within_the_lines() {
    let mut app = CompareApp::new(programs("base.mlir", "one_function.mlir"));
    screen(&mut app, 100, 8);
    let last = app.view.lines.len() - 1;
    app.act(Action::Up);
    assert_eq!(app.selected, 0);
    app.act(Action::Bottom);
    assert_eq!(app.selected, last);
    app.act(Action::Down);
    assert_eq!(app.selected, last);
    let text = screen(&mut app, 100, 8);
    assert!(
        text.contains(&format!("Compare {}/{}", last + 1, last + 1)),
        "{text}"
    );
    assert!(app.scroll > 0);
    app.act(Action::Top);
    screen(&mut app, 100, 8);
    assert_eq!((app.selected, app.scroll), (0, 0));
    app.act(Action::Quit);
    assert!(app.quit);
}

/// Every function of the fibonacci program recorded on `queue`.
fn record(queue: &str) -> Recording {
    let options = RecordOptions {
        work_queue: queue.into(),
        ..RecordOptions::default()
    };
    record_file(
        &common::corpus("mlir/fibonacci_repeat.mlir"),
        &options,
        |_| {},
    )
    .expect("the program records")
    .0
}

/// A recording on the `s` queue with its times replaced by the events'
/// order times `scale`, and its locations made repository-relative, so
/// that screens are the same on every run and checkout.
fn ordered(scale: u64) -> Recording {
    let mut recording = record("s");
    let root = format!("{}/", bef_test_support::corpus::repo_root().display());
    for function in &mut recording.functions {
        for kernel in &mut function.kernels {
            kernel.location = kernel.location.replace(&root, "");
        }
    }
    let mut order: Vec<(u64, usize, usize)> = Vec::new();
    for (t, track) in recording.threads.iter().enumerate() {
        for (i, e) in track.events.iter().enumerate() {
            order.push((e.time, t, i));
        }
    }
    order.sort_unstable();
    let mut events: Vec<_> = recording
        .threads
        .iter()
        .map(|t| t.events.to_vec())
        .collect();
    for (rank, (_, t, i)) in order.into_iter().enumerate() {
        events[t][i].time = rank as u64 * scale;
    }
    for (track, events) in recording.threads.iter_mut().zip(events) {
        track.events = events.into();
    }
    recording
}

#[test]
fn two_recordings_show_times_changes_and_critical_paths() {
    let models = [Model::new(ordered(10)), Model::new(ordered(25))];
    let view = compare::recordings(Path::new("a.beftrace"), Path::new("b.beftrace"), &models);
    assert!(!view.equal);
    let text: Vec<&str> = view.lines.iter().map(|l| l.text.as_str()).collect();
    assert!(
        text.iter()
            .any(|l| l.starts_with("Critical path of a.beftrace: "))
    );
    assert!(
        text.iter()
            .any(|l| l.starts_with("Critical path of b.beftrace: "))
    );
    // Everything is slower in b: every kernel row is an increase.
    assert!(view.lines.iter().any(|l| l.kind == Kind::Added));
    assert!(
        !view.lines.iter().any(|l| l.kind == Kind::Removed),
        "{text:#?}"
    );
    let mut app = CompareApp::new(view);
    for (width, height) in [(80, 24), (160, 40)] {
        insta::assert_snapshot!(
            format!("compare_recordings_{width}x{height}"),
            screen(&mut app, width, height)
        );
    }
}

/// Whether `line` is `cells` separated by spaces only (names may hold
/// spaces themselves).
fn in_order(line: &str, cells: &[String]) -> bool {
    let mut rest = line.trim_start();
    for cell in cells {
        let Some(after) = rest.strip_prefix(cell.as_str()) else {
            return false;
        };
        rest = after.trim_start();
    }
    rest.is_empty()
}

fn scratch(name: &str) -> PathBuf {
    bef_test_support::corpus::scratch_dir(name)
}

#[test]
fn dump_compare_agrees_with_the_comparison_bef_trace_writes() {
    let dir = scratch("befview-compare");
    let (a, b) = (dir.join("s.beftrace"), dir.join("mstd.beftrace"));
    let (ra, rb) = (record("s"), record("mstd:2"));
    std::fs::write(&a, bef_trace::write(&ra)).expect("written");
    std::fs::write(&b, bef_trace::write(&rb)).expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(["--dump", "compare"])
        .arg(&a)
        .arg(&b)
        .output()
        .expect("befview runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let dump = String::from_utf8(out.stdout).expect("UTF-8");
    // What `bef-trace diff --json` serializes.
    let read = |p: &Path| Model::new(bef_trace::read(&std::fs::read(p).unwrap()).unwrap());
    let comparison = compare(&read(&a), &read(&b));
    assert!(!comparison.kernels.is_empty());
    let lines: Vec<&str> = dump.lines().collect();
    let mut previous = None;
    for k in &comparison.kernels {
        let cells = [
            k.function.clone(),
            k.kernel.clone(),
            human(k.before_ns),
            human(k.after_ns),
            signed(k.delta_ns),
            format!("{}→{}", k.before_count, k.after_count),
            k.location.clone(),
        ];
        // The kernel's row, in the JSON's order (the largest change first).
        let row = lines
            .iter()
            .position(|line| in_order(line, &cells))
            .unwrap_or_else(|| panic!("no row {cells:?} in:\n{dump}"));
        assert!(previous.is_none_or(|p| p < row), "{cells:?} out of order");
        previous = Some(row);
    }
    let total = format!(
        "total  {}  {}  {}",
        human(comparison.before_ns),
        human(comparison.after_ns),
        signed(comparison.delta_ns)
    );
    assert!(dump.contains(&total), "{total} in:\n{dump}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mixed_and_damaged_inputs_are_refused_naming_the_file() {
    let befview = |args: &[&std::ffi::OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_befview"))
            .args(args)
            .output()
            .expect("befview runs")
    };
    let dir = scratch("befview-compare-bad");
    let recording = dir.join("r.beftrace");
    std::fs::write(&recording, bef_trace::write(&record("s"))).unwrap();
    let base = common::corpus("diff/base.mlir");
    let out = befview(&[
        "--dump".as_ref(),
        "compare".as_ref(),
        base.as_ref(),
        recording.as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not of one kind"));
    let bef = common::corpus("bef/add_i32.bef");
    let mut bytes = std::fs::read(&bef).unwrap();
    bytes.truncate(bytes.len() - 40);
    let damaged = dir.join("damaged.bef");
    std::fs::write(&damaged, &bytes).unwrap();
    let out = befview(&[
        "--dump".as_ref(),
        "compare".as_ref(),
        bef.as_ref(),
        damaged.as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("damaged.bef is not valid BEF") && stderr.contains("at offset 0x"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
