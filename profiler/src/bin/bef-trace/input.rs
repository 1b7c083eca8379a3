//! The files named on the command line: a recording is read whole only if
//! it is a regular file (a FIFO would block the tool or read as empty, a
//! device such as `/dev/zero` would never end), opened without blocking
//! and checked again once open; a program to record must be a regular
//! file too, before the run opens it.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use bef::tool_io::escape;

/// What a file that is not regular is, for messages.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    }
}

/// Fails unless `path` (after links) is a regular file; `what` names it.
pub fn regular_file(path: &Path, what: &str) -> Result<(), String> {
    let name = escape::path(path);
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {what} {name}: {e}"))?;
    if meta.is_file() {
        return Ok(());
    }
    Err(format!(
        "{what} {name} is {}; bef-trace reads regular files",
        kind(&meta)
    ))
}

/// The bytes of the recording at `path`.
pub fn read_recording(path: &Path) -> Result<Vec<u8>, String> {
    let name = escape::path(path);
    regular_file(path, "recording")?;
    // Without blocking, should it have become a FIFO since.
    let mut file: File = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| format!("cannot read recording {name}: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read recording {name}: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "recording {name} is {}; bef-trace reads regular files",
            kind(&meta)
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len().try_into().unwrap_or(0));
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read recording {name}: {e}"))?;
    Ok(bytes)
}
