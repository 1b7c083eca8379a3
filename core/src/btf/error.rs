//! What can be wrong with a BTF file, and where.
//!
//! Errors describe, never echo: a file that fails validation may be any
//! file at all (a program can name a secrets file as its weights), so an
//! error names the rule it breaks, the file's size and the structure it is
//! about, and never a value read from the file: not the tensor count, not
//! an offset from the offset table, not a dtype or layout code, dims or a
//! coordinate. A byte offset is shown only when the reader computed it
//! itself (the count field at 0, the table entry of tensor `i` at
//! `8 + 8 * i`); a part of a record, which the reader found by following
//! an offset read from the file, is named by its tensor ("tensor 3's
//! dims"), since its absolute offset would give that value away.

use std::fmt;

use super::COUNT_BYTES;

/// A BTF file that cannot be read as asked: what is wrong, where, in a
/// file of how many bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BtfError {
    /// The structure the error is about.
    pub place: Place,
    /// What is wrong.
    pub kind: BtfErrorKind,
    /// The file's size in bytes.
    pub size: u64,
}

/// The structure of a BTF file an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The tensor count field, at offset 0.
    Count,
    /// The offset table's entry for tensor `index` (at `8 + 8 * index`).
    TableEntry(u64),
    /// A part of a record, found through the offset table: of tensor
    /// `tensor` when the reader knows which.
    Record {
        /// The tensor whose record it is.
        tensor: Option<u64>,
        /// The part of the record.
        part: Part,
    },
    /// Not the file: the program's request (a tensor index).
    Request,
}

/// A part of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Rank, dtype, layout and reserved bytes.
    Header,
    /// The dimensions.
    Dims,
    /// The elements of a dense record.
    Data,
    /// The shape (`[N, rank]`) of a COO record's coordinates.
    CooIndicesShape,
    /// A COO record's coordinates.
    CooIndices,
    /// The shape (`[N]`) of a COO record's values.
    CooValuesShape,
    /// A COO record's values.
    CooValues,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Header => "header",
            Part::Dims => "dims",
            Part::Data => "elements",
            Part::CooIndicesShape => "COO coordinates' shape",
            Part::CooIndices => "COO coordinates",
            Part::CooValuesShape => "COO values' shape",
            Part::CooValues => "COO values",
        }
    }
}

/// What is wrong with a BTF file. No variant holds a value read from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BtfErrorKind {
    /// The structure does not fit in the file: it starts or ends past its
    /// last byte.
    Truncated,
    /// The count field declares more tensors than the offset table the
    /// file has room for.
    CountTooLarge,
    /// A tensor index the program asked for is not one of the file's.
    IndexOutOfRange {
        /// The index asked for (the program's, not the file's).
        index: i64,
    },
    /// The header names a dtype the format does not define.
    UnknownDType,
    /// The header names a layout the format does not define.
    UnknownLayout,
    /// Dimensions whose element count (or byte size) overflows 64 bits.
    SizeOverflow,
    /// The shapes of a COO record's coordinates and values do not match
    /// its rank and each other.
    CooShape,
    /// A COO coordinate at or past its dimension.
    CooIndex {
        /// The stored element whose coordinate it is (counted by the
        /// reader).
        element: u64,
        /// The axis of the coordinate.
        axis: u64,
    },
    /// Checking the record would go past the scan budget of a listing
    /// (records may share bytes); it was not checked.
    NotScanned,
    /// The file could not be read.
    Io(String),
}

impl BtfError {
    pub(crate) fn new(place: Place, kind: BtfErrorKind, size: u64) -> BtfError {
        BtfError { place, kind, size }
    }

    /// An error about `part` of a record (whose tensor the caller adds
    /// with [`in_tensor`](Self::in_tensor)).
    pub(crate) fn record(part: Part, kind: BtfErrorKind, size: u64) -> BtfError {
        BtfError::new(Place::Record { tensor: None, part }, kind, size)
    }

    /// The same error, about tensor `index`'s record.
    pub fn in_tensor(mut self, index: u64) -> BtfError {
        if let Place::Record { tensor, .. } = &mut self.place {
            *tensor = tensor.or(Some(index));
        }
        self
    }

