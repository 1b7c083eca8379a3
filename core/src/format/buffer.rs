//! Owned BEF bytes at an 8-byte-aligned address: a memory map of a file,
//! or an aligned copy of bytes from elsewhere (stdin, network, tests).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::error::DecodeResult;
use super::file::BefFile;
use crate::tool_io::sigbus::Watch;

/// The most read from a stream (standard input, a pipe, a device) into
/// memory.
pub const MAX_STREAMED_BYTES: u64 = 256 << 20;

/// BEF bytes owned at an 8-byte-aligned address, as `BefFile` requires:
/// memory-mapped or copied (see the module docs).
pub struct BefBuffer {
    storage: Storage,
}

enum Storage {
    Mapped {
        /// Declared before `map`, so that it is dropped (unwatched) first.
        watch: Option<Watch>,
        map: memmap2::Mmap,
    },
    /// `u64` words guarantee 8-byte alignment; `len` is the byte length.
    Aligned { words: Vec<u64>, len: usize },
}

impl BefBuffer {
    /// Memory-maps `path` (page aligned, so no copy is needed).
    pub fn map(path: &Path) -> io::Result<BefBuffer> {
        BefBuffer::map_file(&File::open(path)?)
    }

    /// Memory-maps the file `file` is open on (for a caller that has
    /// already checked what kind of file it opened).
    pub fn map_file(file: &File) -> io::Result<BefBuffer> {
        if file.metadata()?.len() == 0 {
            // Zero-length maps are not portable; an empty copy is the same.
            return Ok(BefBuffer::copy_from(&[]));
        }
        // SAFETY: the map is read-only and private to this process. If
        // another process truncates the file while it is mapped, reads may
        // fault (SIGBUS); that is the documented cost of mmap, accepted by
        // every mmap-based loader, and the reference loader alike (a tool
        // reports it instead: `watched`).
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(BefBuffer {
            storage: Storage::Mapped { watch: None, map },
        })
    }

    /// The buffer, its mapping watched ([`crate::tool_io::sigbus`]): until
    /// it is dropped, another process truncating `path` under it ends the
    /// process with status 1 and a message naming `path`, not a silent
    /// SIGBUS. A copy cannot fault and is returned as it is. This installs
    /// a process-wide signal handler, so only readers of the files a user
    /// names ask for it: the tools, and `exec::Input::read` they share.
    pub fn watched(mut self, path: &Path) -> BefBuffer {
        if let Storage::Mapped { watch, map } = &mut self.storage {
            *watch = Some(Watch::new(path, map));
        }
        self
    }

    /// Copies `bytes` into an 8-byte-aligned buffer.
    pub fn copy_from(bytes: &[u8]) -> BefBuffer {
        let mut words = vec![0u64; bytes.len().div_ceil(8)];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
            let mut raw = [0u8; 8];
            raw[..chunk.len()].copy_from_slice(chunk);
            *word = u64::from_ne_bytes(raw);
        }
        BefBuffer {
            storage: Storage::Aligned {
                words,
                len: bytes.len(),
            },
        }
    }

    /// Reads everything from `reader` (e.g. stdin, a pipe) into an aligned
    /// buffer; more than [`MAX_STREAMED_BYTES`] is an error (a stream such
    /// as `/dev/zero` never ends; a file that large should be mapped).
    pub fn read_from(reader: impl Read) -> io::Result<BefBuffer> {
        let mut bytes = Vec::new();
        reader
            .take(MAX_STREAMED_BYTES + 1)
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > MAX_STREAMED_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::FileTooLarge,
                format!(
                    "more than {} MiB from a stream; save it to a file, which is mapped instead",
                    MAX_STREAMED_BYTES >> 20
                ),
            ));
        }
        Ok(BefBuffer::copy_from(&bytes))
    }

    /// Maps `path`, or reads stdin when `path` is `-`.
    pub fn load(path: &Path) -> io::Result<BefBuffer> {
        if path == Path::new("-") {
            BefBuffer::read_from(io::stdin().lock())
        } else {
            BefBuffer::map(path)
        }
    }

    /// The whole file's bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.storage {
            Storage::Mapped { map, .. } => map,
            Storage::Aligned { words, len } => {
                // SAFETY: `words` owns `words.len() * 8 >= len` initialized
                // bytes; any byte pattern is a valid u8 and the returned
                // slice borrows `self`, so it cannot outlive the vector.
                unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), *len) }
            }
        }
    }

    /// Opens the bytes as a BEF file.
    pub fn open(&self) -> DecodeResult<BefFile<'_>> {
        BefFile::open(self.bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_are_aligned_and_exact() {
        for len in [0, 1, 7, 8, 9, 27] {
            let bytes: Vec<u8> = (0..len as u8).collect();
            let buffer = BefBuffer::copy_from(&bytes);
            assert_eq!(buffer.bytes(), &bytes[..]);
            assert_eq!(buffer.bytes().as_ptr() as usize % 8, 0);
        }
    }
}
