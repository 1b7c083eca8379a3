//! The command line: `--dump` output, `--help`, and the exit statuses (1 a
//! bad file, 2 a usage error), without a terminal.

mod common;

use std::process::{Command, Output};

fn befview(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(args)
        .current_dir(common::corpus(""))
        .output()
        .expect("befview runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn dump_functions_shows_kernels_attributes_and_registers() {
    let out = befview(&["--dump", "functions", "befview/inspect.mlir"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    for expected in [
        "== @main kernels",
        "tfrt_test.report_error_sync",
        "message = \"befview says hello\"",
        "value = 129 : i32",
        "@add",
        "== @main registers",
        "3 tfrt.constant.i32",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn dump_source_pairs_kernels_with_their_lines() {
    let out = befview(&["--dump", "source", "befview/inspect.mlir"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("@add kernel 1 tfrt.add.i32  line 26: %z = tfrt.add.i32 %x, %y"),
        "{text}"
    );
    assert!(
        text.contains("callsite(\"inner\" at \"model.py\":3:1)"),
        "{text}"
    );
}

#[test]
fn dump_marks_findings_of_a_damaged_file_at_their_offsets() {
    let out = befview(&["--dump", "sections", "cli/truncated.bef"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("! 5  5   Functions (cut)"), "{text}");
    assert!(text.contains("0x34    decoder"), "{text}");
}

#[test]
fn dump_hex_and_help() {
    let out = befview(&["--dump", "hex", "bef/add_i32.bef"]);
    assert!(out.status.success());
    assert!(stdout(&out).starts_with("00000000: 0b ef"));
    let out = befview(&["--dump", "help", "bef/add_i32.bef"]);
    assert!(stdout(&out).contains("copy the selected value"));
}

#[test]
fn help_explains_views_and_keys() {
    let out = befview(&["--help"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for expected in [
        "--dump VIEW FILE",
        "Sections",
        "Hex",
        "attributes",
        "Ctrl-d",
        "quit",
    ] {
        assert!(text.contains(expected), "missing {expected:?}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["--dump"][..],
        &["--dump", "nonsense", "bef/add_i32.bef"][..],
        &["--frobnicate"][..],
        &["a.bef", "b.bef"][..],
    ] {
        let out = befview(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("befview:"));
    }
}

#[test]
fn bad_files_exit_1_with_the_reason() {
    let out = befview(&["--dump", "sections", "no/such/file.bef"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let out = befview(&["--dump", "sections", "cli/random.bin"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let out = befview(&["--dump", "sections", "mlir/errors/syntax_errors.mlir"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("error"));
}
