//! The program file a recording is read with (`--program FILE`): checked
//! against the program identity the recording keeps (the hash of the BEF
//! bytes that ran, [`Header::program_hash`]), and, for a recording made
//! without its program's table (`bef-trace record --no-embed`,
//! [`Header::program_left_out`]), where that table comes from.
//!
//! The table is what every analysis names functions and kernels by and
//! follows dataflow edges through, so a recording without it is read with
//! the program or not at all.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bef::exec::{Input, InputFormat, KernelRegistry, Program};
use bef::tool_io::named_files::{self, NamedFileKind};

use crate::capture::program_table::program_table;
use crate::capture::recording::{EventKind, Header, Recording, content_hash};

/// Why a program file cannot stand for a recording's program. Names are
/// as given; whoever shows them escapes them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// The file is no program that loads.
    #[error("{name}: not a program bef-trace can load: {message}")]
    Unreadable {
        /// The program file.
        name: String,
        /// What went wrong.
        message: String,
    },
    /// The file is another program than the one the recording ran.
    #[error(
        "{name} is not the program the recording ran: its BEF bytes hash to {hash:016x}, \
         those of the program recorded ({recorded_path}) to {recorded_hash:016x}"
    )]
    Mismatch {
        /// The program file.
        name: String,
        /// Its hash.
        hash: u64,
        /// The program the recording names.
        recorded_path: String,
        /// The hash the recording keeps.
        recorded_hash: u64,
    },
    /// The recording left its program out and no program was given.
    #[error(
        "the recording was made without its program (--no-embed): give the program it ran \
         ({recorded_path}, hash {recorded_hash:016x}) with --program FILE"
    )]
    Missing {
        /// The program the recording names.
        recorded_path: String,
        /// The hash the recording keeps.
        recorded_hash: u64,
    },
    /// The recording's events name a function the program does not have
    /// (the recording was made up: the program's hash matched).
    #[error("the recording names function {function}, but {name} has {functions} functions")]
    NoSuchFunction {
        /// The program file.
        name: String,
        /// The function index an event names.
        function: u32,
        /// How many functions the program has.
        functions: usize,
    },
}

/// A program file, loaded, with the hash of the BEF bytes it runs as.
#[derive(Clone)]
pub struct ProgramFile {
    name: String,
    hash: u64,
    program: Arc<Program>,
}

impl std::fmt::Debug for ProgramFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgramFile")
            .field("name", &self.name)
            .field("hash", &format_args!("{:016x}", self.hash))
            .finish_non_exhaustive()
    }
}

impl ProgramFile {
    /// The program in `bytes`, the file `name`, loaded with the standard
    /// kernels. MLIR is translated as `bef-trace record` translated it,
    /// under `recorded_as` (the program path the recording keeps), since
    /// its locations carry the file's name: the same text under another
    /// path then runs as the same BEF bytes.
    pub fn from_bytes(
        bytes: &[u8],
        name: &str,
        recorded_as: &str,
    ) -> Result<ProgramFile, ProgramError> {
        let unreadable = |message: String| ProgramError::Unreadable {
            name: name.to_string(),
            message,
        };
        // Described, never quoted: the file may be no program at all.
        let input = Input::from_bytes(bytes, recorded_as).map_err(|e| {
            unreadable(
                e.describe(bytes.len())
                    .trim_end()
                    .trim_start_matches("error: ")
                    .to_string(),
            )
        })?;
        let hash = content_hash(input.bef().bytes());
        let mut registry = KernelRegistry::new();
        bef::kernels::register_all(&mut registry);
        let program = Program::load(input.into_bef(), recorded_as, &registry)
            .map_err(|e| unreadable(e.to_string()))?;
        Ok(ProgramFile {
            name: name.to_string(),
            hash,
            program,
        })
    }

    /// What messages call it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The hash of the BEF bytes it runs as.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether it is the program the recording with `header` ran.
    pub fn matches(&self, header: &Header) -> bool {
        self.hash == header.program_hash
    }

