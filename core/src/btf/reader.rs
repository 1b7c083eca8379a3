//! [`BtfFile`]: a BTF file in memory, its records read in place.

use super::error::BtfError;
use super::locate::{self, PayloadExtent, SliceSource};
use super::{BtfDType, Layout};

/// A BTF file in memory. Records are located on demand; their elements
/// are slices of the file's bytes.
#[derive(Clone, Copy, Debug)]
pub struct BtfFile<'a> {
    bytes: &'a [u8],
    count: u64,
}

/// One tensor record.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<'a> {
    /// Where the record starts in the file.
    pub offset: u64,
    /// The element type.
    pub dtype: BtfDType,
    /// The dimensions.
    pub dims: Vec<u64>,
    /// The elements.
    pub payload: Payload<'a>,
}

/// A record's elements, little-endian, as the file holds them.
#[derive(Clone, Debug, PartialEq)]
pub enum Payload<'a> {
    /// Row-major elements, starting at byte `offset` of the file.
    Dense {
        /// The elements.
        data: &'a [u8],
        /// Where they start in the file.
        offset: u64,
    },
    /// The stored elements of a sparse tensor.
    Coo {
        /// `rank` u64 coordinates per stored element.
        indices: &'a [u8],
        /// One value per stored element.
        values: &'a [u8],
        /// The number of stored elements.
        count: u64,
        /// Where the values start in the file.
        values_offset: u64,
    },
}

impl<'a> Record<'a> {
    /// The layout of the payload.
    pub fn layout(&self) -> Layout {
        match self.payload {
            Payload::Dense { .. } => Layout::RowMajorDense,
            Payload::Coo { .. } => Layout::Coo,
        }
    }

    /// The number of elements of the tensor (stored or not).
    pub fn num_elements(&self) -> u64 {
        // Checked not to overflow when the record was read.
        self.dims.iter().product()
    }
}

impl<'a> BtfFile<'a> {
    /// Reads the tensor count of `bytes`, checked to leave room for the
    /// offsets.
    pub fn parse(bytes: &'a [u8]) -> Result<BtfFile<'a>, BtfError> {
        let count = locate::read_count(&mut SliceSource(bytes))?;
        Ok(BtfFile { bytes, count })
    }

    /// The number of tensors.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether the file holds no tensor.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Record `index`, located and checked.
    pub fn record(&self, index: u64) -> Result<Record<'a>, BtfError> {
        let mut source = SliceSource(self.bytes);
        let index = i64::try_from(index).unwrap_or(i64::MAX);
        let offset = locate::record_offset(&mut source, index, self.count)?;
        let in_tensor = |e: BtfError| e.in_tensor(index as u64);
        let header = locate::read_header(&mut source, offset).map_err(in_tensor)?;
        let payload = locate::payload_extent(&mut source, &header).map_err(in_tensor)?;
        let slice = |range: std::ops::Range<u64>| {
            // Extents are checked to lie within the bytes.
            &self.bytes[range.start as usize..range.end as usize]
        };
        let (dims, payload) = match payload {
            PayloadExtent::Dense(dense) => {
                let offset = dense.data.start;
                (
                    dense.dims,
                    Payload::Dense {
                        data: slice(dense.data),
                        offset,
                    },
                )
            }
            PayloadExtent::Coo {
                dims,
                indices,
                values,
            } => {
                let count = values.dims[0];
                let values_offset = values.data.start;
                (
                    dims,
                    Payload::Coo {
                        indices: slice(indices.data),
                        values: slice(values.data),
                        count,
                        values_offset,
                    },
                )
            }
        };
        Ok(Record {
            offset,
            dtype: header.dtype,
            dims,
            payload,
        })
    }

    /// Every record in order, each located on its own (a damaged record
    /// does not hide the others) and checked in full: records may share
    /// bytes, so over a hostile file this can cost more than the file's
    /// size times its count; [`summary`](super::summary) lists a file
    /// within a budget.
    pub fn records(&self) -> impl Iterator<Item = Result<Record<'a>, BtfError>> + '_ {
        (0..self.count).map(|i| self.record(i))
    }
}
