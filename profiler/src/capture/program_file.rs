//! The program file a recording is read with (`--program FILE`): checked
//! against the program identity the recording keeps (the hash of the BEF
//! bytes that ran, [`Header::program_hash`]), and, for a recording made
//! without its program's table (`bef-trace record --no-embed`,
//! [`Header::program_left_out`]), where that table comes from.
//!
//! The table is what every analysis names functions and kernels by and
//! follows dataflow edges through, so a recording without it is read with
//! the program or not at all.

use std::sync::Arc;

use bef::exec::{Input, KernelRegistry, Program};

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
