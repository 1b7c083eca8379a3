//! A Binary Tensor Format file opened for the Tensors view: each tensor
//! summarized once (`bef::btf::summary`, the same columns as `bef dump`).
//! The cursor over them and its keys are the app's
//! ([`crate::app::tensors`]); no drawing.

use std::path::Path;

use bef::btf::summary::{self, ScanBudget, Statistics, TensorSummary};
use bef::btf::{BtfError, SliceSource};
use bef::tool_io::escape;

use bef::format::BefBuffer;

use crate::model::input::LoadError;
use crate::model::tensor_grid::Grid;

/// Tensors listed at most; a file declaring more says how many it leaves
/// out, so that memory stays bounded whatever the count says.
pub const MAX_ROWS: usize = 65_536;

/// The column headings, as `bef dump` prints them.
pub use bef::btf::summary::COLUMNS;

/// Whether `path` names a BTF file (which has no magic number to tell it by).
pub fn is_btf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("btf"))
}

/// A BTF file's tensors, summarized.
pub struct TensorFile {
    /// The path as shown (escaped).
    pub name: String,
    /// The file's size in bytes.
    pub size: u64,
    /// The tensors the file declares.
    pub count: u64,
    /// The first [`MAX_ROWS`] tensors, each summarized or its error.
    pub rows: Vec<Result<TensorSummary, BtfError>>,
    /// The file's bytes, for a tensor shown in full ([`Grid`]).
    buffer: BefBuffer,
}

impl TensorFile {
    /// Summarizes the tensors of `bytes`, the contents of `path`, within
    /// the scan budget of `bef dump`. A count or offset table that does not
    /// fit the file is an error; a damaged record is a row with its error,
    /// a record past the budget a row marked skipped.
    pub fn open(path: &Path, bytes: &[u8]) -> Result<TensorFile, LoadError> {
        TensorFile::open_buffer(path, BefBuffer::copy_from(bytes))
    }

    /// [`open`](Self::open) over a file read or mapped already, kept for
    /// showing tensors in full.
    pub fn open_buffer(path: &Path, buffer: BefBuffer) -> Result<TensorFile, LoadError> {
        let bytes = buffer.bytes();
        let name = escape::path(path).into_owned();
        let mut source = SliceSource(bytes);
        let mut budget = ScanBudget::for_file(bytes.len() as u64);
        let (count, tensors) = summary::summaries(&mut source, &mut budget)
            .map_err(|e| LoadError(format!("{name} is not valid BTF: {e}")))?;
        let rows = tensors.take(MAX_ROWS).collect();
        Ok(TensorFile {
            name,
            size: bytes.len() as u64,
            count,
            rows,
            buffer,
        })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.buffer.bytes()
    }

    /// Tensor `index` in full, or why it cannot be shown.
    pub fn grid(&self, index: u64) -> Result<Grid, String> {
        Grid::open(self.bytes(), index)
    }

    /// Tensors the file declares beyond the listed rows.
    pub fn not_listed(&self) -> u64 {
        self.count - self.rows.len() as u64
    }

    /// The title: name, tensor count, size, and what is left out.
    pub fn title(&self) -> String {
        let mut title = format!(
            "{}: BTF, {} tensor{}, {} bytes",
            self.name,
            self.count,
            if self.count == 1 { "" } else { "s" },
            self.size
        );
        if self.not_listed() > 0 {
            title.push_str(&format!(
                " (the first {} listed, {} more not)",
                self.rows.len(),
                self.not_listed()
            ));
        }
        title
    }

    /// The cells of row `row`, in the order of [`COLUMNS`].
    pub fn cells(&self, row: usize) -> Vec<String> {
        match self.rows.get(row) {
            Some(Ok(tensor)) => {
                let [min, max, mean, nan] = tensor.statistics_cells();
                vec![
                    tensor.index.to_string(),
                    tensor.dtype.name().to_owned(),
                    tensor.layout_name().to_owned(),
                    tensor.shape_text(),
                    tensor.offset.to_string(),
                    tensor.data_offset.to_string(),
                    min,
                    max,
                    mean,
                    nan,
                    tensor.preview_text(),
                ]
            }
            // The error names the part of the record, never where it is.
            Some(Err(error)) => vec![
                row.to_string(),
                "-".to_owned(),
                "-".to_owned(),
                if error.is_not_scanned() {
                    "skipped"
                } else {
                    "unreadable"
                }
                .to_owned(),
            ],
            None => Vec::new(),
        }
    }

    /// The detail of row `row`: everything its record says, the
    /// statistics with exact extremes, and the first values in full.
    pub fn detail(&self, row: usize) -> Vec<String> {
        let tensor = match self.rows.get(row) {
            Some(Ok(tensor)) => tensor,
            Some(Err(error)) => {
                let state = if error.is_not_scanned() {
                    "skipped"
                } else {
                    "unreadable"
                };
                return vec![
                    format!("tensor {row}: {state}"),
                    escape::terminal(&error.to_string()).into_owned(),
                ];
            }
            None => return Vec::new(),
        };
        let elements: u64 = tensor.dims.iter().product();
        let dims: Vec<String> = tensor.dims.iter().map(u64::to_string).collect();
        let mut lines = vec![
            format!(
                "tensor {} · {} {} [{}] · {} elements{}",
                tensor.index,
                tensor.dtype.name(),
                tensor.layout_name(),
                dims.join(", "),
                elements,
                if tensor.stored == elements {
                    String::new()
                } else {
                    format!(", {} stored", tensor.stored)
                }
            ),
            format!(
                "record at offset {}, elements at offset {} ({} bytes)",
                tensor.offset,
                tensor.data_offset,
                tensor.stored * tensor.dtype.size() as u64
            ),
        ];
        lines.push(match &tensor.statistics {
            Statistics::Computed(stats) => {
                let shown = |v: Option<summary::Value>| v.map_or("-".into(), |v| v.to_string());
                format!(
                    "min {}  max {}  mean {}  NaN {}",
                    shown(stats.min),
                    shown(stats.max),
                    stats.mean.map_or("-".into(), |m| format!("{m:?}")),
                    stats.nan
                )
            }
            Statistics::Empty => "no elements".to_owned(),
            Statistics::Skipped => format!(
                "statistics skipped: the file's records share bytes, and scanning stops after \
                 its size plus {} MiB",
                summary::EXTRA_SCAN_BYTES >> 20
            ),
        });
        let values: Vec<String> = tensor.preview.iter().map(ToString::to_string).collect();
        lines.push(format!(
            "first values: {}{}",
            values.join(", "),
            if (tensor.preview.len() as u64) < tensor.stored {
                ", …"
            } else {
                ""
            }
        ));
        lines
    }
}
