//! Support shared by the integration tests: the repository's `corpus/`,
//! where every file a test reads lives, and the `bef` binary. A missing
//! input fails the test with its path; no test skips for lack of one.

#![allow(dead_code, unused_imports)] // each test binary uses its own part

pub use bef_test_support::counting;

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub use bef_test_support::corpus::{
    corpus_files, corpus_path, read_corpus, repo_root, scratch_dir,
};

/// Runs the `bef` binary in the repository root with `stdin` as its
/// standard input; standard output is a pipe, so binary output is allowed.
pub fn bef(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bef"))
        .args(args)
        .current_dir(repo_root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bef binary starts");
    let mut input = child.stdin.take().expect("piped stdin");
    // The command may exit before reading its input (bad options).
    let _ = input.write_all(stdin.unwrap_or_default());
    drop(input);
    child.wait_with_output().expect("the bef binary finishes")
}

/// Output bytes as text, lossily.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Bytes as space-separated hex pairs, at most 64 of them, for failure
/// messages and golden comparisons.
pub fn hex(bytes: &[u8]) -> String {
    const LIMIT: usize = 64;
    let mut out: Vec<String> = bytes
        .iter()
        .take(LIMIT)
        .map(|b| format!("{b:02x}"))
        .collect();
    if bytes.len() > LIMIT {
        out.push(format!("... ({} bytes)", bytes.len()));
    }
    out.join(" ")
}

#[cfg(unix)]
pub use bef_test_support::measured::Measured;

/// Runs the `bef` binary as [`bef`] does, killing it after `timeout`, and
/// measures its wall time and peak resident memory.
#[cfg(unix)]
pub fn bef_measured(args: &[&str], stdin: Option<&[u8]>, timeout: std::time::Duration) -> Measured {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bef"));
    command.args(args).current_dir(repo_root());
    measured(command, stdin, timeout)
}

/// Runs `command` (its arguments, directory and environment set) with
/// `stdin` as its standard input, killing it after `timeout`, and measures
/// its wall time and peak resident memory.
#[cfg(unix)]
pub fn measured(command: Command, stdin: Option<&[u8]>, timeout: std::time::Duration) -> Measured {
    let streams = bef_test_support::measured::Streams {
        stdin: Some(stdin.unwrap_or_default()),
        stdout: None,
    };
    bef_test_support::measured::run(command, streams, timeout)
}

/// A hostile BTF file: an offset table of `entries` entries all naming one
/// COO record of i8 [2^40] with `coordinates` stored elements, so that a
/// reader checking each entry's coordinates on its own would scan
/// `entries × coordinates × 8` bytes of a file of about
/// `8 × (entries + coordinates)`.
pub fn shared_coo_btf(entries: u64, coordinates: u64) -> Vec<u8> {
    let indices: Vec<u64> = (0..coordinates).collect();
    let values = vec![1u8; coordinates as usize];
    let one = bef::btf::write(&[bef::btf::TensorToWrite::Coo {
        dtype: bef::btf::BtfDType::I8,
        dims: &[1 << 40],
        indices: &indices,
        values: &values,
    }])
    .expect("a consistent COO record");
    let record = 8 + 8 * entries;
    let mut bytes = entries.to_le_bytes().to_vec();
    for _ in 0..entries {
        bytes.extend_from_slice(&record.to_le_bytes());
    }
    // The writer's file holds the count and one entry before the record.
    bytes.extend_from_slice(&one[16..]);
    bytes
}
