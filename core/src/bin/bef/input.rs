//! Reading a subcommand's input and telling what it is, with the messages
//! a person needs when it is not what the subcommand takes.
//!
//! Path problems (missing, a directory, unreadable) are usage errors (exit
//! status 2): they are found before a byte of input is read. An empty input
//! or one of the wrong kind is an input error (exit status 1).

use crate::console;
use std::fs::File;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use crate::failure::Failure;
use bef::format::{BefBuffer, DecodeError};

/// What the bytes of an input are, by their first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Starts with the BEF magic bytes `0B EF`.
    Bef,
    /// Starts with the MLIR bytecode magic `ML\xefR`.
    Bytecode,
    /// UTF-8 text; `mlir` when it looks like an MLIR program.
    Text { mlir: bool },
    /// Anything else.
    Binary,
    /// Binary Tensor Format, which has no magic number: told by a `.btf`
    /// name.
    Btf,
    /// A `bef-trace` recording (magic `BEFTRACE`), which `befview` and
    /// `bef-trace` read.
    Recording,
}

/// The magic bytes a `bef-trace` recording starts with (its codec's
/// `MAGIC`; `bef-trace` depends on this crate, not the other way round).
const RECORDING_MAGIC: &[u8; 8] = b"BEFTRACE";

/// An input read whole: a memory map of a regular file, or a copy of
/// standard input or a pipe.
pub struct Input {
    /// The path as given (`-` for standard input).
    pub path: PathBuf,
    /// How messages name it: the path, or `<stdin>`.
    pub name: String,
    /// The bytes, 8-byte aligned as BEF requires.
    pub buffer: BefBuffer,
}

/// How messages name `path`.
pub fn display_name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else if path.as_os_str().is_empty() {
        "''".to_string()
    } else {
        path.display().to_string()
    }
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads the input of `bef <command>`, which takes `wanted` (e.g. "a BEF
/// file"). Fails with a usage error when the path cannot be read and with
/// an input error when it is empty.
pub fn load(path: &Path, command: &str, wanted: &str) -> Result<Input, Failure> {
    let name = display_name(path);
    let buffer = if is_stdin(path) {
        if io::stdin().is_terminal() {
            console::err_line(&format!(
                "bef {command}: reading {wanted} from standard input; end it with Ctrl-D, or pass a file name"
            ));
        }
        BefBuffer::read_from(io::stdin().lock())
            .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?
    } else {
        let metadata = std::fs::metadata(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => Failure::Usage(format!("{name} does not exist")),
            _ => Failure::Usage(format!("cannot read {name}: {e}")),
        })?;
        if metadata.is_dir() {
            return Err(Failure::Usage(format!(
                "{name} is a directory; `bef {command}` takes {wanted}"
            )));
        }
        let read = if metadata.is_file() {
            // Mapped and watched: if another process truncates it, say so
            // and stop rather than die of SIGBUS.
            BefBuffer::map(path).map(|buffer| buffer.watched(path))
        } else {
            // A pipe (`<(bef translate x.mlir)`) or a device cannot be
            // mapped; read it. Opened without blocking, so that a FIFO
            // without a writer reads as empty instead of hanging; then
            // read blocking, as a pipe is.
            open_stream(path).and_then(BefBuffer::read_from)
        };
        read.map_err(|e| Failure::Usage(format!("cannot read {name}: {e}")))?
    };
    if buffer.bytes().is_empty() {
        return Err(Failure::Message(format!(
            "{name} is empty; `bef {command}` takes {wanted}"
        )));
    }
    Ok(Input {
        path: path.to_path_buf(),
        name,
        buffer,
    })
}

/// Opens the stream `path` without waiting for a writer, then makes its
/// reads blocking again.
fn open_stream(path: &Path) -> io::Result<File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    // SAFETY: the descriptor is open for both calls; F_GETFL and F_SETFL
    // take and return plain flags.
    unsafe {
        let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
        }
    }
    Ok(file)
}

