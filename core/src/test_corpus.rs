//! Test support: locating files of the repository's `corpus/` for unit
//! tests. Every file a test reads lives there, so a fresh clone tests
//! everything; a missing file fails the test with its path.

use std::path::PathBuf;

pub(crate) use bef_test_support::corpus::corpus_path;

/// Every `// -----` chunk of every host program (`.mlir`) under `corpus/`,
/// with the file it came from. The MLIR bytecode vectors are excluded: they
/// are upstream builtin-dialect programs, not host programs.
pub(crate) fn corpus_chunks() -> Vec<(PathBuf, String)> {
    let vectors = corpus_path("vectors");
    let mut stack = vec![corpus_path("")];
    let mut chunks = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("corpus") {
            let path = entry.expect("entry").path();
            if path == vectors {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "mlir") {
                let text = std::fs::read_to_string(&path).expect("text");
                for chunk in text.split("// -----") {
                    chunks.push((path.clone(), chunk.to_string()));
                }
            }
        }
    }
    assert!(!chunks.is_empty(), "no host programs found under corpus/");
    chunks
}