    /// The byte offset of the structure the error is about, when the
    /// reader computed it itself (the count field, a table entry), so that
    /// showing it gives away nothing the file holds. `None` for a part of
    /// a record and for a request.
    pub fn offset(&self) -> Option<u64> {
        match self.place {
            Place::Count => Some(0),
            Place::TableEntry(index) => Some(table_entry_offset(index)),
            Place::Record { .. } | Place::Request => None,
        }
    }

    /// Whether the record was left unchecked by a listing's scan budget
    /// rather than found damaged.
    pub fn is_not_scanned(&self) -> bool {
        self.kind == BtfErrorKind::NotScanned
    }
}

/// Where the offset table holds tensor `index`'s record offset.
pub(crate) fn table_entry_offset(index: u64) -> u64 {
    index.saturating_mul(8).saturating_add(COUNT_BYTES)
}

/// "tensor 3's dims" or "a record's dims".
struct Whose(Option<u64>, Part);

impl fmt::Display for Whose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(index) => write!(f, "tensor {index}'s {}", self.1.name()),
            None => write!(f, "a record's {}", self.1.name()),
        }
    }
}

impl fmt::Display for BtfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size;
        match (&self.place, &self.kind) {
            (_, BtfErrorKind::IndexOutOfRange { index }) => {
                write!(f, "tensor index {index} is out of range for this file")
            }
            (Place::Count, BtfErrorKind::CountTooLarge) => write!(
                f,
                "the file's tensor count field (at offset 0) declares more tensors than its \
                 {size} bytes can hold"
            ),
            (Place::Count, BtfErrorKind::Truncated) => write!(
                f,
                "the file's {size} bytes are too few for the tensor count field (8 bytes at \
                 offset 0)"
            ),
            (Place::TableEntry(index), BtfErrorKind::Truncated) => write!(
                f,
                "tensor {index}'s entry of the offset table (at offset {}) lies past the end \
                 of the {size}-byte file",
                table_entry_offset(*index)
            ),
            (Place::Record { tensor, part }, kind) => {
                let whose = Whose(*tensor, *part);
                match kind {
                    BtfErrorKind::Truncated => match (part, tensor) {
                        (Part::Header, Some(index)) => write!(
                            f,
                            "tensor {index}'s header offset (at offset {} of the offset table) \
                             points where a header does not fit in the {size}-byte file",
                            table_entry_offset(*index)
                        ),
                        _ => write!(f, "the {size}-byte file ends before the end of {whose}"),
                    },
                    BtfErrorKind::UnknownDType => {
                        write!(f, "{whose} names a dtype the format does not define")
                    }
                    BtfErrorKind::UnknownLayout => {
                        write!(f, "{whose} names a layout the format does not define")
                    }
                    BtfErrorKind::SizeOverflow => write!(
                        f,
                        "{whose} make an element count or byte size that exceeds 64 bits"
                    ),
                    BtfErrorKind::CooShape => write!(
                        f,
                        "{whose} does not match: a COO record's coordinates must be [N, rank] \
                         and its values [N] for one N"
                    ),
                    BtfErrorKind::CooIndex { element, axis } => write!(
                        f,
                        "{whose}: the coordinate of stored element {element} on axis {axis} is \
                         not less than its dimension"
                    ),
                    BtfErrorKind::NotScanned => write!(
                        f,
                        "{whose}: not checked, as the file's records share bytes and checking \
                         stops after its size plus {} MiB",
                        super::summary::EXTRA_SCAN_BYTES >> 20
                    ),
                    BtfErrorKind::Io(error) => write!(f, "failed to read {whose}: {error}"),
                    BtfErrorKind::CountTooLarge | BtfErrorKind::IndexOutOfRange { .. } => {
                        write!(f, "{whose} cannot be read")
                    }
                }
            }
            (_, BtfErrorKind::Io(error)) => {
                write!(f, "failed to read the {size}-byte file: {error}")
            }
            (_, _) => write!(f, "the {size}-byte file is not valid BTF"),
        }
    }
}

impl std::error::Error for BtfError {}
