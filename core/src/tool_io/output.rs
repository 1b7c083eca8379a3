//! Writing a tool's output safely.
//!
//! - [`refuse_input`]: an output that is one of the inputs (by any
//!   spelling: `./p.mlir`, `../dir/p.mlir`, a link) is refused before any
//!   work is done, so that no tool overwrites what it reads.
//! - [`AtomicFile`]: the output is written to a temporary file in the same
//!   directory and renamed over the destination only when complete, so a
//!   run that fails (or is killed) leaves the old file or none, never half
//!   a file. An existing destination that is not a regular file (a device
//!   such as `/dev/null`, a FIFO) is written in place: renaming over it
//!   would replace the device node.

use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::escape;

/// Why an output path was refused.
#[derive(Debug)]
pub enum OutputError {
    /// The output is the same file as an input.
    IsInput {
        /// The output as given.
        output: PathBuf,
        /// The input it is.
        input: PathBuf,
    },
    /// The output is a directory.
    IsDirectory(PathBuf),
    /// The output's directory does not exist.
    NoDirectory(PathBuf),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::IsInput { output, input } if output == input => write!(
                f,
                "output {} is an input; give another name",
                escape::path(output)
            ),
            OutputError::IsInput { output, input } => write!(
                f,
                "output {} is the input {}; give another name",
                escape::path(output),
                escape::path(input)
            ),
            OutputError::IsDirectory(path) => write!(
                f,
                "output {} is a directory; give a file name",
                escape::path(path)
            ),
            OutputError::NoDirectory(path) => write!(
                f,
                "cannot write {}: its directory does not exist",
                escape::path(path)
            ),
        }
    }
}

impl std::error::Error for OutputError {}

/// Checks that `output` can be written without destroying an input: it is
/// not one of `inputs` (same device and inode, whatever the spelling), not
/// a directory, and its directory exists. `-` (standard output) is always
/// allowed.
pub fn refuse_input(output: &Path, inputs: &[&Path]) -> Result<(), OutputError> {
    if output.as_os_str() == "-" {
        return Ok(());
    }
    if let Ok(meta) = std::fs::metadata(output) {
        if meta.is_dir() {
            return Err(OutputError::IsDirectory(output.to_path_buf()));
        }
        for input in inputs {
            if std::fs::metadata(input).is_ok_and(|i| same_file(&meta, &i)) {
                return Err(OutputError::IsInput {
                    output: output.to_path_buf(),
                    input: input.to_path_buf(),
                });
            }
        }
    } else if let Some(parent) = output.parent()
        && !parent.as_os_str().is_empty()
        && !parent.is_dir()
    {
        return Err(OutputError::NoDirectory(output.to_path_buf()));
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_a: &std::fs::Metadata, _b: &std::fs::Metadata) -> bool {
    false
}

/// An output file written whole or not at all (see the module
/// documentation). Buffered; call [`AtomicFile::commit`] when done.
pub struct AtomicFile {
    path: PathBuf,
    target: Target,
}

enum Target {
    /// A temporary file beside the destination, removed if not committed.
    Temporary(BufWriter<tempfile::NamedTempFile>),
    /// An existing device or FIFO, written in place.
    InPlace(BufWriter<File>),
}

impl AtomicFile {
    /// Starts writing `path`.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let context = |e: io::Error| {
            io::Error::new(
                e.kind(),
                format!("cannot write {}: {e}", escape::path(path)),
            )
        };
        let in_place = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
        let target = if in_place {
            Target::InPlace(BufWriter::new(File::create(path).map_err(context)?))
        } else {
            let dir = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            let mut builder = tempfile::Builder::new();
            builder.prefix(".").suffix(".partial");
            // The umask decides the final mode, as for a file created
            // directly (the temporary file's default is owner-only).
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                builder.permissions(std::fs::Permissions::from_mode(0o666));
            }
            Target::Temporary(BufWriter::new(builder.tempfile_in(dir).map_err(context)?))
        };
        Ok(AtomicFile {
            path: path.to_path_buf(),
            target,
        })
    }

    /// Finishes the file: flushes it and renames it over the destination.
    pub fn commit(self) -> io::Result<()> {
        let path = self.path;
        let context = |e: io::Error| {
            io::Error::new(
                e.kind(),
                format!("cannot write {}: {e}", escape::path(&path)),
            )
        };
        match self.target {
            Target::Temporary(writer) => {
                let temporary = writer.into_inner().map_err(|e| context(e.into_error()))?;
                temporary.persist(&path).map_err(|e| context(e.error))?;
            }
            Target::InPlace(mut writer) => writer.flush().map_err(context)?,
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.target {
            Target::Temporary(w) => w.write(buf),
            Target::InPlace(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.target {
            Target::Temporary(w) => w.flush(),
            Target::InPlace(w) => w.flush(),
        }
    }
}

/// Writes `bytes` to `path` through an [`AtomicFile`].
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bef-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_input_by_any_spelling_is_refused() {
        let dir = scratch("refuse");
        let input = dir.join("p.mlir");
        std::fs::write(&input, "x").unwrap();
        let other = dir.join("q.bef");
        assert!(refuse_input(&other, &[&input]).is_ok());
        std::fs::create_dir(dir.join("sub")).unwrap();
        for spelling in [
            input.clone(),
            dir.join("./p.mlir"),
            dir.join("sub/../p.mlir"),
        ] {
            let err = refuse_input(&spelling, &[&other, &input]).unwrap_err();
            assert!(matches!(err, OutputError::IsInput { .. }), "{err}");
        }
        #[cfg(unix)]
        {
            let link = dir.join("link.bef");
            std::os::unix::fs::symlink(&input, &link).unwrap();
            assert!(refuse_input(&link, &[&input]).is_err());
            // A hard link is the same file too.
            let hard = dir.join("hard.bef");
            std::fs::hard_link(&input, &hard).unwrap();
            assert!(refuse_input(&hard, &[&input]).is_err());
        }
        assert!(matches!(
            refuse_input(&dir, &[&input]),
            Err(OutputError::IsDirectory(_))
        ));
        assert!(matches!(
            refuse_input(&dir.join("none/x.bef"), &[&input]),
            Err(OutputError::NoDirectory(_))
        ));
        assert!(refuse_input(Path::new("-"), &[&input]).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_uncommitted_file_leaves_the_old_one() {
        let dir = scratch("atomic");
        let path = dir.join("out.svg");
        std::fs::write(&path, "old").unwrap();
        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"half").unwrap();
        drop(file);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_written_in_place() {
        write_atomically(Path::new("/dev/null"), b"gone").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}
