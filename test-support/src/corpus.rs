//! The repository's `corpus/`, where every file a test reads lives. A
//! missing input fails the test with its path; no test skips for lack of
//! one.

use std::path::{Path, PathBuf};

/// The repository root: the nearest directory holding `corpus/` above the
/// running test's package (`CARGO_MANIFEST_DIR`, which cargo sets when it
/// runs a test). Found at run time: a path compiled into this crate would
/// name whichever checkout built it first when checkouts share a target
/// directory.
pub fn repo_root() -> PathBuf {
    let start = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    start
        .ancestors()
        .find(|dir| dir.join("corpus").is_dir() && dir.join("Cargo.toml").is_file())
        .unwrap_or_else(|| panic!("no repository with a corpus/ above {}", start.display()))
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
    files_in(dir, |p| p.extension().is_some_and(|e| e == ext))
}

/// Every file directly in `corpus/<dir>` (fuzz seeds, say), sorted; fails
/// the test when there are none.
pub fn corpus_dir_files(dir: &str) -> Vec<PathBuf> {
    files_in(dir, |p| p.is_file())
}

fn files_in(dir: &str, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let dir = corpus_path(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| keep(p))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no test inputs in {} (they belong in the repository)",
        dir.display()
    );
    files
}

/// A fresh directory for one test's files, under the system's temporary
/// directory.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bef-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
