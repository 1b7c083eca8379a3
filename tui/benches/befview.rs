//! befview on a 100 MB BEF file: the first frame (open, list, draw), each
//! key handled and redrawn, and the memory the inspector takes beyond the
//! file's mapping. The file (20,000 functions of 20 kernels and one string
//! attribute filling the rest) is generated once into the target
//! directory. Then a generated recording of 8 M events: the first frame,
//! and the background load's time and memory.
//!
//! `cargo bench -p befview --bench befview`

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use befview::{App, Document, Loaded};
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[path = "../tests/common/scale.rs"]
mod scale;

const SIZE: usize = 100 << 20;
const FUNCTIONS: usize = 20_000;
const KERNELS: usize = 20;

/// The MLIR text of the bench program with a string attribute of `fill`
/// bytes.
fn program(fill: usize) -> String {
    let mut text = String::with_capacity(fill + FUNCTIONS * KERNELS * 40);
    text.push_str("func.func @big() -> !tfrt.chain {\n  %ch0 = tfrt.new.chain\n");
    text.push_str("  %ch1 = \"tfrt_test.report_error_sync\"(%ch0) {message = \"");
    text.extend(std::iter::repeat_n('x', fill));
    text.push_str("\"} : (!tfrt.chain) -> !tfrt.chain\n  tfrt.return %ch1 : !tfrt.chain\n}\n");
    for f in 0..FUNCTIONS {
        text.push_str(&format!(
            "func.func @f{f}(%a: i32) -> i32 {{\n  %c = tfrt.constant.i32 {f}\n  %s0 = tfrt.add.i32 %a, %c\n"
        ));
        for k in 1..KERNELS - 1 {
            text.push_str(&format!("  %s{k} = tfrt.add.i32 %s{}, %c\n", k - 1));
        }
        text.push_str(&format!("  tfrt.return %s{} : i32\n}}\n", KERNELS - 2));
    }
    text
}

fn translate(text: &str) -> Vec<u8> {
    let module = bef::text::parse_module(text, "bench.mlir").expect("bench program parses");
    bef::translate::mlir_to_bef(
        &module,
        bef::translate::TranslateOptions {
            optional_sections: true,
        },
    )
    .expect("bench program translates")
}

/// The 100 MB file, generated on first use.
fn big_file() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let path = target.join("befview-bench-100mb.bef");
    if std::fs::metadata(&path).is_ok_and(|m| m.len() as usize >= SIZE) {
        return path;
    }
    let rest = translate(&program(0)).len();
    let bytes = translate(&program(SIZE.saturating_sub(rest) + 64));
    assert!(bytes.len() >= SIZE);
    std::fs::create_dir_all(&target).expect("target directory");
    std::fs::write(&path, bytes).expect("bench file written");
    path
}

