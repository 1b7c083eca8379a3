//! Test support: the host programs of `corpus/`, for unit tests that
//! compare two ways of doing the same work on every one of them.

use std::path::PathBuf;

/// Every `// -----` chunk of every `.mlir` file under `corpus/`, with the
/// file it came from.
pub(crate) fn corpus_chunks() -> Vec<(PathBuf, String)> {
    let mut stack = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")];
    let mut chunks = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("corpus") {
            let path = entry.expect("entry").path();
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
    chunks
}
