//! Errors describe, never echo: a program can name any file as its BTF
//! weights, so every reader of BTF files is given files of made-up secrets
//! (a plain text file, and text behind a count, a table and record headers
//! that pass the first checks) with tensor indices from -1 to 8, and
//! everything it prints must hold none of the file: no run of its bytes,
//! no number any of its 4- or 8-byte windows reads as, in decimal or hex.
//! Paths: the library's readers, `btf.read_dense_tensor` in a real
//! `bef run`, `bef run --call` with `{"btf": PATH}` arguments, and
//! `bef dump`. (`befview --dump tensors` is checked in `tui/tests`.)

mod common;

use std::path::{Path, PathBuf};

use bef::btf::summary::{self, ScanBudget};
use bef::btf::{self, BtfFile, FileSource, SliceSource};
use bef_test_support::echo::{assert_no_echo, btf_reading_program, secret_btf_files};
use common::bef;

const INDICES: std::ops::RangeInclusive<i64> = -1..=8;

fn write_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    secret_btf_files()
        .into_iter()
        .map(|(name, bytes)| {
            let path = dir.join(format!("{name}.txt"));
            std::fs::write(&path, &bytes).expect("write the file");
            (path, bytes)
        })
        .collect()
}

/// Every error and summary the library's readers give for `bytes`.
fn library_output(path: &Path, bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut note = |what: &dyn std::fmt::Display, debug: &dyn std::fmt::Debug| {
        out.push_str(&format!("{what}\n{debug:?}\n"));
    };
    match BtfFile::parse(bytes) {
        Ok(file) => {
            for index in 0..9 {
                if let Err(e) = file.record(index) {
                    note(&e, &e);
                }
            }
        }
        Err(e) => note(&e, &e),
    }
    for index in INDICES {
        if let Err(e) = btf::locate(&mut SliceSource(bytes), index) {
            note(&e, &e);
        }
        let file = std::fs::File::open(path).expect("open");
        let mut source = FileSource::new(file, bytes.len() as u64);
        if let Err(e) = btf::locate(&mut source, index) {
            note(&e, &e);
        }
    }
    let mut budget = ScanBudget::for_file(bytes.len() as u64);
    let mut source = SliceSource(bytes);
    match summary::summaries(&mut source, &mut budget) {
        Ok((_, tensors)) => {
            for tensor in tensors.take(16) {
                match tensor {
                    Ok(tensor) => note(&tensor.shape_text(), &tensor),
                    Err(e) => note(&e, &e),
                }
            }
        }
        Err(e) => note(&e, &e),
    }
    out
}

#[test]
fn the_library_readers_echo_nothing_of_a_file_they_refuse() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, bytes) in write_files(dir.path()) {
        let output = library_output(&path, &bytes);
        assert!(!output.is_empty());
        assert_no_echo(&bytes, output.as_bytes(), &path.display().to_string());
    }
}

fn all_output(out: &std::process::Output) -> Vec<u8> {
    [out.stdout.clone(), out.stderr.clone()].concat()
}

#[test]
fn bef_run_of_the_btf_kernels_echoes_nothing_of_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, bytes) in write_files(dir.path()) {
        let program = dir.path().join("read.mlir");
        std::fs::write(&program, btf_reading_program(&path)).expect("write the program");
        let out = bef(&["run", program.to_str().expect("UTF-8 path")], None);
        let output = all_output(&out);
        let text = common::text(&output);
        assert!(text.contains("--- Running 'read'"), "{text}");
        assert!(text.contains("runtime error: "), "{text}");
        assert_no_echo(&bytes, &output, &format!("bef run: {}", path.display()));
    }
}

#[test]
fn bef_run_call_with_btf_arguments_echoes_nothing_of_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, bytes) in write_files(dir.path()) {
        for index in INDICES {
            let args = format!(r#"[{{"btf": "{}", "index": {index}}}]"#, path.display());
            let out = bef(
                &[
                    "run",
                    "corpus/conformance/call_typed_arguments.mlir",
                    "--call",
                    "first_rows",
                    "--args",
                    &args,
                ],
                None,
            );
            assert_eq!(out.status.code(), Some(1), "{}", common::text(&out.stderr));
            assert_no_echo(
                &bytes,
                &all_output(&out),
                &format!("bef run --call: {} {index}", path.display()),
            );
        }
    }
}

#[test]
fn bef_dump_echoes_nothing_of_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, bytes) in write_files(dir.path()) {
        let shown = path.to_str().expect("UTF-8 path");
        for args in [&["dump", "--btf", shown][..], &["dump", "--btf", "-"][..]] {
            let stdin = (args[2] == "-").then_some(&bytes[..]);
            let out = bef(args, stdin);
            assert_eq!(out.status.code(), Some(1), "{}", common::text(&out.stderr));
            assert_no_echo(&bytes, &all_output(&out), &format!("{args:?}"));
        }
    }
}
