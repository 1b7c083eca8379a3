//! Locating corpus files and opening them as the binary would.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use befview::Loaded;

/// The path of `name` under the repository's `corpus/`; fails the test,
/// naming the path, when it is missing.
pub fn corpus(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(name);
    assert!(path.exists(), "corpus file missing: {}", path.display());
    path
}

/// Opens corpus file `name`, naming it by its corpus-relative path so that
/// screens do not depend on where the repository is.
pub fn open(name: &str) -> Loaded {
    let bytes = std::fs::read(corpus(name)).expect("corpus file is readable");
    Loaded::from_bytes(&Path::new("corpus").join(name), &bytes).expect("corpus file opens")
}
