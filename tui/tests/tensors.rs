//! The Tensors view of a BTF file: drawn on a test backend and compared
//! with the committed snapshots, printed by `--dump tensors`, and opened
//! on hostile files.

mod common;

use befview::app::keys::Action;
use befview::app::tensors::TensorsApp;
use befview::model::tensors::{MAX_ROWS, TensorFile};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn open(name: &str) -> TensorFile {
    let bytes = std::fs::read(common::corpus(name)).expect("corpus file");
    TensorFile::open(&std::path::Path::new("corpus").join(name), &bytes).expect("a BTF file")
}

fn screen(app: &mut TensorsApp, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw_tensors(frame, app))
        .expect("draw");
    terminal.backend().to_string()
}

#[test]
fn tensors_view_with_the_coo_tensor_selected() {
    for (width, height) in [(80, 24), (200, 60)] {
        let mut app = TensorsApp::new(open("btf/tensors.btf"));
        screen(&mut app, width, height);
        for _ in 0..10 {
            app.act(Action::Down);
            screen(&mut app, width, height);
        }
        let text = screen(&mut app, width, height);
        assert!(text.contains("tensor 10 · f32 COO [3, 3] · 9 elements, 2 stored"));
        insta::assert_snapshot!(format!("tensors_{width}x{height}"), text);
    }
}

#[test]
fn tensors_view_of_a_damaged_file_shows_the_error_naming_the_part() {
    let mut app = TensorsApp::new(open("btf/truncated.btf"));
    let text = screen(&mut app, 120, 16);
    assert!(text.contains("unreadable"), "{text}");
    assert!(
        text.contains("the 62-byte file ends before the end of tensor 0's elements"),
        "{text}"
    );
}

#[test]
fn cursor_stays_on_the_rows_and_pages_scroll() {
    let mut app = TensorsApp::new(open("btf/tensors.btf"));
    // 10 lines: 3 for the table's frame and header leave 1 row at most.
    screen(&mut app, 100, 14);
    app.act(Action::Up);
    assert_eq!(app.selected, 0);
    app.act(Action::Bottom);
    assert_eq!(app.selected, 12);
    app.act(Action::Down);
    assert_eq!(app.selected, 12);
    let text = screen(&mut app, 100, 14);
    assert!(text.contains("Tensors: #12 of 0–12"), "{text}");
    assert!(text.contains("tensor 12 · f32 dense [0]"), "{text}");
    app.act(Action::Top);
    screen(&mut app, 100, 14);
    assert_eq!((app.selected, app.scroll), (0, 0));
    app.act(Action::Quit);
    assert!(app.quit);
}

#[test]
fn a_count_past_the_offsets_is_refused_naming_the_field() {
    let mut bytes = (1u64 << 40).to_le_bytes().to_vec();
    bytes.extend_from_slice(&8u64.to_le_bytes());
    let error = TensorFile::open(std::path::Path::new("hostile.btf"), &bytes)
        .err()
        .expect("refused");
    assert!(
        error.to_string().contains(
            "hostile.btf is not valid BTF: the file's tensor count field (at offset 0) declares \
             more tensors than its 16 bytes can hold"
        ),
        "{error}"
    );
}

/// Many offsets naming one record: the rows stop at `MAX_ROWS`, and the
/// title says how many are left out.
#[test]
fn rows_are_capped_whatever_the_count() {
    let count = MAX_ROWS as u64 + 1000;
    let record = 8 + 8 * count;
    let mut bytes: Vec<u8> = count.to_le_bytes().to_vec();
    for _ in 0..count {
        bytes.extend_from_slice(&record.to_le_bytes());
    }
    // A rank-1 i32 record of two elements.
    bytes.extend_from_slice(&1u64.to_le_bytes());
    bytes.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0]);
    bytes.extend_from_slice(&2u64.to_le_bytes());
    bytes.extend_from_slice(&[1, 0, 0, 0, 2, 0, 0, 0]);
    let file = TensorFile::open(std::path::Path::new("many.btf"), &bytes).expect("opens");
    assert_eq!(file.rows.len(), MAX_ROWS);
    assert!(
        file.title()
            .ends_with("(the first 65536 listed, 1000 more not)"),
        "{}",
        file.title()
    );
}

#[test]
fn dump_prints_the_table_and_each_detail() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(["--dump", "tensors"])
        .arg(common::corpus("btf/tensors.btf"))
        .output()
        .expect("befview runs");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("BTF, 13 tensors, 688 bytes"), "{text}");
    assert!(text.contains("first values"), "{text}");
    assert!(
        text.contains("tensor 9 · ui64 dense [2] · 2 elements"),
        "{text}"
    );
    assert!(text.contains("min 6  max 18446744073709551615"), "{text}");

    let output = std::process::Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(["--dump", "sections"])
        .arg(common::corpus("btf/tensors.btf"))
        .output()
        .expect("befview runs");
    assert_eq!(output.status.code(), Some(2));
}

