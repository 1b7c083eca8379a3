//! The Binary Tensor Format (BTF): a file of tensors, as TFRT's model
//! programs read their weights and test data.
//!
//! ```text
//! FILE          ::= NUM_TENSORS:u64 RECORD_OFFSET:u64* RECORD*
//! RECORD        ::= RANK:u64 DTYPE:u8 LAYOUT:u8 RESERVED:6 bytes PAYLOAD PADDING:0-7 bytes
//! dense PAYLOAD ::= DIMS:u64[RANK] DATA
//! COO PAYLOAD   ::= DIMS:u64[RANK] INDICES VALUES
//! INDICES       ::= [N, RANK]:u64[2] u64[N * RANK]
//! VALUES        ::= [N]:u64[1] DTYPE[N]
//! ```
//!
//! Every integer is little-endian. Dtype and layout codes are those of the
//! reference's `btf.h`; where its format document differs (it gives COO the
//! layout code 2), the header, which the reference's reader and writer use,
//! is followed: COO is 1.
//!
//! [`BtfFile`] reads a file in memory without copying its elements;
//! [`locate`] finds one record through any [`Source`] (a file read piece by
//! piece, so that a reader allocates no more than the record it asked for);
//! [`write()`] makes a file. Readers check every count and offset against the
//! bytes there are before using it. A [`BtfError`] describes and never
//! echoes: it names the rule broken, the file's size and the structure it
//! is about (the count field, a table entry, a part of tensor `i`'s
//! record), never a value read from the file.
//!
//! ```
//! use bef::btf::{BtfDType, BtfFile, Payload, TensorToWrite, write};
//!
//! let elements: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]
//!     .iter()
//!     .flat_map(|x| x.to_le_bytes())
//!     .collect();
//! let bytes = write(&[TensorToWrite::Dense {
//!     dtype: BtfDType::F32,
//!     dims: &[2, 3],
//!     data: &elements,
//! }])?;
//! let file = BtfFile::parse(&bytes)?;
//! assert_eq!(file.len(), 1);
//! let record = file.record(0)?;
//! assert_eq!((record.dtype, record.dims.as_slice()), (BtfDType::F32, &[2, 3][..]));
//! let Payload::Dense { data, .. } = record.payload else { unreachable!() };
//! assert_eq!(data, elements); // in place: a slice of `bytes`
//! // A count whose offsets do not fit the file is refused.
//! assert!(BtfFile::parse(&u64::MAX.to_le_bytes()).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod locate;
mod reader;
pub mod summary;
mod writer;

pub use error::{BtfError, BtfErrorKind, Part, Place};
pub use locate::{
    DenseExtent, FileSource, PayloadExtent, RecordHeader, SliceSource, Source, dense_extent,
    locate, payload_extent, payload_extent_within, read_count, read_header, record_offset,
};
pub use reader::{BtfFile, Payload, Record};
pub use writer::{TensorToWrite, WriteError, write};

use crate::format::DType;

/// Bytes of the tensor count at the start of a file.
pub const COUNT_BYTES: u64 = 8;

/// Bytes of a record's header (rank, dtype, layout, reserved bytes).
pub const HEADER_BYTES: u64 = 16;

/// An element type a BTF file can hold, with the reference's codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BtfDType {
    /// `int8`, code 0.
    I8,
    /// `int16`, code 1.
    I16,
    /// `int32`, code 2.
    I32,
    /// `int64`, code 3.
    I64,
    /// `float32`, code 4.
    F32,
    /// `float64`, code 5.
    F64,
    /// `uint8`, code 6.
    UI8,
    /// `uint16`, code 7.
    UI16,
    /// `uint32`, code 8.
    UI32,
    /// `uint64`, code 9.
    UI64,
}

impl BtfDType {
    /// Every dtype, in code order.
    pub const ALL: [BtfDType; 10] = [
        BtfDType::I8,
        BtfDType::I16,
        BtfDType::I32,
        BtfDType::I64,
        BtfDType::F32,
        BtfDType::F64,
        BtfDType::UI8,
        BtfDType::UI16,
        BtfDType::UI32,
        BtfDType::UI64,
    ];

    /// The dtype of code `code`, if the format names one.
    pub fn from_code(code: u8) -> Option<BtfDType> {
        Self::ALL.get(usize::from(code)).copied()
    }

    /// The code the file stores.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            BtfDType::I8 | BtfDType::UI8 => 1,
            BtfDType::I16 | BtfDType::UI16 => 2,
            BtfDType::I32 | BtfDType::UI32 | BtfDType::F32 => 4,
            BtfDType::I64 | BtfDType::UI64 | BtfDType::F64 => 8,
        }
    }

    /// The runtime's dtype of the same elements.
    pub fn dtype(self) -> DType {
        match self {
            BtfDType::I8 => DType::I8,
            BtfDType::I16 => DType::I16,
            BtfDType::I32 => DType::I32,
            BtfDType::I64 => DType::I64,
            BtfDType::F32 => DType::F32,
            BtfDType::F64 => DType::F64,
            BtfDType::UI8 => DType::UI8,
            BtfDType::UI16 => DType::UI16,
            BtfDType::UI32 => DType::UI32,
            BtfDType::UI64 => DType::UI64,
        }
    }

    /// The BTF dtype of the runtime's `dtype`, if BTF can hold it.
    pub fn from_dtype(dtype: DType) -> Option<BtfDType> {
        Self::ALL.into_iter().find(|d| d.dtype() == dtype)
    }

    /// The name the reference prints (`i32`, `f32`, `ui8`).
    pub fn name(self) -> &'static str {
        self.dtype().mlir_name()
    }
}

/// How the reference prints a dtype code: its name, or `BadDtype(12)`.
pub fn dtype_code_name(code: u8) -> String {
    match BtfDType::from_code(code) {
        Some(dtype) => dtype.name().to_string(),
        None => format!("BadDtype({code})"),
    }
}

/// How a record lays out its tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Row-major dense elements, code 0.
    RowMajorDense,
    /// Coordinates and values of the non-zero elements, code 1.
    Coo,
}

impl Layout {
    /// The layout of code `code`, if the format names one.
    pub fn from_code(code: u8) -> Option<Layout> {
        match code {
            0 => Some(Layout::RowMajorDense),
            1 => Some(Layout::Coo),
            _ => None,
        }
    }

    /// The code the file stores.
    pub fn code(self) -> u8 {
        match self {
            Layout::RowMajorDense => 0,
            Layout::Coo => 1,
        }
    }

    /// The name the reference prints.
    pub fn name(self) -> &'static str {
        match self {
            Layout::RowMajorDense => "Row-Major Dense tensor",
            Layout::Coo => "COOrdinate list sparse tensor",
        }
    }
}

#[cfg(test)]
mod tests;
