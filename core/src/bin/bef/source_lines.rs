//! The source lines `bef run` quotes under runtime errors, and the sources
//! `--verify-diagnostics` reads annotations from.
//!
//! A location in a BEF file names any file at all, and the BEF may come
//! from anyone: quoting "the file it names" would read `/dev/zero` until
//! memory runs out, block on a FIFO, or print a line of `/etc/passwd`. So
//! source text is read only from MLIR sources:
//! - the input, when it is MLIR text, and the files given with `--source`,
//!   which the user named;
//! - a file a location names if its name ends in `.mlir` (as the sources
//!   of `--verify-diagnostics` runs do).
//!
//! and, of those, only what `bef::tool_io::named_files` allows: regular
//! files after following links, outside `/proc`, `/sys` and `/dev`, of at
//! most `MAX_NAMED_FILE_BYTES`. Each file is read at most once per run and
//! its lines indexed once: the many errors of a loop quote their lines
//! from the cache.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bef::ir;
use bef::text::{self, LineIndex, SourceLine};
use bef::tool_io::named_files::{self, NamedFileKind};

/// A source file's text with its lines indexed.
#[derive(Debug)]
pub struct SourceFile {
    /// The text (invalid UTF-8 replaced).
    pub text: String,
    /// Where each line of `text` starts.
    pub index: LineIndex,
}

impl SourceFile {
    fn new(text: String) -> SourceFile {
        let index = LineIndex::new(&text);
        SourceFile { text, index }
    }
}

/// A file the user named: read whatever its name, and also used for
/// locations that name it by another path or from another directory.
struct Named {
    path: PathBuf,
    canonical: Option<PathBuf>,
}

/// The source files of one run, read on first use.
pub struct SourceLines {
    named: Vec<Named>,
    cache: Mutex<Cache>,
}

/// What has been looked up; `None` for what is not read.
#[derive(Default)]
struct Cache {
    /// By the file name as locations spell it.
    by_name: HashMap<String, Option<Arc<SourceFile>>>,
    /// By the path read (canonical when it exists), so that two spellings
    /// of one file read it once.
    by_path: HashMap<PathBuf, Option<Arc<SourceFile>>>,
}

impl SourceLines {
    /// Sources for a run whose input is `input` (the MLIR text on the
    /// command line, `None` for BEF or standard input) and whose
    /// `--source` files are `sources`. A `--source` the named-file policy
    /// refuses is an error now rather than silence later.
    pub fn new(input: Option<&Path>, sources: &[PathBuf]) -> Result<SourceLines, String> {
        let mut named = Vec::new();
        for path in sources {
            // Checked now, by the policy that reads it later.
            named_files::open(
                path,
                NamedFileKind::UserNamed,
                named_files::MAX_NAMED_FILE_BYTES,
            )
            .map_err(|not_read| format!("source {}: {}", path.display(), not_read.why()))?;
            named.push(Named {
                path: path.clone(),
                canonical: path.canonicalize().ok(),
            });
        }
        if let Some(path) = input {
            named.push(Named {
                path: path.to_path_buf(),
                canonical: path.canonicalize().ok(),
            });
        }
        Ok(SourceLines {
            named,
            cache: Mutex::new(Cache::default()),
        })
    }

    /// The source a location's `file` names, read (once) if it may be.
    pub fn get(&self, file: &str) -> Option<Arc<SourceFile>> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = cache.by_name.get(file) {
            return found.clone();
        }
        let found = self.path_for(file).and_then(|(path, kind)| {
            let key = path.canonicalize().unwrap_or_else(|_| path.clone());
            cache
                .by_path
                .entry(key)
                .or_insert_with(|| read_source(&path, kind).map(Arc::new))
                .clone()
        });
        cache.by_name.insert(file.to_string(), found.clone());
        found
    }

    /// The path to read for `file`, and what it is read as: a named file
    /// it spells, is, or (from another directory) has the name of; else
    /// `file` itself as a source a location names.
    fn path_for(&self, file: &str) -> Option<(PathBuf, NamedFileKind)> {
        let wanted = Path::new(file);
        let named = |n: &Named| Some((n.path.clone(), NamedFileKind::UserNamed));
        if let Some(n) = self.named.iter().find(|n| n.path == wanted) {
            return named(n);
        }
        if let Ok(canonical) = wanted.canonicalize()
            && let Some(n) = self
                .named
                .iter()
                .find(|n| n.canonical.as_ref() == Some(&canonical))
        {
            return named(n);
        }
        if let Some(name) = wanted.file_name()
            && let Some(n) = self.named.iter().find(|n| n.path.file_name() == Some(name))
        {
            return named(n);
        }
        Some((wanted.to_path_buf(), NamedFileKind::Source))
    }

    /// `file:line:col: error: ...` with the source line when its file may
    /// be read.
    pub fn render(&self, diag: &ir::Diagnostic) -> String {
        let line = diag
            .location
            .primary_position()
            .and_then(|(file, line, _)| self.get(file).map(|source| (source, line)));
        match line {
            Some((source, line)) => text::render_diagnostic_line(
                diag,
                SourceLine::indexed(&source.text, &source.index, line),
            ),
            None => text::render_diagnostic_line(diag, SourceLine::Unavailable),
        }
    }
}

