//! The one policy for files named inside a file.
//!
//! A BEF file's locations name source files, and a recording names the
//! program it ran. Those files come from whoever wrote the file being
//! opened, so reading "the file it names" must not become a way to show the
//! user's secrets (`/etc/passwd`, `/proc/self/environ`), to read
//! `/dev/zero` until memory runs out, or to block on a FIFO. A named file is
//! read only if:
//! - its name, and the path it resolves to after following links, end in
//!   an extension of its [`NamedFileKind`];
//! - the resolved path is not under `/proc`, `/sys` or `/dev`, and the
//!   opened file is not on a proc or sysfs file system (checked on the
//!   open descriptor, so a link swapped after the check does not help);
//! - the opened file is a regular file of at most
//!   [`MAX_NAMED_FILE_BYTES`] (opened without blocking, read with that
//!   bound even if it grows).
//!
//! Anything else is [`NotRead`], whose message says why, for the tool to
//! show in place of the content.
//!
//! Files the user names on the command line ([`NamedFileKind::UserNamed`]:
//! `bef run --source`, `--args @FILE`, `befview --program`, `bef-trace
//! --program`) may have any extension; every other rule holds. Data files
//! a call or a program names (`{"btf": PATH}`, `btf.read_dense_tensor`)
//! are opened with [`open`] under [`MAX_DATA_FILE_BYTES`], since they are
//! read piece by piece, never whole.

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::escape;

/// Largest named file read, in bytes.
pub const MAX_NAMED_FILE_BYTES: u64 = 16 << 20;

/// Largest data file opened with [`open`] (a BTF file of weights), in
/// bytes: such a file is read a record at a time, each record bounded by
/// its reader, so the bound only keeps a sparse or endless file out.
pub const MAX_DATA_FILE_BYTES: u64 = 64 << 30;

/// Directories whose files are never read, whatever their names.
const SYSTEM_DIRECTORIES: [&str; 3] = ["/proc", "/sys", "/dev"];

/// What a file is named as, which decides the extensions it may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedFileKind {
    /// MLIR source text a location names (`.mlir`).
    Source,
    /// The program a recording names (`.mlir`, `.mlirbc`, `.bef`).
    Program,
    /// A file the user named on the command line (`--source FILE`): any
    /// extension, every other rule still holds.
    UserNamed,
}

impl NamedFileKind {
    /// The extensions a file of this kind may have; empty for any.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            NamedFileKind::Source => &["mlir"],
            NamedFileKind::Program => &["mlir", "mlirbc", "bef"],
            NamedFileKind::UserNamed => &[],
        }
    }

    fn allows(self, path: &Path) -> bool {
        let allowed = self.extensions();
        allowed.is_empty()
            || path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| allowed.iter().any(|a| a.eq_ignore_ascii_case(e)))
    }
}

/// Why a named file was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The name, or the path it resolves to, has another extension.
    Extension {
        /// The extensions allowed.
        allowed: &'static [&'static str],
        /// The path whose extension is wrong (the name or its target).
        path: PathBuf,
    },
    /// The file is, or resolves to, a file under `/proc`, `/sys` or
    /// `/dev`.
    SystemFile(PathBuf),
    /// Not a regular file: a directory, device, FIFO or socket.
    NotRegular(&'static str),
    /// Larger than the bound it is read or opened with.
    TooLarge {
        /// The file's size (or what was read of it).
        len: u64,
        /// The bound.
        limit: u64,
    },
    /// The file could not be resolved, opened or read.
    Io(String),
}

/// A named file that was not read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotRead {
    /// The name as the file spelled it.
    pub path: PathBuf,
    /// Why it was not read.
    pub reason: Reason,
}

impl NotRead {
    /// Why the file was not read, without its name (escaped).
    pub fn why(&self) -> String {
        Why(self).to_string()
    }
}

impl fmt::Display for NotRead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not read: {}: {}", escape::path(&self.path), Why(self))
    }
}

/// The reason part of a [`NotRead`]'s message.
struct Why<'a>(&'a NotRead);

