//! Support shared by the profiler's integration tests: the repository's
//! `corpus/`, and recording a corpus program through the library.

#![allow(dead_code)] // each test binary uses its own part

pub mod counting;
pub mod hostile;
#[cfg(unix)]
pub mod measured;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use bef_trace::{RecordOptions, Recording, record_file};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("profiler/ has a parent")
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

/// The `.mlir` files directly in `corpus/<dir>`, sorted.
pub fn corpus_files(dir: &str) -> Vec<PathBuf> {
    let dir = corpus_path(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no programs in {}", dir.display());
    files
}

/// Records every argument-free function of `corpus/<relative>` on `queue`.
pub fn record(relative: &str, queue: &str) -> Recording {
    let options = RecordOptions {
        work_queue: queue.into(),
        ..Default::default()
    };
    record_file(&corpus_path(relative), &options, |_| {})
        .unwrap_or_else(|e| panic!("{relative} on {queue}: {e}"))
        .0
}

/// Serializes tests that time kernels (two cores: concurrent tests would
/// distort each other's timings).
pub fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` on a thread with a large stack (deeply recursive programs).
pub fn with_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name("main".into())
        .stack_size(64 << 20)
        .spawn(f)
        .expect("spawns")
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p))
}