    /// Refuses it unless it is the program the recording with `header`
    /// ran.
    pub fn check(&self, header: &Header) -> Result<(), ProgramError> {
        if self.matches(header) {
            return Ok(());
        }
        Err(ProgramError::Mismatch {
            name: self.name.clone(),
            hash: self.hash,
            recorded_path: header.program_path.clone(),
            recorded_hash: header.program_hash,
        })
    }
}

/// Makes `recording` whole with `program`: refuses a program other than
/// the one it ran, and gives a recording that left its program's table
/// out the table of `program` (which it then needs: without one, it is
/// refused). A recording that has its table keeps it.
pub fn attach(
    recording: &mut Recording,
    program: Option<&ProgramFile>,
) -> Result<(), ProgramError> {
    let header = &recording.header;
    if let Some(program) = program {
        program.check(header)?;
    }
    if !header.program_left_out || !recording.functions.is_empty() {
        return Ok(());
    }
    let Some(program) = program else {
        return Err(ProgramError::Missing {
            recorded_path: header.program_path.clone(),
            recorded_hash: header.program_hash,
        });
    };
    let functions = program_table(&program.program);
    // What the reader checks against a table in the file.
    let named = recording
        .threads
        .iter()
        .flat_map(|t| &t.events)
        .filter_map(|e| match e.kind {
            EventKind::FunctionBegin { function, .. } => Some(function),
            _ => None,
        })
        .find(|&f| f as usize >= functions.len());
    if let Some(function) = named {
        return Err(ProgramError::NoSuchFunction {
            name: program.name.clone(),
            function,
            functions: functions.len(),
        });
    }
    recording.functions = functions;
    Ok(())
}

/// A recording's program, found: under which name it is opened, and its
/// bytes.
#[derive(Debug, Clone)]
pub struct Located {
    /// The file it was read from, or, embedded, the path the recording
    /// names.
    pub path: PathBuf,
    /// The program's bytes.
    pub bytes: Vec<u8>,
    /// It is the MLIR text the recording keeps, not a file.
    pub embedded: bool,
}

/// Finds the program of the recording at `path` with `header`, trying in
/// turn: the MLIR text the recording keeps (`bef-trace record` embeds the
/// source of a program in MLIR text), the absolute path it was recorded
/// at, the path as given relative to the recording's directory, then as
/// given. Files are read as the named-file policy allows a program a
/// recording names. When none works, says what was tried and why each
/// failed (`not read: A: why; B: why`).
pub fn locate(path: &Path, header: &Header) -> Result<Located, String> {
    let named = Path::new(&header.program_path);
    if let Some(source) = header
        .sources
        .iter()
        .find(|s| s.name == header.program_path)
        .filter(|s| bef::exec::InputFormat::detect(s.text.as_bytes()) == InputFormat::MlirText)
    {
        return Ok(Located {
            path: named.to_path_buf(),
            bytes: source.text.clone().into_bytes(),
            embedded: true,
        });
    }
    let mut candidates = Vec::new();
    if !header.program_path_absolute.is_empty() {
        candidates.push(PathBuf::from(&header.program_path_absolute));
    }
    if named.is_relative() {
        candidates.push(path.parent().unwrap_or(Path::new("")).join(named));
    }
    candidates.push(named.to_path_buf());
    let mut tried = Vec::new();
    let mut seen = Vec::new();
    for candidate in &candidates {
        let meta = match std::fs::symlink_metadata(candidate) {
            Ok(meta) => meta,
            Err(e) => {
                let shown = bef::tool_io::escape::path(candidate);
                let line = match e.kind() {
                    std::io::ErrorKind::NotFound => format!("{shown}: no such file"),
                    _ => format!(
                        "{shown}: {}",
                        bef::tool_io::escape::terminal(&e.to_string())
                    ),
                };
                if !tried.contains(&line) {
                    tried.push(line);
                }
                continue;
            }
        };
        // One file under two spellings is tried once.
        let id = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        match named_files::read(candidate, NamedFileKind::Program) {
            Ok(bytes) => {
                return Ok(Located {
                    path: candidate.clone(),
                    bytes,
                    embedded: false,
                });
            }
            Err(not_read) => tried.push(format!(
                "{}: {}",
                bef::tool_io::escape::path(&not_read.path),
                not_read.why()
            )),
        }
    }
    Err(format!("not read: {}", tried.join("; ")))
}