impl fmt::Display for Why<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let this = self.0;
        match &this.reason {
            Reason::Extension { allowed, path } => {
                let list: Vec<String> = allowed.iter().map(|e| format!(".{e}")).collect();
                if path == &this.path {
                    write!(f, "not a {} file", list.join(", "))
                } else {
                    write!(
                        f,
                        "links to {}, not a {} file",
                        escape::path(path),
                        list.join(", ")
                    )
                }
            }
            Reason::SystemFile(path) => {
                write!(f, "{} is a system file", escape::path(path))
            }
            Reason::NotRegular(kind) => write!(f, "{kind}, not a regular file"),
            Reason::TooLarge { len, limit } => {
                write!(f, "{len} bytes, more than the {limit} read of a named file")
            }
            Reason::Io(error) => write!(f, "{}", escape::terminal(error)),
        }
    }
}

impl std::error::Error for NotRead {}

/// Reads the file `path` names if the policy allows it (see the module
/// documentation), at most [`MAX_NAMED_FILE_BYTES`].
pub fn read(path: &Path, kind: NamedFileKind) -> Result<Vec<u8>, NotRead> {
    let (file, len) = open(path, kind, MAX_NAMED_FILE_BYTES)?;
    let refuse = |reason| NotRead {
        path: path.to_path_buf(),
        reason,
    };
    let mut bytes = Vec::with_capacity(len as usize);
    // The file may grow after the check: never read past the limit.
    file.take(MAX_NAMED_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(Reason::Io(e.to_string())))?;
    if bytes.len() as u64 > MAX_NAMED_FILE_BYTES {
        return Err(refuse(Reason::TooLarge {
            len: bytes.len() as u64,
            limit: MAX_NAMED_FILE_BYTES,
        }));
    }
    Ok(bytes)
}

/// Opens the file `path` names if the policy allows it, checking
/// everything [`read`] does before a byte is read, with `limit` as the
/// size bound; returns the open file and its size. Whoever reads it must
/// not read past `limit` (files on some file systems report size 0).
pub fn open(path: &Path, kind: NamedFileKind, limit: u64) -> Result<(File, u64), NotRead> {
    let refuse = |reason| NotRead {
        path: path.to_path_buf(),
        reason,
    };
    if !kind.allows(path) {
        return Err(refuse(Reason::Extension {
            allowed: kind.extensions(),
            path: path.to_path_buf(),
        }));
    }
    let resolved = path
        .canonicalize()
        .map_err(|e| refuse(Reason::Io(e.to_string())))?;
    if SYSTEM_DIRECTORIES.iter().any(|d| resolved.starts_with(d)) {
        return Err(refuse(Reason::SystemFile(resolved)));
    }
    if !kind.allows(&resolved) {
        return Err(refuse(Reason::Extension {
            allowed: kind.extensions(),
            path: resolved,
        }));
    }
    let file = open_without_blocking(&resolved).map_err(|e| refuse(Reason::Io(e.to_string())))?;
    let meta = file
        .metadata()
        .map_err(|e| refuse(Reason::Io(e.to_string())))?;
    if !meta.is_file() {
        return Err(refuse(Reason::NotRegular(file_type_name(&meta))));
    }
    if on_system_file_system(&file) {
        return Err(refuse(Reason::SystemFile(resolved)));
    }
    if meta.len() > limit {
        return Err(refuse(Reason::TooLarge {
            len: meta.len(),
            limit,
        }));
    }
    Ok((file, meta.len()))
}

/// [`read`] as text, invalid UTF-8 replaced.
pub fn read_text(path: &Path, kind: NamedFileKind) -> Result<String, NotRead> {
    let bytes = read(path, kind)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Opens `path` for reading without blocking (a FIFO put in place of a
/// file would otherwise block the open) and without becoming the
/// controlling terminal; the last component must not be a link (the path
/// is already resolved, so a link there was put in since).
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_NOFOLLOW);
    }
    options.open(path)
}

