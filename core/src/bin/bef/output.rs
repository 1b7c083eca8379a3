//! Where `bef translate` and `bef opt` write: checked before any work is
//! done (never over the input, never into a directory that is missing),
//! and written whole or not at all (`bef::tool_io::output`).

use std::io::{IsTerminal, Write};
use std::path::Path;

use bef::tool_io::output::{self, AtomicFile};

use crate::failure::Failure;

/// A usage error (exit status 2) unless `path` may be written without
/// destroying `input`.
pub fn check(path: &Path, input: &Path) -> Result<(), Failure> {
    output::refuse_input(path, &[input]).map_err(|e| Failure::Usage(e.to_string()))
}

/// Writes `bytes` to `path` (`-`: standard output, which refuses binary
/// output when it is a terminal).
pub fn write(path: &Path, bytes: &[u8], binary: bool) -> Result<(), Failure> {
    if path.as_os_str() == "-" {
        let stdout = std::io::stdout();
        if binary && stdout.is_terminal() {
            return Err(Failure::Usage(
                "refusing to write binary output (BEF or MLIR bytecode) to a terminal; redirect it or pass -o FILE".into(),
            ));
        }
        let mut lock = stdout.lock();
        lock.write_all(bytes)?;
        lock.flush()?;
        return Ok(());
    }
    let mut file = AtomicFile::create(path).map_err(|e| Failure::Usage(e.to_string()))?;
    file.write_all(bytes)
        .and_then(|()| file.commit())
        .map_err(|e| Failure::Message(e.to_string()))
}