/// Errors describe, never echo: files of made-up secrets opened as BTF
/// show nothing of their bytes, as text or as numbers, in `--dump
/// tensors` (the table and every row's detail).
#[test]
fn dump_of_a_secrets_file_echoes_nothing_of_it() {
    use bef_test_support::echo::{assert_no_echo, secret_btf_files};
    let dir = bef_test_support::corpus::scratch_dir("tensors-secrets");
    for (name, bytes) in secret_btf_files() {
        let path = dir.join(format!("{name}.btf"));
        std::fs::write(&path, &bytes).expect("write the file");
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_befview"))
            .args(["--dump", "tensors"])
            .arg(&path)
            .output()
            .expect("befview runs");
        let all = [output.stdout, output.stderr].concat();
        assert!(!all.is_empty(), "{name}");
        assert_no_echo(&bytes, &all, &format!("befview --dump tensors {name}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every entry naming one COO record: the view checks coordinates within
/// the scan budget of `bef dump`, and lists the records past it as
/// skipped rather than checking each again.
#[test]
fn a_record_named_by_every_entry_is_checked_within_the_budget() {
    let file = open("fuzz/regressions/btf_shared_coo_record.btf");
    assert_eq!(file.count, 3072);
    let skipped = file
        .rows
        .iter()
        .filter(|r| r.as_ref().is_err_and(|e| e.is_not_scanned()))
        .count();
    assert!(skipped > 0 && skipped < 3072, "{skipped} skipped");
    assert!(
        file.rows
            .iter()
            .all(|r| r.as_ref().map_or_else(|e| e.is_not_scanned(), |_| true))
    );
    let last = file.rows.len() - 1;
    assert_eq!(file.cells(last)[3], "skipped");
    assert_eq!(file.detail(last)[0], format!("tensor {last}: skipped"));
}

/// The digits' held-out images (tensor 4, [360, 64] f32) in full: the
/// first image's 64 pixels as a heat map, then as numbers, and the cursor
/// reaching the last column and row.
#[test]
fn a_tensor_in_full_as_a_heat_map_and_as_numbers() {
    let mut app = TensorsApp::new(open("models/digits/digits.btf"));
    screen(&mut app, 100, 30);
    for _ in 0..4 {
        app.act(Action::Down);
    }
    app.act(Action::Enter);
    let heat = screen(&mut app, 160, 20);
    assert!(
        heat.contains("tensor 4 · f32 [360, 64] · 360 rows × 64 columns"),
        "{heat}"
    );
    assert!(heat.contains("heat map"), "{heat}");
    insta::assert_snapshot!("tensor_heat_160x20", heat);
    // The snapshot keeps the symbols; the colours are the cells'
    // backgrounds: image 0's pixel 4 is 1.0 (the lightest grey), pixel 0
    // is 0.0 (the darkest), each two cells wide after the row labels.
    let mut terminal = Terminal::new(TestBackend::new(160, 20)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw_tensors(frame, &mut app))
        .expect("draw");
    let buffer = terminal.backend().buffer();
    let label = "│[14, :] ".chars().count() as u16;
    let bg = |pixel: u16| buffer[(label + pixel * 2, 3)].bg;
    use ratatui::style::Color;
    assert_eq!(bg(4), Color::Indexed(255));
    assert_eq!(bg(1), Color::Indexed(232));
    assert_eq!(bg(2), Color::Indexed(232 + (0.125f64 * 23.0).round() as u8));
    app.act(Action::Zoom);
    let numbers = screen(&mut app, 100, 20);
    assert!(numbers.contains("numbers"), "{numbers}");
    insta::assert_snapshot!("tensor_numbers_100x20", numbers);
    app.act(Action::Bottom);
    for _ in 0..70 {
        app.act(Action::Right);
    }
    let end = screen(&mut app, 100, 20);
    assert!(end.contains("row 359, column 63 ="), "{end}");
    assert!(end.contains("[359, :]"), "{end}");
    app.act(Action::Back);
    assert!(app.full.is_none());
}

#[test]
fn g_asks_for_a_tensor_and_the_title_counts_from_zero() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let key = |c| KeyEvent::new(c, KeyModifiers::NONE);
    let mut app = TensorsApp::new(open("btf/tensors.btf"));
    assert!(screen(&mut app, 120, 20).contains("Tensors: #0 of 0–12"));
    for c in [KeyCode::Char('g'), KeyCode::Char('7'), KeyCode::Enter] {
        app.on_key(key(c));
    }
    assert_eq!(app.selected, 7);
    assert!(screen(&mut app, 120, 20).contains("Tensors: #7 of 0–12"));
    // `g` twice: the first tensor.
    app.on_key(key(KeyCode::Char('g')));
    app.on_key(key(KeyCode::Char('g')));
    assert_eq!((app.selected, app.prompt.is_none()), (0, true));
    for c in [
        KeyCode::Char('g'),
        KeyCode::Char('9'),
        KeyCode::Char('9'),
        KeyCode::Enter,
    ] {
        app.on_key(key(c));
    }
    assert_eq!(app.selected, 0);
    assert!(screen(&mut app, 120, 20).contains("no tensor 99"));
}

#[test]
fn dump_tensor_prints_every_element() {
    let file = common::corpus("models/digits/digits.btf");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(["--dump", "tensor"])
        .arg(&file)
        .args(["--index", "4"])
        .output()
        .expect("befview runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "tensor 4 · f32 [360, 64] · 360 rows × 64 columns");
    assert_eq!(lines.len(), 361);
    // Each row is its label and 64 values, as the file holds them.
    let bytes = std::fs::read(&file).unwrap();
    let record = bef::btf::BtfFile::parse(&bytes).unwrap().record(4).unwrap();
    let bef::btf::Payload::Dense { data, .. } = record.payload else {
        panic!("dense")
    };
    let last: Vec<f32> = lines[360]
        .strip_prefix("[359, :] ")
        .expect("the last row's label")
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    let stored: Vec<f32> = data[359 * 64 * 4..]
        .chunks(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(last.len(), 64);
    for (shown, stored) in last.iter().zip(&stored) {
        assert!(
            (shown - stored).abs() <= stored.abs() * 1e-5,
            "{shown} vs {stored}"
        );
    }
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(["--dump", "tensor"])
        .arg(&file)
        .args(["--index", "6"])
        .output()
        .expect("befview runs");
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("tensor 6 is out of range"));
}
