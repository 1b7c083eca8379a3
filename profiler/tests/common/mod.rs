//! Support shared by the profiler's integration tests: the repository's
//! `corpus/`, and recording a corpus program through the library.

#![allow(dead_code, unused_imports)] // each test binary uses its own part

pub use bef_test_support::counting;
pub mod hostile;
#[cfg(unix)]
pub mod measured;

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use bef_trace::{RecordOptions, Recording, record_file};

pub use bef_test_support::corpus::{corpus_path, repo_root};

/// The `.mlir` files directly in `corpus/<dir>`, sorted.
pub fn corpus_files(dir: &str) -> Vec<PathBuf> {
    bef_test_support::corpus::corpus_files(dir, "mlir")
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

/// Records every argument-free function of `corpus/<relative>` on the
/// default queue, keeping `keep` of at most `events` events per thread.
pub fn record_keeping(
    relative: &str,
    keep: bef_trace::capture::recording::Keep,
    events: usize,
) -> Recording {
    let options = RecordOptions {
        recorder: bef_trace::RecorderOptions {
            events_per_thread: events,
            keep,
            ..Default::default()
        },
        ..Default::default()
    };
    record_file(&corpus_path(relative), &options, |_| {})
        .unwrap_or_else(|e| panic!("{relative} keeping {events}: {e}"))
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