/// Anonymous (not file-backed) memory of this process, in bytes.
fn anonymous_memory() -> usize {
    let rollup = std::fs::read_to_string("/proc/self/smaps_rollup").unwrap_or_default();
    rollup
        .lines()
        .find_map(|l| l.strip_prefix("Anonymous:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn bench(c: &mut Criterion) {
    let path = big_file();
    let len = std::fs::metadata(&path).expect("bench file").len();

    // Memory beyond the mapping: opening, the first frame, every tab, and
    // the whole-file analysis.
    let before = anonymous_memory();
    {
        let loaded = Loaded::open(&path).expect("opens");
        let doc = Document::new(&loaded).expect("lists");
        let mut app = App::new(&doc);
        let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("backend");
        let start = Instant::now();
        doc.analysis();
        let analysis = start.elapsed();
        for k in ['1', '2', 'G', '3', 'G', '4', 'j', '5', 'l', 'j'] {
            app.on_key(key(KeyCode::Char(k)));
            let Ok(_) = terminal.draw(|f| befview::ui::draw(f, &mut app));
        }
        let used = anonymous_memory().saturating_sub(before);
        println!(
            "befview memory beyond the mapping: {:.1} MB for a {:.1} MB file ({:.2}x); whole-file analysis {:.0} ms",
            used as f64 / 1e6,
            len as f64 / 1e6,
            used as f64 / len as f64,
            analysis.as_secs_f64() * 1e3
        );
    }

    let mut group = c.benchmark_group("befview_100mb");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("first_frame", |b| {
        b.iter(|| {
            let loaded = Loaded::open(&path).expect("opens");
            let doc = Document::new(&loaded).expect("lists");
            let mut app = App::new(&doc);
            let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("backend");
            let Ok(_) = terminal.draw(|f| befview::ui::draw(f, &mut app));
        })
    });

    // Baseline of the first frame: opening and framing alone.
    group.bench_function("baseline_open_and_list", |b| {
        b.iter(|| {
            let loaded = Loaded::open(&path).expect("opens");
            Document::new(&loaded)
                .expect("lists")
                .listing
                .sections()
                .len()
        })
    });

    let loaded = Loaded::open(&path).expect("opens");
    let doc = Document::new(&loaded).expect("lists");
    doc.analysis();
    // Baseline of the keys: redrawing the function table with no key.
    {
        let mut app = App::new(&doc);
        app.on_key(key(KeyCode::Char('3')));
        let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("backend");
        group.bench_function("baseline_redraw_functions", |b| {
            b.iter(|| {
                // A fresh backend each time: the whole screen is drawn.
                terminal = Terminal::new(TestBackend::new(200, 60)).expect("backend");
                let Ok(_) = terminal.draw(|f| befview::ui::draw(f, &mut app));
            })
        });
    }
    // (name, keys to get there, the key measured)
    let cases: &[(&str, &[KeyCode], KeyCode)] = &[
        ("sections_j", &[], KeyCode::Char('j')),
        ("hex_j", &[KeyCode::Char('2')], KeyCode::Char('j')),
        ("hex_pgdn", &[KeyCode::Char('2')], KeyCode::PageDown),
        (
            "hex_in_attribute_j",
            &[KeyCode::Char('2'), KeyCode::PageDown, KeyCode::PageDown],
            KeyCode::Char('j'),
        ),
        ("functions_j", &[KeyCode::Char('3')], KeyCode::Char('j')),
        ("functions_pgdn", &[KeyCode::Char('3')], KeyCode::PageDown),
        ("functions_sort", &[KeyCode::Char('3')], KeyCode::Char('s')),
        (
            "function_kernels_j",
            &[KeyCode::Char('3'), KeyCode::Char('j'), KeyCode::Enter],
            KeyCode::Char('j'),
        ),
        ("source_pgdn", &[KeyCode::Char('4')], KeyCode::PageDown),
        (
            "attributes_j",
            &[KeyCode::Char('5'), KeyCode::Char('l')],
            KeyCode::Char('j'),
        ),
        ("strings_pgdn", &[KeyCode::Char('5')], KeyCode::PageDown),
        ("next_tab", &[], KeyCode::Tab),
    ];
    for (name, setup, measured) in cases {
        let mut app = App::new(&doc);
        let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("backend");
        for &k in *setup {
            app.on_key(key(k));
            let Ok(_) = terminal.draw(|f| befview::ui::draw(f, &mut app));
        }
        group.bench_function(*name, |b| {
            b.iter(|| {
                app.on_key(key(*measured));
                let Ok(_) = terminal.draw(|f| befview::ui::draw(f, &mut app));
            })
        });
    }
    group.finish();
}

/// The generated 8 M-event recording, written on first use.
fn big_recording() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let path = target.join("befview-bench-8m.beftrace");
    if !path.is_file() {
        let bytes = bef_trace::write(&scale::generated(scale::EVENTS));
        std::fs::create_dir_all(&target).expect("target directory");
        std::fs::write(&path, bytes).expect("bench recording written");
    }
    path
}

/// A recording of 8 M events: the first frame (header, program, the
/// loading screen), which does not wait for the events; then, once, how
/// long the background load takes and the memory it keeps.
fn recording(c: &mut Criterion) {
    let path = big_recording();
    let len = std::fs::metadata(&path).expect("bench recording").len();
    let mut group = c.benchmark_group("befview_recording_8m");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("first_frame", |b| {
        b.iter(|| {
            let buffer = befview::model::input::read(&path).expect("reads");
            let (program, _) = befview::model::execution::open_program(&path, buffer.bytes(), None)
                .expect("header reads");
            let doc = Document::new(&program).expect("lists");
            let mut app = App::loading(&doc, &path);
            let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("backend");
            let Ok(_) = terminal.draw(|f| befview::ui::draw(f, &mut app));
        })
    });
    group.finish();
    let buffer = befview::model::input::read(&path).expect("reads");
    let before = anonymous_memory();
    let start = Instant::now();
    let trace =
        befview::model::execution::load(&path, buffer.bytes(), None, &mut |_| {}).expect("loads");
    let took = start.elapsed();
    let kept = anonymous_memory().saturating_sub(before);
    println!(
        "recording of {} events, {:.1} MB: loaded in the background in {took:.2?}, \
         keeping {:.0} MB ({:.1}× the file)",
        trace.steps.len(),
        len as f64 / 1e6,
        kept as f64 / 1e6,
        kept as f64 / len as f64
    );
}

criterion_group!(benches, bench, recording);
criterion_main!(benches);
