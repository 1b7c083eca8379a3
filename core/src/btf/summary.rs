//! What the tools show of a BTF file's tensors: each record's dtype,
//! layout, shape and offsets, and statistics of its elements (least,
//! greatest, mean, NaN count) with its first values.
//!
//! Statistics are computed in one pass over the elements, read through a
//! [`Source`] a chunk at a time, so a file on disk is listed in constant
//! memory whatever its size. Records may share bytes (every offset may
//! name the same record), so the bytes scanned over a whole file are
//! limited by a [`ScanBudget`]: a record past it is listed without
//! statistics, and the work stays linear in the file's size.

use std::fmt;

/// The columns a listing of tensors shows, in order (`bef dump` and
/// `befview`'s Tensors view).
pub const COLUMNS: [&str; 11] = [
    "#",
    "dtype",
    "layout",
    "shape",
    "offset",
    "data at",
    "min",
    "max",
    "mean",
    "NaN",
    "first values",
];

use super::error::{BtfError, Part, Place};
use super::locate::{self, PayloadExtent, Source, read_into};
use super::{BtfDType, Layout};

/// Values kept for a tensor's preview.
pub const PREVIEW_VALUES: usize = 6;

/// Bytes of elements read at a time (a multiple of every element size).
const CHUNK_BYTES: usize = 64 << 10;

/// Bytes of elements a summary may scan beyond the file's own size.
pub const EXTRA_SCAN_BYTES: u64 = 64 << 20;

/// One element, as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    UInt(u64),
    /// A 32-bit float.
    F32(f32),
    /// A 64-bit float.
    F64(f64),
}

impl Value {
    /// Reads one element of `dtype` from its little-endian bytes (at most
    /// eight; missing high bytes read as zeros).
    pub fn from_le(dtype: BtfDType, bytes: &[u8]) -> Value {
        let mut raw = [0u8; 8];
        let len = bytes.len().min(8);
        raw[..len].copy_from_slice(&bytes[..len]);
        let unsigned = u64::from_le_bytes(raw);
        // Sign-extends the element's own width.
        let signed = |bits: u32| ((unsigned << (64 - bits)) as i64) >> (64 - bits);
        match dtype {
            BtfDType::I8 => Value::Int(signed(8)),
            BtfDType::I16 => Value::Int(signed(16)),
            BtfDType::I32 => Value::Int(signed(32)),
            BtfDType::I64 => Value::Int(unsigned as i64),
            BtfDType::UI8 | BtfDType::UI16 | BtfDType::UI32 | BtfDType::UI64 => {
                Value::UInt(unsigned)
            }
            BtfDType::F32 => Value::F32(f32::from_bits(unsigned as u32)),
            BtfDType::F64 => Value::F64(f64::from_bits(unsigned)),
        }
    }

    /// The value as a double (integers past 2^53 rounded), for ordering
    /// and the mean.
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(v) => v as f64,
            Value::UInt(v) => v as f64,
            Value::F32(v) => f64::from(v),
            Value::F64(v) => v,
        }
    }

    fn is_nan(self) -> bool {
        self.as_f64().is_nan()
    }

    /// Whether `self` orders before `other` (same dtype, neither NaN).
    fn less(self, other: Value) -> bool {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a < b,
            (Value::UInt(a), Value::UInt(b)) => a < b,
            (a, b) => a.as_f64() < b.as_f64(),
        }
    }
}

impl fmt::Display for Value {
    /// Integers in full; floats in their shortest exact form, with an
    /// exponent when very large or small (`0.1`, `1e-7`, `NaN`, `inf`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::UInt(v) => write!(f, "{v}"),
            Value::F32(v) => write!(f, "{v:?}"),
            Value::F64(v) => write!(f, "{v:?}"),
        }
    }
}

/// Statistics of a tensor's stored elements (for COO, the stored values,
/// not the implicit zeros).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// The least element that is not NaN; `None` when all are NaN.
    pub min: Option<Value>,
    /// The greatest element that is not NaN.
    pub max: Option<Value>,
    /// The mean of the elements that are not NaN.
    pub mean: Option<f64>,
    /// How many elements are NaN.
    pub nan: u64,
}

