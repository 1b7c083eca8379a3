//! Reading the file given on the command line. Only a regular file is
//! read, and none under `/proc`, `/sys` or `/dev` (the named-file policy):
//! a FIFO, a device or a directory is refused with what it is (opened
//! without blocking, so a FIFO without a writer cannot hang).
//! Files up to [`READ_LIMIT`] are read into memory, so that another
//! process truncating them cannot take bytes away; larger files are
//! mapped and watched, so a fault from their truncation ends befview with
//! a message instead of a broken terminal (`bef::tool_io::sigbus`).

use std::fmt;
use std::io::Read;
use std::path::Path;

use bef::format::BefBuffer;
use bef::tool_io::escape;
use bef::tool_io::named_files::{self, NamedFileKind, Reason};

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

/// Reads `path`: into memory up to [`READ_LIMIT`], mapped and watched
/// beyond. The named-file policy decides whether it is read at all
/// (`bef::tool_io::named_files`, as a file the user names, of any size):
/// nothing under `/proc`, `/sys` or `/dev` or linking there, nothing but
/// a regular file.
pub fn read(path: &Path) -> Result<BefBuffer, LoadError> {
    let shown = escape::path(path);
    let cannot = |e: std::io::Error| LoadError(format!("error: cannot read {shown}: {e}"));
    // The opened file is what is checked, so a name swapped meanwhile
    // cannot slip a device in.
    let (file, len) = named_files::open(path, NamedFileKind::UserNamed, u64::MAX).map_err(|e| {
        LoadError(match &e.reason {
            Reason::Io(io) => format!("error: cannot read {shown}: {io}"),
            Reason::NotRegular(kind) => format!(
                "error: cannot read {shown}: it is {kind}, and befview reads regular files \
                 (save a stream to a file first)"
            ),
            _ => format!(
                "error: cannot read {shown}: {}, and befview reads regular files",
                e.why()
            ),
        })
    })?;
    if len <= READ_LIMIT {
        // Up to the limit, not the length: a file may grow meanwhile.
        let mut bytes = Vec::with_capacity(len as usize + 1);
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
