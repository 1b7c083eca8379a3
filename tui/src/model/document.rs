//! Opening a file: BEF is used as read (`input`), MLIR text and
//! bytecode are translated to BEF (with the optional sections, so kernels
//! show attribute names and registers their types) and keep their source
//! text for the Source view.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use bef::exec::{InputFormat, OpenError};
use bef::format::BefBuffer;
use bef::tool_io::named_files::{self, NamedFileKind, NotRead};

use crate::model::input::LoadError;
use bef::translate::{TranslateOptions, mlir_to_bef};

/// A file opened for viewing: the BEF bytes and, for MLIR input, the text
/// its locations point into.
pub struct Loaded {
    /// The path as given.
    pub path: PathBuf,
    /// What the file was before translation.
    pub format: InputFormat,
    /// The BEF bytes (the file's, or the translation).
    pub buffer: BefBuffer,
    /// The size of the file as read, before any translation.
    pub input_len: usize,
    /// Source text the program's locations refer to, when known: the MLIR
    /// text itself, or a file named by a BEF file's locations.
    pub source: Option<Source>,
    /// Files the locations name that exist but were not read (the
    /// named-file policy refused them), when no source was found.
    pub source_not_read: Vec<NotRead>,
    /// Why the file could not be read, when this stands in for a
    /// recording's program that is missing (the bytes are then an empty
    /// BEF file).
    pub missing: Option<String>,
}

/// A BEF file with no function, shown in place of a program not read.
pub fn empty_program() -> Vec<u8> {
    bef::format::encode(&bef::format::Module::default()).unwrap_or_default()
}

/// A source file shown beside the kernels.
pub struct Source {
    /// The name locations use for it.
    pub name: String,
    /// Its lines, without line ends.
    pub lines: Vec<String>,
}

impl Source {
    /// Splits `text` into lines.
    pub fn new(name: impl Into<String>, text: &str) -> Source {
        Source {
            name: name.into(),
            lines: text.lines().map(str::to_owned).collect(),
        }
    }
}

impl Loaded {
    /// Opens `path` (see [`crate::model::input::read`]) and translates MLIR to
    /// BEF.
    pub fn open(path: &Path) -> Result<Loaded, LoadError> {
        Loaded::from_buffer(path, crate::model::input::read(path)?)
    }

    /// Opens bytes already in memory, named `path`.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Loaded, LoadError> {
        Loaded::from_buffer(path, BefBuffer::copy_from(bytes))
    }

    /// Opens `buffer`, the bytes of `path` (as [`crate::model::input::read`]
    /// gives them: a mapping stays watched as long as it is kept).
    pub fn from_buffer(path: &Path, buffer: BefBuffer) -> Result<Loaded, LoadError> {
        Loaded::from_buffer_quoting(path, buffer, true)
    }

    /// Opens the program a recording is shown with, given as `--program
    /// FILE` (bytes read by the named-file policy): as [`from_bytes`](Self::from_bytes),
    /// but an error does not quote the file's lines (`line:col` and the
    /// message only), since the file may be no program at all.
    pub fn from_program_bytes(path: &Path, bytes: &[u8]) -> Result<Loaded, LoadError> {
        Loaded::from_buffer_quoting(path, BefBuffer::copy_from(bytes), false)
    }

    fn from_buffer_quoting(
        path: &Path,
        buffer: BefBuffer,
        quote: bool,
    ) -> Result<Loaded, LoadError> {
        // The name locations and diagnostics use; `shown` for messages.
        let name = path.display().to_string();
        let shown = bef::tool_io::escape::path(path);
        let format = InputFormat::detect(buffer.bytes());
        let input_len = buffer.bytes().len();
        let options = TranslateOptions {
            optional_sections: true,
        };
        let translate_error = |diagnostics, source_text: &str| {
            let error = OpenError::Translate {
                name: name.clone(),
                diagnostics,
                source_text: if quote {
                    source_text.to_owned()
                } else {
                    String::new()
                },
            };
            LoadError(if quote {
                error.render()
            } else {
                error.describe(input_len)
            })
        };
        match format {
            InputFormat::Bef => {
                let (source, source_not_read) = source_named_by(path, buffer.bytes());
                Ok(Loaded {
                    path: path.to_owned(),
                    format,
                    buffer,
                    input_len,
                    source,
                    source_not_read,
                    missing: None,
                })
            }
            InputFormat::MlirBytecode => {
                let module = bef::bytecode::read_aligned(buffer.bytes()).map_err(|e| {
                    LoadError(format!("error: {shown}: not readable MLIR bytecode: {e}"))
                })?;
                let bytes = mlir_to_bef(&module, options).map_err(|d| translate_error(d, ""))?;
                let buffer = BefBuffer::copy_from(&bytes);
                // Bytecode carries locations but not the text they point into.
                let (source, source_not_read) = source_named_by(path, buffer.bytes());
                Ok(Loaded {
                    path: path.to_owned(),
                    format,
                    buffer,
                    input_len,
                    source,
                    source_not_read,
                    missing: None,
                })
            }
            InputFormat::MlirText => {
                let text = std::str::from_utf8(buffer.bytes()).map_err(|e| {
                    LoadError(format!(
                        "error: {shown}: neither BEF nor MLIR (byte {:#x} is not UTF-8 text)",
                        e.valid_up_to()
                    ))
                })?;
                let bytes = bef::text::parse_module(text, &name)
                    .map_err(|d| vec![d])
                    .and_then(|module| mlir_to_bef(&module, options))
                    .map_err(|d| translate_error(d, text))?;
                Ok(Loaded {
                    path: path.to_owned(),
                    format,
                    buffer: BefBuffer::copy_from(&bytes),
                    input_len,
                    source: Some(Source::new(name.clone(), text)),
                    source_not_read: Vec::new(),
                    missing: None,
                })
            }
        }
    }

    /// The BEF bytes.
    pub fn bytes(&self) -> &[u8] {
        self.buffer.bytes()
    }

    /// An empty program standing in for `path`, which could not be read
    /// for `why`.
    pub fn missing(path: &Path, why: String) -> Result<Loaded, LoadError> {
        let mut loaded = Loaded::from_bytes(path, &empty_program())?;
        loaded.missing = Some(why);
        Ok(loaded)
    }

    /// The file's format and size, and the translation's when it was
    /// translated: `MLIR text, 2113 bytes; BEF 1468 bytes`; or why it was
    /// not read.
    pub fn size_text(&self) -> String {
        if let Some(why) = &self.missing {
            // Said once: the reason may already begin with it.
            return format!(
                "not read: {}",
                why.strip_prefix("not read: ").unwrap_or(why)
            );
        }
        match self.format {
            InputFormat::Bef => format!("BEF, {} bytes", self.input_len),
            _ => format!(
                "{}, {} bytes; BEF {} bytes",
                self.format_name(),
                self.input_len,
                self.bytes().len()
            ),
        }
    }

    /// A short word for the input format.
    pub fn format_name(&self) -> &'static str {
        match self.format {
            InputFormat::Bef => "BEF",
            InputFormat::MlirText => "MLIR text",
            InputFormat::MlirBytecode => "MLIR bytecode",
        }
    }
}