/// Whether a tensor's statistics were computed.
#[derive(Clone, Debug, PartialEq)]
pub enum Statistics {
    /// Computed over every stored element.
    Computed(Stats),
    /// The tensor stores no element.
    Empty,
    /// Not computed: the file's scan budget was spent on earlier records.
    Skipped,
}

/// One tensor of a file, as listed.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorSummary {
    /// The tensor's index in the file.
    pub index: u64,
    /// Where its record starts.
    pub offset: u64,
    /// Where its elements (for COO, its values) start.
    pub data_offset: u64,
    /// The element type.
    pub dtype: BtfDType,
    /// Dense or COO.
    pub layout: Layout,
    /// The dimensions.
    pub dims: Vec<u64>,
    /// Elements the record stores (all of them if dense).
    pub stored: u64,
    /// Statistics of the stored elements.
    pub statistics: Statistics,
    /// The first stored elements, at most [`PREVIEW_VALUES`].
    pub preview: Vec<Value>,
}

impl TensorSummary {
    /// `dense` or `COO`.
    pub fn layout_name(&self) -> &'static str {
        match self.layout {
            Layout::RowMajorDense => "dense",
            Layout::Coo => "COO",
        }
    }

    /// `[784, 512]`, and for COO the stored count: `[3, 4] (2 stored)`.
    pub fn shape_text(&self) -> String {
        let dims: Vec<String> = self.dims.iter().map(u64::to_string).collect();
        let mut text = format!("[{}]", dims.join(", "));
        if self.layout == Layout::Coo {
            text.push_str(&format!(" ({} stored)", self.stored));
        }
        text
    }

    /// `[0.1, -2.5, …]`: the first values (floats as [`compact`]), with
    /// `…` when there are more.
    pub fn preview_text(&self) -> String {
        let values: Vec<String> = self.preview.iter().map(|&v| compact_value(v)).collect();
        let more = if (self.preview.len() as u64) < self.stored {
            ", …"
        } else {
            ""
        };
        format!("[{}{more}]", values.join(", "))
    }

    /// The cells of the least, greatest and mean element and the NaN
    /// count: integers in full, floats to six significant digits, `-`
    /// where there is nothing to show, `skipped` past the scan budget.
    pub fn statistics_cells(&self) -> [String; 4] {
        match &self.statistics {
            Statistics::Computed(stats) => [
                stats.min.map_or("-".into(), compact_value),
                stats.max.map_or("-".into(), compact_value),
                stats.mean.map_or("-".into(), compact),
                stats.nan.to_string(),
            ],
            Statistics::Empty => ["-", "-", "-", "-"].map(String::from),
            Statistics::Skipped => ["skipped", "skipped", "skipped", "-"].map(String::from),
        }
    }
}

/// Integers in full, floats as [`compact`].
fn compact_value(value: Value) -> String {
    match value {
        Value::Int(_) | Value::UInt(_) => value.to_string(),
        Value::F32(_) | Value::F64(_) => compact(value.as_f64()),
    }
}

/// Rounded to six significant digits, in the shortest form that reads
/// back as the rounded value, with an exponent from a million up
/// (`0.00123457`, `1.0`, `2.5e-7`, `5.36871e8`, `NaN`).
pub fn compact(x: f64) -> String {
    let rounded: f64 = format!("{x:.5e}").parse().unwrap_or(x);
    let magnitude = rounded.abs();
    if magnitude >= 1e6 && magnitude.is_finite() {
        format!("{rounded:e}")
    } else {
        format!("{rounded:?}")
    }
}

/// How many bytes of dims, COO coordinates and elements a listing may
/// still scan, and how many it has. Every per-record scan is charged: a
/// record's dims and coordinates before they are checked (a record past
/// the budget is [`BtfErrorKind::NotScanned`](super::BtfErrorKind)), its
/// elements before statistics are computed (past the budget, they are
/// [`Statistics::Skipped`]). What is left uncharged is constant per entry
/// of the offset table (its header and at most [`PREVIEW_VALUES`]
/// elements), so a listing's work is linear in the file's size.
#[derive(Clone, Copy, Debug)]
pub struct ScanBudget {
    left: u64,
    spent: u64,
}