fn file_type_name(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// `true` when `file` lies on a proc or sysfs file system, whose "regular"
/// files report size 0 and show process and kernel state.
#[cfg(target_os = "linux")]
fn on_system_file_system(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    const PROC_SUPER_MAGIC: i64 = 0x9fa0;
    const SYSFS_MAGIC: i64 = 0x6265_6572;
    let mut stat = std::mem::MaybeUninit::<libc::statfs>::zeroed();
    // SAFETY: the descriptor is open for the call's duration and `stat`
    // is a writable statfs the kernel fills in.
    let status = unsafe { libc::fstatfs(file.as_raw_fd(), stat.as_mut_ptr()) };
    if status != 0 {
        // Cannot tell: refuse rather than read something unknown.
        return true;
    }
    // f_type's integer type differs between targets.
    #[allow(clippy::unnecessary_cast)]
    // SAFETY: fstatfs returned 0, so it initialised `stat`.
    let kind = unsafe { stat.assume_init() }.f_type as i64;
    kind == PROC_SUPER_MAGIC || kind == SYSFS_MAGIC
}

#[cfg(not(target_os = "linux"))]
fn on_system_file_system(_file: &File) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("bef-named-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn reads_sources_with_their_extension() {
        let dir = scratch("read");
        let mlir = dir.join("p.mlir");
        std::fs::write(&mlir, "func.func @f()\n").unwrap();
        assert_eq!(
            read(&mlir, NamedFileKind::Source).unwrap(),
            b"func.func @f()\n"
        );
        let bef = dir.join("p.BEF");
        std::fs::write(&bef, "x").unwrap();
        assert!(read(&bef, NamedFileKind::Program).is_ok());
        let err = read(&bef, NamedFileKind::Source).unwrap_err();
        assert!(matches!(err.reason, Reason::Extension { .. }), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn system_files_are_refused_whatever_their_name() {
        for path in ["/proc/self/environ", "/dev/zero", "/sys/kernel/mm"] {
            let err = read(Path::new(path), NamedFileKind::UserNamed).unwrap_err();
            assert!(matches!(err.reason, Reason::SystemFile(_)), "{err}");
        }
        let err = read(Path::new("/etc/passwd"), NamedFileKind::Program).unwrap_err();
        assert!(matches!(err.reason, Reason::Extension { .. }), "{err}");
        #[cfg(unix)]
        {
            let dir = scratch("links");
            for (name, target) in [
                ("environ.mlir", "/proc/self/environ"),
                ("zero.mlir", "/dev/zero"),
                ("passwd.mlir", "/etc/passwd"),
            ] {
                let link = dir.join(name);
                std::os::unix::fs::symlink(target, &link).unwrap();
                let err = read(&link, NamedFileKind::Source).unwrap_err();
                let shown = err.to_string();
                assert!(shown.starts_with("not read: "), "{shown}");
                let top = target.split('/').nth(1).unwrap();
                assert!(
                    shown.contains(&format!("links to /{top}"))
                        || shown.contains(&format!(": /{top}")),
                    "{shown}"
                );
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_directories_are_refused_without_blocking() {
        let dir = scratch("fifo");
        let fifo = dir.join("pipe.mlir");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `name` is a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let err = read(&fifo, NamedFileKind::Source).unwrap_err();
        assert_eq!(err.reason, Reason::NotRegular("a FIFO"));
        let sub = dir.join("sub.mlir");
        std::fs::create_dir(&sub).unwrap();
        let err = read(&sub, NamedFileKind::Source).unwrap_err();
        assert!(
            matches!(err.reason, Reason::Io(_) | Reason::NotRegular(_)),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn large_files_are_refused() {
        let dir = scratch("large");
        let big = dir.join("big.mlir");
        File::create(&big)
            .unwrap()
            .set_len(MAX_NAMED_FILE_BYTES + 1)
            .unwrap();
        let err = read(&big, NamedFileKind::Source).unwrap_err();
        assert_eq!(
            err.reason,
            Reason::TooLarge {
                len: MAX_NAMED_FILE_BYTES + 1,
                limit: MAX_NAMED_FILE_BYTES
            }
        );
        let (_, len) = open(&big, NamedFileKind::UserNamed, MAX_DATA_FILE_BYTES).unwrap();
        assert_eq!(len, MAX_NAMED_FILE_BYTES + 1);
        let err = open(
            Path::new("/proc/self/environ"),
            NamedFileKind::UserNamed,
            u64::MAX,
        )
        .unwrap_err();
        assert!(matches!(err.reason, Reason::SystemFile(_)), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn messages_escape_the_name() {
        let err = read(Path::new("/tmp/\u{1b}]0;pwned\u{7}"), NamedFileKind::Source).unwrap_err();
        let shown = err.to_string();
        assert!(!shown.contains('\u{1b}'), "{shown}");
        assert!(shown.contains("not a .mlir file"), "{shown}");
    }
}
