//! The Kernels view (tab 3 with a recording open) on a recording of
//! `corpus/trace/tensor_work.mlir` (tensor kernels that report their
//! work): `--dump kernels` agrees with `bef-trace stats` on the same
//! recording, `s` sorts through the tab's sort, and Enter shows the
//! slowest run in the Execution tab.

mod common;

use std::path::Path;

use bef_trace::export::stats::{self, Stats};
use bef_trace::recording::EventKind;
use bef_trace::{Model, RecordOptions, Recording, record_file};
use befview::app::keys::Action;
use befview::app::tab::Tab;
use befview::model::execution::Trace;
use befview::model::rows::{self, ListId};
use befview::{App, Document};

const PROGRAM: &str = "trace/tensor_work.mlir";

fn record() -> Recording {
    let options = RecordOptions {
        work_queue: "s".into(),
        ..RecordOptions::default()
    };
    record_file(&common::corpus(PROGRAM), &options, |_| {})
        .expect("the program records")
        .0
}

/// The rows of one table of `--dump kernels` (after its `== Recorded
/// {what}` title): each row's name and its eight numbers.
fn dumped(text: &str, what: &str) -> Vec<(String, Vec<String>)> {
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with(&format!("== Recorded {what}")))
        .skip(2);
    let mut out = Vec::new();
    for line in lines.by_ref() {
        if line.trim().is_empty() {
            break;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, numbers) = words.split_at(words.len() - 8);
        out.push((
            name.join(" "),
            numbers.iter().map(|w| (*w).to_owned()).collect(),
        ));
    }
    out
}

/// What `bef-trace stats` says of the same rows, as the dump writes them.
fn expected(stats: &Stats, kernels: bool) -> Vec<(String, Vec<String>)> {
    let rows = if kernels {
        &stats.kernels
    } else {
        &stats.functions
    };
    let self_total: u64 = stats.kernels.iter().map(|k| k.self_ns).sum();
    rows.iter()
        .map(|s| {
            let gflops = kernels
                .then(|| {
                    stats
                        .throughput
                        .iter()
                        .find(|t| t.name == s.name)?
                        .gflops_per_s
                })
                .flatten();
            (
                s.name.clone(),
                vec![
                    s.count.to_string(),
                    stats::human(s.total_ns),
                    stats::human(s.self_ns),
                    stats::human(s.mean_ns),
                    stats::human(s.max_ns),
                    format!(
                        "{:.1}%",
                        s.self_ns as f64 * 100.0 / self_total.max(1) as f64
                    ),
                    stats::human(s.off_cpu_ns),
                    gflops.map_or_else(|| "-".to_owned(), |g| format!("{g:.2}")),
                ],
            )
        })
        .collect()
}

#[test]
fn dump_kernels_agrees_with_bef_trace_stats() {
    let dir = tempfile_dir();
    let path = dir.join("tensor_work.beftrace");
    std::fs::write(&path, bef_trace::write(&record())).expect("the recording is written");
    // What `bef-trace stats` computes from the file as written.
    let bytes = std::fs::read(&path).expect("readable");
    let stats = stats::stats(&Model::new(bef_trace::read(&bytes).expect("a recording")));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(["--dump", "kernels"])
        .arg(&path)
        .output()
        .expect("befview runs");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let kernels = dumped(&text, "kernels");
    assert_eq!(kernels, expected(&stats, true), "{text}");
    assert_eq!(
        dumped(&text, "functions"),
        expected(&stats, false),
        "{text}"
    );
    assert!(
        kernels
            .iter()
            .any(|(name, n)| name == "tfrt_test.matmul.f32.2" && n[7] != "-"),
        "the product reports its GFLOP/s: {text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("befview-kernels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn sort_and_enter_reach_the_slowest_run() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let trace = Trace::new(Path::new("run.beftrace"), record());
    let mut app = App::with_trace(&doc, trace);
    app.act(Action::Tab(Tab::Functions.index()));
    app.act(Action::Right);
    assert_eq!(app.active_list(), Some(ListId::KernelProfile));
    // Sorted by count, most first.
    for _ in 0..2 {
        app.act(Action::Sort);
    }
    let counts: Vec<u64> = (0..rows::len(&app.rows(), ListId::KernelProfile))
        .map(|r| {
            rows::cells(&app.rows(), ListId::KernelProfile, r)[1]
                .parse()
                .unwrap()
        })
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert!(rows::title(&app.rows(), ListId::KernelProfile).contains("sorted by count"));
    // By name, then Enter on the product.
    while !rows::title(&app.rows(), ListId::KernelProfile).contains("sorted by name") {
        app.act(Action::Sort);
    }
    let row = (0..rows::len(&app.rows(), ListId::KernelProfile))
        .find(|&r| {
            rows::cells(&app.rows(), ListId::KernelProfile, r)[0] == "tfrt_test.matmul.f32.2"
        })
        .expect("the product is listed");
    app.cursor_mut(ListId::KernelProfile).selected = row;
    app.act(Action::Enter);
    assert_eq!(app.tab, Tab::Execution);
    let trace = app.execution.trace.as_ref().unwrap();
    let step = &trace.steps[app.cursor(ListId::Events).selected];
    let EventKind::KernelStart { kernel } = step.event.kind else {
        panic!("the cursor is on a kernel's start: {step:?}");
    };
    assert_eq!(
        trace.kernel_name(step.event.execution, kernel),
        "tfrt_test.matmul.f32.2"
    );
    // The function table next to it: Enter goes to an execution's begin.
    app.act(Action::Tab(Tab::Functions.index()));
    app.act(Action::Right);
    app.act(Action::Right);
    assert_eq!(app.active_list(), Some(ListId::FunctionProfile));
    app.act(Action::Enter);
    assert_eq!(app.tab, Tab::Execution);
    let trace = app.execution.trace.as_ref().unwrap();
    let step = &trace.steps[app.cursor(ListId::Events).selected];
    assert!(matches!(step.event.kind, EventKind::FunctionBegin { .. }));
}

/// The recording with its times replaced by the events' order and its
/// threads named alike, so that the screen is the same on every run.
fn ranked() -> Recording {
    let mut recording = record();
    let mut order: Vec<(u64, usize, usize)> = Vec::new();
    for (t, track) in recording.threads.iter().enumerate() {
        for (i, e) in track.events.iter().enumerate() {
            order.push((e.time, t, i));
        }
    }
    order.sort_unstable();
    for track in &mut recording.threads {
        track.name = "main".into();
    }
    let mut events: Vec<Vec<_>> = recording
        .threads
        .iter()
        .map(|t| t.events.to_vec())
        .collect();
    for (rank, (_, t, i)) in order.into_iter().enumerate() {
        events[t][i].time = rank as u64 * 1000;
    }
    for (track, events) in recording.threads.iter_mut().zip(events) {
        track.events = events.into();
    }
    recording
}

#[test]
fn snapshot_of_the_kernels_view() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    doc.analysis();
    let mut app = App::with_trace(&doc, Trace::new(Path::new("run.beftrace"), ranked()));
    app.act(Action::Tab(Tab::Functions.index()));
    app.act(Action::Right);
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 30)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw(frame, &mut app))
        .expect("draw");
    let text = terminal.backend().to_string();
    assert!(text.contains("Recorded kernels (sorted by total"), "{text}");
    insta::assert_snapshot!("kernels_120x30", text);
}
