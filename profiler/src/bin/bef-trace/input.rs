//! The files named on the command line, each checked by the named-file
//! policy (`bef::tool_io::named_files`, as a file the user names): a
//! regular file outside `/proc`, `/sys` and `/dev`, not a link into them,
//! opened without blocking (a FIFO would block the tool or read as empty,
//! a device such as `/dev/zero` would never end) and checked again once
//! open. A program given with `--program` is read under the policy's
//! 16 MiB bound; a program to record must pass the same checks before the
//! run opens it; a recording is read whole.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use bef::tool_io::escape;
use bef::tool_io::named_files::{self, NamedFileKind, NotRead};

/// Why `what` at `path` is refused, for messages.
fn refused(what: &str, not_read: &NotRead) -> String {
    let name = escape::path(&not_read.path);
    match &not_read.reason {
        named_files::Reason::Io(e) => format!("cannot read {what} {name}: {e}"),
        named_files::Reason::NotRegular(kind) => {
            format!("{what} {name} is {kind}; bef-trace reads regular files")
        }
        named_files::Reason::SystemFile(_) => format!(
            "{what} {name}: {}; bef-trace reads regular files",
            not_read.why()
        ),
        _ => format!("{what} {name}: {}", not_read.why()),
    }
}

/// Opens `path` as the policy allows, of any size; `what` names it.
fn open(path: &Path, what: &str) -> Result<(File, u64), String> {
    named_files::open(path, NamedFileKind::UserNamed, u64::MAX).map_err(|e| refused(what, &e))
}

/// Fails unless the policy allows reading `path`; `what` names it.
pub fn regular_file(path: &Path, what: &str) -> Result<(), String> {
    open(path, what).map(drop)
}

/// The bytes of the program given at `path` (`--program FILE`), at most
/// [`named_files::MAX_NAMED_FILE_BYTES`].
pub fn read_program(path: &Path) -> Result<Vec<u8>, String> {
    named_files::read(path, NamedFileKind::UserNamed).map_err(|e| refused("program", &e))
}

/// The bytes of the recording at `path`.
pub fn read_recording(path: &Path) -> Result<Vec<u8>, String> {
    let name = escape::path(path);
    let (file, len) = open(path, "recording")?;
    let cannot = |e: std::io::Error| format!("cannot read recording {name}: {e}");
    // The first bytes first: a file that is no recording is not read whole.
    let magic = bef_trace::capture::codec::MAGIC;
    let mut bytes = Vec::new();
    (&file)
        .take(magic.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() == magic.len() && bytes.as_slice() != magic.as_slice() {
        return Err(format!(
            "{name}: not a valid bef-trace recording ({len} bytes): expected the magic \"{}\" \
             at byte 0",
            String::from_utf8_lossy(magic)
        ));
    }
    bytes.reserve(len.try_into().unwrap_or(0));
    (&file).read_to_end(&mut bytes).map_err(cannot)?;
    Ok(bytes)
}