impl ScanBudget {
    /// The budget for a file of `file_size` bytes: its size plus
    /// [`EXTRA_SCAN_BYTES`].
    pub fn for_file(file_size: u64) -> ScanBudget {
        ScanBudget::bytes(file_size.saturating_add(EXTRA_SCAN_BYTES))
    }

    /// A budget of exactly `bytes`.
    pub fn bytes(bytes: u64) -> ScanBudget {
        ScanBudget {
            left: bytes,
            spent: 0,
        }
    }

    /// The bytes charged so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Takes `bytes` from the budget, if it has them.
    pub(crate) fn take(&mut self, bytes: u64) -> bool {
        match self.left.checked_sub(bytes) {
            Some(left) => {
                self.left = left;
                self.spent += bytes;
                true
            }
            None => false,
        }
    }
}

/// The number of tensors the BTF file `source` declares, and each of them
/// in order, summarized on its own (a damaged record is its error, naming
/// the tensor and the part of its record, and does not hide the others;
/// a record the budget cannot check is [`BtfError::is_not_scanned`]).
/// Fails at once when the count or the offset table does not fit the file.
pub fn summaries<'s>(
    source: &'s mut dyn Source,
    budget: &'s mut ScanBudget,
) -> Result<
    (
        u64,
        impl Iterator<Item = Result<TensorSummary, BtfError>> + 's,
    ),
    BtfError,
> {
    let count = locate::read_count(source)?;
    let tensors = (0..count)
        .map(move |index| summarize(source, index, count, budget).map_err(|e| e.in_tensor(index)));
    Ok((count, tensors))
}

/// The summary of record `index` of the `count` that `source` holds.
fn summarize(
    source: &mut dyn Source,
    index: u64,
    count: u64,
    budget: &mut ScanBudget,
) -> Result<TensorSummary, BtfError> {
    let offset = locate::record_offset(source, i64::try_from(index).unwrap_or(i64::MAX), count)?;
    let header = locate::read_header(source, offset)?;
    let (dims, data, stored, layout) =
        match locate::payload_extent_within(source, &header, Some(budget))? {
            PayloadExtent::Dense(dense) => {
                let stored = dense.num_elements();
                (dense.dims, dense.data, stored, Layout::RowMajorDense)
            }
            PayloadExtent::Coo { dims, values, .. } => {
                let stored = values.dims[0];
                (dims, values.data, stored, Layout::Coo)
            }
        };
    let part = match layout {
        Layout::RowMajorDense => Part::Data,
        Layout::Coo => Part::CooValues,
    };
    let size = header.dtype.size();
    let length = data.end - data.start;
    let statistics = if stored == 0 {
        Statistics::Empty
    } else if budget.take(length) {
        Statistics::Computed(Stats::default())
    } else {
        Statistics::Skipped
    };
    // Only the preview's bytes are read when there are no statistics.
    let scanned = match statistics {
        Statistics::Computed(_) => length,
        _ => length.min((PREVIEW_VALUES * size) as u64),
    };
    let mut accumulator = Accumulator::default();
    let mut preview = Vec::with_capacity(PREVIEW_VALUES);
    let mut chunk = vec![0u8; CHUNK_BYTES.min(scanned as usize)];
    let mut at = data.start;
    while at < data.start + scanned {
        let len = chunk.len().min((data.start + scanned - at) as usize);
        read_into(
            source,
            at,
            &mut chunk[..len],
            Place::Record { tensor: None, part },
        )?;
        for bytes in chunk[..len].chunks_exact(size) {
            let value = Value::from_le(header.dtype, bytes);
            if preview.len() < PREVIEW_VALUES {
                preview.push(value);
            }
            accumulator.add(value);
        }
        at += len as u64;
    }
    let statistics = match statistics {
        Statistics::Computed(_) => Statistics::Computed(accumulator.stats()),
        other => other,
    };
    Ok(TensorSummary {
        index,
        offset,
        data_offset: data.start,
        dtype: header.dtype,
        layout,
        dims,
        stored,
        statistics,
        preview,
    })
}

