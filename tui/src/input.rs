//! Reading the file given on the command line. Only a regular file is
//! read: a FIFO, a device or a directory is refused with what it is
//! (opened without blocking, so a FIFO without a writer cannot hang).
//! Files up to [`READ_LIMIT`] are read into memory, so that another
//! process truncating them cannot take bytes away; larger files are
//! mapped and watched, so a fault from their truncation ends befview with
//! a message instead of a broken terminal (`bef::tool_io::sigbus`).

use std::fmt;
use std::fs::OpenOptions;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

use bef::format::BefBuffer;
use bef::tool_io::escape;

/// Why a file could not be opened.
#[derive(Debug)]
pub struct LoadError(pub String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.trim_end())
    }
}

impl std::error::Error for LoadError {}

/// The largest file read into memory; larger files are mapped.
pub const READ_LIMIT: u64 = 64 << 20;

/// What a file that is not regular is, in words.
fn kind_of(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a FIFO (named pipe)"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Reads `path`: into memory up to [`READ_LIMIT`], mapped and watched
/// beyond.
pub fn read(path: &Path) -> Result<BefBuffer, LoadError> {
    let shown = escape::path(path);
    let cannot = |e: std::io::Error| LoadError(format!("error: cannot read {shown}: {e}"));
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(cannot)?;
    // The opened file is what is checked, so a name swapped meanwhile
    // cannot slip a device in.
    let meta = file.metadata().map_err(cannot)?;
    if !meta.file_type().is_file() {
        return Err(LoadError(format!(
            "error: cannot read {shown}: it is {}, and befview reads regular files \
             (save a stream to a file first)",
            kind_of(meta.file_type())
        )));
    }
    if meta.len() <= READ_LIMIT {
        // Up to the limit, not the length: files under /proc report 0.
        let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
        (&file)
            .take(READ_LIMIT + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() as u64 > READ_LIMIT {
            return Err(LoadError(format!(
                "error: cannot read {shown}: it grew past {} MiB while it was read",
                READ_LIMIT >> 20
            )));
        }
        return Ok(BefBuffer::copy_from(&bytes));
    }
    Ok(BefBuffer::map_file(&file).map_err(cannot)?.watched(path))
}
