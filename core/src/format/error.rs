//! Errors of the BEF decoder, verifier and encoder.

use std::fmt;

/// A problem found in untrusted BEF bytes, with the absolute file offset of
/// the byte where it was detected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Absolute file offset of the byte where the problem was found.
    pub offset: u64,
    /// What is wrong, without the offset.
    pub message: String,
}

impl DecodeError {
    /// An error at absolute file offset `offset`.
    pub fn new(offset: u64, message: impl Into<String>) -> Self {
        DecodeError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {:#x}", self.message, self.offset)
    }
}

impl std::error::Error for DecodeError {}

/// Result of decoding untrusted BEF bytes.
pub type DecodeResult<T> = Result<T, DecodeError>;

/// A module model that cannot be written as BEF (an index out of range, a
/// value too large for its field, ...).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EncodeError(pub String);

/// Result of encoding a module model.
pub type EncodeResult<T> = Result<T, EncodeError>;
