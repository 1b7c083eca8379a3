//! The source text a recording keeps (unless `--no-source`): every file
//! the program's locations name that the tools would read, read by the
//! named-file policy (`bef::tool_io::named_files`: `.mlir` files only,
//! nothing under `/proc`, `/sys` or `/dev`, no device or FIFO, at most
//! [`MAX_NAMED_FILE_BYTES`] a file), so that a recording moved to another
//! machine still shows the lines its kernels came from. For a program in
//! MLIR text, its locations name the program itself.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use bef::tool_io::named_files::{self, MAX_NAMED_FILE_BYTES, NamedFileKind};

use crate::capture::recording::EmbeddedSource;

/// The most source files a recording keeps.
pub const MAX_SOURCE_FILES: usize = 64;

/// The most bytes of source text a recording keeps, all files together.
pub const MAX_SOURCE_BYTES: u64 = MAX_NAMED_FILE_BYTES;

/// How many distinct names of the locations are looked for: each costs a
/// file system lookup or two.
const MAX_NAMES_TRIED: usize = 1024;

/// The source files the locations of the BEF `bytes` name (the program at
/// `program`), each looked for as named (relative to the working
/// directory) and beside the program, as `befview` looks for them; those
/// the policy refuses, and those past the bounds, are left out.
pub fn collect(program: &Path, bytes: &[u8]) -> Vec<EmbeddedSource> {
    let Ok(listing) = bef::inspect::Listing::new(bytes) else {
        return Vec::new();
    };
    let beside = program.parent().unwrap_or(Path::new(""));
    let mut tried = HashSet::new();
    let mut sources = Vec::new();
    let mut total = 0u64;
    for row in listing.location_strings().rows() {
        if tried.len() >= MAX_NAMES_TRIED || sources.len() >= MAX_SOURCE_FILES {
            break;
        }
        let name = row.text().into_owned();
        if name.is_empty() || !tried.insert(name.clone()) {
            continue;
        }
        let candidates = [PathBuf::from(&name), beside.join(&name)];
        let Some(text) = candidates
            .iter()
            .find_map(|path| named_files::read_text(path, NamedFileKind::Source).ok())
        else {
            continue;
        };
        if total + text.len() as u64 > MAX_SOURCE_BYTES {
            continue;
        }
        total += text.len() as u64;
        sources.push(EmbeddedSource { name, text });
    }
    sources
}