/// One pass: least and greatest by the dtype's order, mean in f64, NaNs
/// counted apart.
#[derive(Default)]
struct Accumulator {
    min: Option<Value>,
    max: Option<Value>,
    sum: f64,
    counted: u64,
    nan: u64,
}

impl Accumulator {
    fn add(&mut self, value: Value) {
        if value.is_nan() {
            self.nan += 1;
            return;
        }
        if self.min.is_none_or(|m| value.less(m)) {
            self.min = Some(value);
        }
        if self.max.is_none_or(|m| m.less(value)) {
            self.max = Some(value);
        }
        self.sum += value.as_f64();
        self.counted += 1;
    }

    fn stats(&self) -> Stats {
        Stats {
            min: self.min,
            max: self.max,
            mean: (self.counted > 0).then(|| self.sum / self.counted as f64),
            nan: self.nan,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::btf::{SliceSource, TensorToWrite, write};

    fn le<T: Copy, const N: usize>(values: &[T], bytes: impl Fn(T) -> [u8; N]) -> Vec<u8> {
        values.iter().flat_map(|&v| bytes(v)).collect()
    }

    fn summarize_all(bytes: &[u8], budget: ScanBudget) -> Vec<Result<TensorSummary, BtfError>> {
        let mut source = SliceSource(bytes);
        let mut budget = budget;
        let (_, tensors) = summaries(&mut source, &mut budget).expect("count and offsets");
        tensors.collect()
    }

    fn computed(summary: &TensorSummary) -> &Stats {
        match &summary.statistics {
            Statistics::Computed(stats) => stats,
            other => panic!("no statistics: {other:?}"),
        }
    }

    #[test]
    fn dense_statistics_skip_nans_and_preview_the_first_values() {
        let data = le(
            &[1.5f32, f32::NAN, -2.0, 3.25, 0.0, f32::NAN, 6.0, 7.0],
            f32::to_le_bytes,
        );
        let bytes = write(&[TensorToWrite::Dense {
            dtype: BtfDType::F32,
            dims: &[2, 4],
            data: &data,
        }])
        .unwrap();
        let tensors = summarize_all(&bytes, ScanBudget::for_file(bytes.len() as u64));
        let tensor = tensors[0].as_ref().unwrap();
        assert_eq!((tensor.offset, tensor.data_offset), (16, 48));
        assert_eq!(tensor.stored, 8);
        let stats = computed(tensor);
        assert_eq!(stats.min, Some(Value::F32(-2.0)));
        assert_eq!(stats.max, Some(Value::F32(7.0)));
        assert_eq!(stats.mean, Some(15.75 / 6.0));
        assert_eq!(stats.nan, 2);
        assert_eq!(tensor.preview.len(), PREVIEW_VALUES);
        assert_eq!(tensor.preview_text(), "[1.5, NaN, -2.0, 3.25, 0.0, NaN, …]");
        assert_eq!(tensor.shape_text(), "[2, 4]");
        assert_eq!(
            tensor.statistics_cells(),
            ["-2.0", "7.0", "2.625", "2"].map(String::from)
        );
    }

    #[test]
    fn integers_keep_their_sign_and_full_range() {
        let small = le(&[-128i8, 0, 127], i8::to_le_bytes);
        let large = le(&[u64::MAX, 6], u64::to_le_bytes);
        let bytes = write(&[
            TensorToWrite::Dense {
                dtype: BtfDType::I8,
                dims: &[3],
                data: &small,
            },
            TensorToWrite::Dense {
                dtype: BtfDType::UI64,
                dims: &[2],
                data: &large,
            },
        ])
        .unwrap();
        let tensors = summarize_all(&bytes, ScanBudget::for_file(bytes.len() as u64));
        let i8s = computed(tensors[0].as_ref().unwrap());
        assert_eq!(
            (i8s.min, i8s.max),
            (Some(Value::Int(-128)), Some(Value::Int(127)))
        );
        let u64s = computed(tensors[1].as_ref().unwrap());
        assert_eq!(u64s.max, Some(Value::UInt(u64::MAX)));
        assert_eq!(
            tensors[1].as_ref().unwrap().statistics_cells()[1],
            "18446744073709551615"
        );
    }

    #[test]
    fn coo_statistics_cover_the_stored_values() {
        let indices = [0u64, 1, 2, 2];
        let values = le(&[4.0f32, -1.0], f32::to_le_bytes);
        let bytes = write(&[TensorToWrite::Coo {
            dtype: BtfDType::F32,
            dims: &[3, 3],
            indices: &indices,
            values: &values,
        }])
        .unwrap();
        let tensors = summarize_all(&bytes, ScanBudget::for_file(bytes.len() as u64));
        let tensor = tensors[0].as_ref().unwrap();
        assert_eq!(tensor.layout, Layout::Coo);
        assert_eq!(tensor.stored, 2);
        assert_eq!(tensor.shape_text(), "[3, 3] (2 stored)");
        let at = tensor.data_offset as usize;
        assert_eq!(&bytes[at..at + 8], &values[..]);
        assert_eq!(computed(tensor).mean, Some(1.5));
    }

    #[test]
    fn records_sharing_bytes_are_scanned_within_the_budget() {
        let data = le(&[1i32, 2, 3, 4], i32::to_le_bytes);
        let mut bytes = write(&[TensorToWrite::Dense {
            dtype: BtfDType::I32,
            dims: &[4],
            data: &data,
        }])
        .unwrap();
        // Three offsets naming the one record: the table grows by two
        // entries, so the record moves 16 bytes on.
        let record = bytes.split_off(16);
        bytes = [3u64, 32, 32, 32]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .chain(record)
            .collect();
        // Each record costs 8 bytes of dims and 16 of elements: the third
        // one's dims are paid for, its elements not.
        let tensors = summarize_all(&bytes, ScanBudget::bytes(2 * 24 + 8));
        let statistics: Vec<&Statistics> = tensors
            .iter()
            .map(|t| &t.as_ref().unwrap().statistics)
            .collect();
        assert!(matches!(statistics[0], Statistics::Computed(_)));
        assert!(matches!(statistics[1], Statistics::Computed(_)));
        assert_eq!(statistics[2], &Statistics::Skipped);
    }

    #[test]
    fn empty_tensors_have_no_statistics() {
        let bytes = write(&[TensorToWrite::Dense {
            dtype: BtfDType::F64,
            dims: &[0, 3],
            data: &[],
        }])
        .unwrap();
        let tensors = summarize_all(&bytes, ScanBudget::for_file(bytes.len() as u64));
        let tensor = tensors[0].as_ref().unwrap();
        assert_eq!(tensor.statistics, Statistics::Empty);
        assert_eq!(tensor.preview_text(), "[]");
    }

    #[test]
    fn a_damaged_record_is_its_error_and_the_others_still_read() {
        let data = le(&[1i32, 2], i32::to_le_bytes);
        let mut bytes = write(&[
            TensorToWrite::Dense {
                dtype: BtfDType::I32,
                dims: &[2],
                data: &data,
            },
            TensorToWrite::Dense {
                dtype: BtfDType::I32,
                dims: &[2],
                data: &data,
            },
        ])
        .unwrap();
        // The first record's dtype code becomes one the format does not name.
        bytes[24 + 8] = 42;
        let tensors = summarize_all(&bytes, ScanBudget::for_file(bytes.len() as u64));
        let error = tensors[0].as_ref().unwrap_err();
        assert_eq!(error.offset(), None);
        assert_eq!(
            error.to_string(),
            "tensor 0's header names a dtype the format does not define"
        );
        assert!(tensors[1].is_ok());
    }

    #[test]
    fn compact_rounds_to_six_significant_digits() {
        assert_eq!(compact(0.001_234_567), "0.00123457");
        assert_eq!(compact(-0.5), "-0.5");
        assert_eq!(compact(123_456.7), "123457.0");
        assert_eq!(compact(536_870_913.25), "5.36871e8");
        assert_eq!(compact(1.0), "1.0");
        assert_eq!(compact(2.5e-7), "2.5e-7");
        assert_eq!(compact(f64::NAN), "NaN");
        assert_eq!(compact(f64::NEG_INFINITY), "-inf");
    }
}
