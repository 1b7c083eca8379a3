//! What can be wrong with a BTF file, and where.

use std::fmt;

use super::dtype_code_name;

/// A BTF file that cannot be read as asked, at byte `offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BtfError {
    /// The byte the error is about (the start of what could not be read).
    pub offset: u64,
    /// What is wrong.
    pub kind: BtfErrorKind,
}

/// What is wrong with a BTF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BtfErrorKind {
    /// `what` needs `needed` bytes at the offset but the file has only
    /// `available` from there.
    Truncated {
        /// What was being read (the reference's words: `tensor header`).
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes the file has from the offset on.
        available: u64,
    },
    /// A tensor index at or past the number of tensors.
    IndexOutOfRange {
        /// The index asked for.
        index: i64,
        /// The number of tensors in the file.
        count: u64,
    },
    /// A dtype code the format does not name.
    UnknownDType(u8),
    /// A layout code the format does not name.
    UnknownLayout(u8),
    /// Dimensions whose element count (or byte size) overflows 64 bits.
    SizeOverflow {
        /// The dimensions.
        dims: Vec<u64>,
    },
    /// The dimensions of a COO record's indices or values do not match
    /// its rank and each other.
    CooShape {
        /// The indices' dimensions (`[N, rank]` expected).
        indices: Vec<u64>,
        /// The values' dimensions (`[N]` expected).
        values: Vec<u64>,
        /// The rank of the tensor.
        rank: u64,
    },
    /// A COO coordinate at or past its dimension.
    CooIndex {
        /// The element whose coordinate it is.
        element: u64,
        /// The axis of the coordinate.
        axis: u64,
        /// The coordinate.
        value: u64,
        /// The dimension it must be less than.
        limit: u64,
    },
    /// The file could not be read.
    Io(String),
}

impl BtfError {
    pub(crate) fn new(offset: u64, kind: BtfErrorKind) -> BtfError {
        BtfError { offset, kind }
    }

    pub(crate) fn truncated(offset: u64, what: &'static str, needed: u64, size: u64) -> BtfError {
        BtfError::new(
            offset,
            BtfErrorKind::Truncated {
                what,
                needed,
                available: size.saturating_sub(offset),
            },
        )
    }
}

impl fmt::Display for BtfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let offset = self.offset;
        match &self.kind {
            BtfErrorKind::Truncated {
                what,
                needed,
                available,
            } => write!(
                f,
                "failed to read {what} at offset {offset}: {needed} bytes needed, {available} in the file from there"
            ),
            BtfErrorKind::IndexOutOfRange { index, count } => write!(
                f,
                "invalid tensor index {index}: the file contains {count} tensors"
            ),
            BtfErrorKind::UnknownDType(code) => write!(
                f,
                "unexpected tensor dtype {} in the header at offset {offset}",
                dtype_code_name(*code)
            ),
            BtfErrorKind::UnknownLayout(code) => write!(
                f,
                "unexpected tensor layout {code} in the header at offset {offset}"
            ),
            BtfErrorKind::SizeOverflow { dims } => write!(
                f,
                "tensor dims {} at offset {offset} overflow: the element count or byte size exceeds 64 bits",
                Dims(dims)
            ),
            BtfErrorKind::CooShape {
                indices,
                values,
                rank,
            } => write!(
                f,
                "the COO tensor at offset {offset} is not correctly formatted: indices {} and values {} do not match rank {rank}",
                Dims(indices),
                Dims(values)
            ),
            BtfErrorKind::CooIndex {
                element,
                axis,
                value,
                limit,
            } => write!(
                f,
                "the COO tensor at offset {offset} has coordinate {value} at element {element}, axis {axis}, past its dimension {limit}"
            ),
            BtfErrorKind::Io(error) => write!(f, "failed to read at offset {offset}: {error}"),
        }
    }
}

impl std::error::Error for BtfError {}

/// Dimensions as the reference prints shapes: `[2, 3]`.
pub(crate) struct Dims<'a>(pub &'a [u64]);

impl fmt::Display for Dims<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}
