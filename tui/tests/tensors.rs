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
    assert!(text.contains("Tensors 13/13"), "{text}");
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
