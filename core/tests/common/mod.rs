//! Support shared by the integration tests: the repository's `corpus/`,
//! where every file a test reads lives, and the `bef` binary. A missing
//! input fails the test with its path; no test skips for lack of one.

#![allow(dead_code)] // each test binary uses its own part

pub mod counting;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root (the working directory of `bef` in these tests).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core/ has a parent")
        .to_path_buf()
}

/// `corpus/<relative>`; fails the test when it does not exist.
pub fn corpus_path(relative: &str) -> PathBuf {
    let path = repo_root().join("corpus").join(relative);
    assert!(
        path.exists(),
        "test input {} is missing (it belongs in the repository's corpus/)",
        path.display()
    );
    path
}

/// The bytes of `corpus/<relative>`.
pub fn read_corpus(relative: &str) -> Vec<u8> {
    let path = corpus_path(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files directly in `corpus/<dir>` whose extension is `ext`, sorted;
/// fails the test when there are none.
pub fn corpus_files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = corpus_path(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .{ext} files in {} (test inputs missing)",
        dir.display()
    );
    files
}

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