/// Reads `path` if the named-file policy allows it.
fn read_source(path: &Path, kind: NamedFileKind) -> Option<SourceFile> {
    named_files::read_text(path, kind).ok().map(SourceFile::new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("bef-source-lines-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn at(file: &str, line: u32, column: u32) -> ir::Diagnostic {
        ir::Diagnostic::new(ir::Location::file_line_col(file, line, column), "boom")
    }

    #[test]
    fn reads_only_mlir_sources_and_named_files() {
        let dir = scratch("reads");
        let mlir = dir.join("prog.mlir");
        std::fs::write(&mlir, "first\n  second\n").unwrap();
        let other = dir.join("secret.txt");
        std::fs::write(&other, "password\n").unwrap();
        let sources = SourceLines::new(None, &[]).unwrap();
        let mlir_name = mlir.to_str().unwrap();
        assert_eq!(
            sources.render(&at(mlir_name, 2, 3)),
            format!("{mlir_name}:2:3: error: boom\n  second\n  ^\n")
        );
        let other_name = other.to_str().unwrap();
        assert_eq!(
            sources.render(&at(other_name, 1, 1)),
            format!("{other_name}:1:1: error: boom\n")
        );
        for device in ["/dev/zero", "/dev/null", "/dev/stdin"] {
            assert!(sources.get(device).is_none(), "{device}");
        }
        // Named with --source, any name is read, also when a location
        // names it from elsewhere.
        let sources = SourceLines::new(None, std::slice::from_ref(&other)).unwrap();
        assert!(sources.get(other_name).is_some());
        assert!(sources.get("/build/elsewhere/secret.txt").is_some());
        assert!(SourceLines::new(None, &[PathBuf::from("/dev/zero")]).is_err());
        assert!(SourceLines::new(None, &[dir.join("missing.mlir")]).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    #[cfg(unix)]
    fn devices_fifos_and_links_to_them_are_not_read_even_when_named_mlir() {
        let dir = scratch("special");
        let zero = dir.join("zero.mlir");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let fifo = dir.join("fifo.mlir");
        let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only reads it.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        let sources = SourceLines::new(None, &[]).unwrap();
        let start = std::time::Instant::now();
        assert!(sources.get(zero.to_str().unwrap()).is_none());
        assert!(sources.get(fifo.to_str().unwrap()).is_none());
        let environ = dir.join("environ.mlir");
        std::os::unix::fs::symlink("/proc/self/environ", &environ).unwrap();
        assert!(sources.get(environ.to_str().unwrap()).is_none());
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        // A regular .mlir file through a link is read.
        let real = dir.join("real.mlir");
        std::fs::write(&real, "x\n").unwrap();
        let link = dir.join("link.mlir");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(sources.get(link.to_str().unwrap()).unwrap().text, "x\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn files_over_the_limit_are_not_read() {
        let dir = scratch("large");
        let big = dir.join("big.mlir");
        let file = File::create(&big).unwrap();
        file.set_len(named_files::MAX_NAMED_FILE_BYTES + 1).unwrap();
        let sources = SourceLines::new(None, &[]).unwrap();
        assert!(sources.get(big.to_str().unwrap()).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn each_file_is_read_once() {
        let dir = scratch("once");
        let mlir = dir.join("p.mlir");
        std::fs::write(&mlir, "one\n").unwrap();
        let sources = SourceLines::new(None, &[]).unwrap();
        let name = mlir.to_str().unwrap();
        let first = sources.get(name).unwrap();
        std::fs::write(&mlir, "changed\n").unwrap();
        let second = sources.get(name).unwrap();
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(second.text, "one\n");
        // Another spelling of the same path.
        let other = format!("{}/./p.mlir", dir.display());
        assert!(Arc::ptr_eq(&first, &sources.get(&other).unwrap()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