impl Input {
    /// The input's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.buffer.bytes()
    }

    /// What the bytes are.
    pub fn kind(&self) -> Kind {
        kind_of(self.bytes(), &self.path)
    }

    /// The input is not what `bef <command>` takes (`wanted`, e.g. "BEF"):
    /// says what it is instead and, when it can be translated, how.
    pub fn wrong_kind(&self, command: &str, wanted: &str) -> Failure {
        let found = match self.kind() {
            Kind::Bef => "a BEF file".to_string(),
            Kind::Bytecode => "MLIR bytecode".to_string(),
            Kind::Text { mlir: true } => "MLIR text".to_string(),
            Kind::Text { mlir: false } => "text".to_string(),
            Kind::Btf => "a BTF file".to_string(),
            Kind::Recording => {
                return Failure::Message(format!(
                    "{} is a bef-trace recording, not {wanted}: open it with `befview {}`, or \
                     read it with `bef-trace stats {}` (and bef-trace's other exports)",
                    self.name,
                    shell_word(&self.path),
                    shell_word(&self.path)
                ));
            }
            Kind::Binary => {
                return Failure::Message(format!(
                    "{} is not {wanted}: it starts with the bytes {}, where BEF starts with 0b ef and MLIR bytecode with 4d 4c ef 52 (`ML\\xefR`)",
                    self.name,
                    leading_bytes(self.bytes())
                ));
            }
        };
        let mut message = format!("{} is {found}, not {wanted}", self.name);
        if let Some(hint) = self.translate_hint(command) {
            message.push_str("; ");
            message.push_str(&hint);
        }
        Failure::Message(message)
    }

    /// How to make BEF of this input, for `bef <command>`.
    fn translate_hint(&self, command: &str) -> Option<String> {
        let flag = match self.kind() {
            Kind::Text { mlir: true } => "",
            Kind::Bytecode => "--mlir-to-bef ",
            _ => return None,
        };
        if is_stdin(&self.path) {
            return Some(format!(
                "translate it first: `bef translate {flag}- | bef {command} -`"
            ));
        }
        let mut output = self.path.with_extension("bef");
        if output == self.path {
            output = PathBuf::from(format!("{}.bef", self.path.display()));
        }
        Some(format!(
            "translate it first with `bef translate {flag}{} -o {}`",
            shell_word(&self.path),
            shell_word(&output)
        ))
    }
}

/// The kind of `bytes`, read from `path` (its extension helps to tell MLIR
/// text from other text).
pub fn kind_of(bytes: &[u8], path: &Path) -> Kind {
    if bytes.starts_with(&bef::format::constants::MAGIC) {
        Kind::Bef
    } else if bytes.starts_with(RECORDING_MAGIC) {
        Kind::Recording
    } else if bef::bytecode::is_bytecode(bytes) {
        Kind::Bytecode
    } else if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("btf"))
    {
        Kind::Btf
    } else if let Ok(text) = std::str::from_utf8(bytes) {
        let mlir = path.extension().is_some_and(|e| e == "mlir")
            || ["func.func", "module", "tfrt."]
                .iter()
                .any(|word| text.contains(word));
        Kind::Text { mlir }
    } else {
        Kind::Binary
    }
}

/// A format error in a BEF input: named, with its byte offset.
pub fn invalid_bef(name: &str, error: &DecodeError) -> Failure {
    Failure::Message(format!("{name} is not valid BEF: {error}"))
}

/// Up to the first 4 bytes, in hex.
fn leading_bytes(bytes: &[u8]) -> String {
    let shown: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
    shown.join(" ")
}

/// `path` as one shell word, quoted when it needs to be.
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+=:,@%".contains(c));
    if plain {
        text
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_leading_bytes() {
        let p = Path::new("x");
        assert_eq!(kind_of(&[0x0b, 0xef, 0], p), Kind::Bef);
        assert_eq!(kind_of(b"ML\xefR\x06", p), Kind::Bytecode);
        assert_eq!(kind_of(b"func.func @f() {}", p), Kind::Text { mlir: true });
        assert_eq!(kind_of(b"hello", p), Kind::Text { mlir: false });
        assert_eq!(
            kind_of(b"hello", Path::new("x.mlir")),
            Kind::Text { mlir: true }
        );
        assert_eq!(kind_of(&[0xff, 0xfe], p), Kind::Binary);
    }

    #[test]
    fn paths_quoted_for_the_shell_only_when_needed() {
        assert_eq!(shell_word(Path::new("a/b-c.mlir")), "a/b-c.mlir");
        assert_eq!(shell_word(Path::new("my file.mlir")), "'my file.mlir'");
        assert_eq!(shell_word(Path::new("it's")), r"'it'\''s'");
    }
}