/// How many distinct names of a BEF file's locations are looked for as its
/// source: each costs a file system lookup or two.
const MAX_NAMES_TRIED: usize = 1024;

/// How many refused files are kept to show.
const MAX_NOT_READ: usize = 16;

/// The source to show beside the kernels of BEF `bytes` (at `path`): the
/// first file a location names, as given (relative to the working
/// directory) or beside the BEF file, that the named-file policy lets
/// befview read; otherwise no source, and the files that exist but were
/// refused, with why.
fn source_named_by(path: &Path, bytes: &[u8]) -> (Option<Source>, Vec<NotRead>) {
    let mut not_read = Vec::new();
    let Ok(listing) = bef::inspect::Listing::new(bytes) else {
        return (None, not_read);
    };
    let beside = path.parent().unwrap_or(Path::new(""));
    let mut tried = std::collections::HashSet::new();
    for row in listing.location_strings().rows() {
        if tried.len() >= MAX_NAMES_TRIED {
            break;
        }
        let name = row.text();
        if !tried.insert(name.clone()) {
            continue;
        }
        let mut seen = None;
        for candidate in [PathBuf::from(&*name), beside.join(&*name)] {
            // Nothing there: not worth a "not read". The same file under
            // both spellings: looked at once.
            let Ok(meta) = std::fs::symlink_metadata(&candidate) else {
                continue;
            };
            if seen.replace((meta.dev(), meta.ino())) == Some((meta.dev(), meta.ino())) {
                continue;
            }
            match named_files::read_text(&candidate, NamedFileKind::Source) {
                Ok(text) => return (Some(Source::new(name.into_owned(), &text)), Vec::new()),
                Err(refused) if not_read.len() < MAX_NOT_READ => not_read.push(refused),
                Err(_) => {}
            }
        }
    }
    (None, not_read)
}

/// A loaded file with its listing and, once computed, its analysis.
pub struct Document<'a> {
    /// The file.
    pub loaded: &'a Loaded,
    /// The lenient decoded listing of its BEF bytes.
    pub listing: bef::inspect::Listing<'a>,
    analysis: std::sync::OnceLock<crate::model::analysis::Analysis>,
}

impl<'a> Document<'a> {
    /// Lists the file's bytes; fails only when they are not BEF at all.
    pub fn new(loaded: &'a Loaded) -> Result<Document<'a>, LoadError> {
        let listing = bef::inspect::Listing::new(loaded.bytes()).map_err(|e| {
            LoadError(format!(
                "error: {}: not a BEF file: {e}",
                bef::tool_io::escape::path(&loaded.path)
            ))
        })?;
        Ok(Document {
            loaded,
            listing,
            analysis: std::sync::OnceLock::new(),
        })
    }

    /// The analysis, computing it now if nobody has.
    pub fn analysis(&self) -> &crate::model::analysis::Analysis {
        self.analysis.get_or_init(|| {
            let source = self.loaded.source.as_ref().map(|s| s.name.as_str());
            crate::model::analysis::Analysis::new(&self.listing, source)
        })
    }

    /// The analysis if it is ready; never waits.
    pub fn analysis_ready(&self) -> Option<&crate::model::analysis::Analysis> {
        self.analysis.get()
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.listing.bytes()
    }
}
