//! Locating corpus files and opening them as the binary would.

#![allow(dead_code, unused_imports)] // each test binary uses its own part

use std::path::{Path, PathBuf};

use befview::Loaded;

/// The path of `name` under the repository's `corpus/`; fails the test,
/// naming the path, when it is missing.
pub fn corpus(name: &str) -> PathBuf {
    bef_test_support::corpus::corpus_path(name)
}

/// Opens corpus file `name`, naming it by its corpus-relative path so that
/// screens do not depend on where the repository is.
pub fn open(name: &str) -> Loaded {
    let bytes = std::fs::read(corpus(name)).expect("corpus file is readable");
    Loaded::from_bytes(&Path::new("corpus").join(name), &bytes).expect("corpus file opens")
}

pub use bef_test_support::measured::Measured;
pub use bef_test_support::terminal::unsafe_character;

/// Runs `befview ARGS` in `cwd` with `env` added to its environment and
/// standard input empty, killing it after `timeout`; measures its wall
/// time and peak resident memory.
pub fn befview_measured(
    args: &[&std::ffi::OsStr],
    cwd: &Path,
    env: &[(&str, &str)],
    timeout: std::time::Duration,
) -> Measured {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_befview"));
    command
        .args(args)
        .current_dir(cwd)
        .envs(env.iter().copied());
    bef_test_support::measured::run(command, Default::default(), timeout)
}
