//! Opening a file: BEF is used as read (`input`), MLIR text and
//! bytecode are translated to BEF (with the optional sections, so kernels
//! show attribute names and registers their types) and keep their source
//! text for the Source view.

use std::fmt;
use std::path::{Path, PathBuf};

use bef::exec::{InputFormat, OpenError};
use bef::format::BefBuffer;
use bef::translate::{TranslateOptions, mlir_to_bef};

/// A file opened for viewing: the BEF bytes and, for MLIR input, the text
/// its locations point into.
pub struct Loaded {
    /// Set while `buffer` maps the file.
    _watch: Option<crate::sigbus::Watch>,
    /// The path as given.
    pub path: PathBuf,
    /// What the file was before translation.
    pub format: InputFormat,
    /// The BEF bytes (the file's, or the translation).
    pub buffer: BefBuffer,
    /// Source text the program's locations refer to, when known: the MLIR
    /// text itself, or a file named by a BEF file's locations.
    pub source: Option<Source>,
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

/// Why a file could not be opened.
#[derive(Debug)]
pub struct LoadError(pub String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.trim_end())
    }
}

impl std::error::Error for LoadError {}

impl Loaded {
    /// Opens `path` (see [`crate::input::read`]) and translates MLIR to
    /// BEF.
    pub fn open(path: &Path) -> Result<Loaded, LoadError> {
        Loaded::from_input(path, crate::input::read(path)?)
    }

    /// Opens `input`, the bytes of `path`.
    pub fn from_input(path: &Path, input: crate::input::Input) -> Result<Loaded, LoadError> {
        let (buffer, watch) = input.into_parts();
        Loaded::from_buffer(path, buffer, watch)
    }

    /// Opens bytes already in memory, named `path`.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Loaded, LoadError> {
        Loaded::from_buffer(path, BefBuffer::copy_from(bytes), None)
    }

    fn from_buffer(
        path: &Path,
        buffer: BefBuffer,
        watch: Option<crate::sigbus::Watch>,
    ) -> Result<Loaded, LoadError> {
        let name = path.display().to_string();
        let format = InputFormat::detect(buffer.bytes());
        let options = TranslateOptions {
            optional_sections: true,
        };
        let translate_error = |diagnostics, source_text: &str| {
            LoadError(
                OpenError::Translate {
                    name: name.clone(),
                    diagnostics,
                    source_text: source_text.to_owned(),
                }
                .render(),
            )
        };
        match format {
            InputFormat::Bef => {
                let source = source_named_by(path, buffer.bytes());
                Ok(Loaded {
                    _watch: watch,
                    path: path.to_owned(),
                    format,
                    buffer,
                    source,
                })
            }
            InputFormat::MlirBytecode => {
                let module = bef::bytecode::read_aligned(buffer.bytes()).map_err(|e| {
                    LoadError(format!("error: {name}: not readable MLIR bytecode: {e}"))
                })?;
                let bytes = mlir_to_bef(&module, options).map_err(|d| translate_error(d, ""))?;
                let buffer = BefBuffer::copy_from(&bytes);
                // Bytecode carries locations but not the text they point into.
                let source = source_named_by(path, buffer.bytes());
                Ok(Loaded {
                    _watch: None,
                    path: path.to_owned(),
                    format,
                    buffer,
                    source,
                })
            }
            InputFormat::MlirText => {
                let text = std::str::from_utf8(buffer.bytes()).map_err(|e| {
                    LoadError(format!(
                        "error: {name}: neither BEF nor MLIR (byte {:#x} is not UTF-8 text)",
                        e.valid_up_to()
                    ))
                })?;
                let bytes = bef::text::parse_module(text, &name)
                    .map_err(|d| vec![d])
                    .and_then(|module| mlir_to_bef(&module, options))
                    .map_err(|d| translate_error(d, text))?;
                Ok(Loaded {
                    _watch: None,
                    path: path.to_owned(),
                    format,
                    buffer: BefBuffer::copy_from(&bytes),
                    source: Some(Source::new(name.clone(), text)),
                })
            }
        }
    }

    /// The BEF bytes.
    pub fn bytes(&self) -> &[u8] {
        self.buffer.bytes()
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

/// The largest source file loaded for a BEF file's locations.
const MAX_SOURCE: u64 = 16 << 20;

/// The first file named by a location of BEF `bytes` that exists, as
/// given (relative to the working directory) or beside the BEF file: the
/// source to show beside the kernels.
fn source_named_by(path: &Path, bytes: &[u8]) -> Option<Source> {
    let listing = bef::inspect::Listing::new(bytes).ok()?;
    let beside = path.parent().unwrap_or(Path::new(""));
    listing.location_strings().rows().iter().find_map(|row| {
        let name = row.text();
        [PathBuf::from(&*name), beside.join(&*name)]
            .into_iter()
            .find_map(|candidate| {
                let meta = std::fs::metadata(&candidate).ok()?;
                if !meta.is_file() || meta.len() > MAX_SOURCE {
                    return None;
                }
                let text = std::fs::read_to_string(&candidate).ok()?;
                Some(Source::new(name.clone().into_owned(), &text))
            })
    })
}

/// A loaded file with its listing and, once computed, its analysis.
pub struct Document<'a> {
    /// The file.
    pub loaded: &'a Loaded,
    /// The lenient decoded listing of its BEF bytes.
    pub listing: bef::inspect::Listing<'a>,
    analysis: std::sync::OnceLock<crate::analysis::Analysis>,
}

impl<'a> Document<'a> {
    /// Lists the file's bytes; fails only when they are not BEF at all.
    pub fn new(loaded: &'a Loaded) -> Result<Document<'a>, LoadError> {
        let listing = bef::inspect::Listing::new(loaded.bytes()).map_err(|e| {
            LoadError(format!(
                "error: {}: not a BEF file: {e}",
                loaded.path.display()
            ))
        })?;
        Ok(Document {
            loaded,
            listing,
            analysis: std::sync::OnceLock::new(),
        })
    }

    /// The analysis, computing it now if nobody has.
    pub fn analysis(&self) -> &crate::analysis::Analysis {
        self.analysis.get_or_init(|| {
            let source = self.loaded.source.as_ref().map(|s| s.name.as_str());
            crate::analysis::Analysis::new(&self.listing, source)
        })
    }

    /// The analysis if it is ready; never waits.
    pub fn analysis_ready(&self) -> Option<&crate::analysis::Analysis> {
        self.analysis.get()
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.listing.bytes()
    }
}
