//! Errors of the MLIR bytecode reader and writer: what was wrong and at
//! which byte of the file.

use std::fmt;

/// An error reading or writing MLIR bytecode: a message and the byte it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BytecodeError {
    /// Absolute byte offset in the input (0 for writer errors).
    pub offset: usize,
    /// What was wrong, without the offset.
    pub message: String,
}

/// Result of the bytecode reader and writer.
pub type Result<T> = std::result::Result<T, BytecodeError>;

impl BytecodeError {
    /// An error at byte `offset` with the given message.
    pub fn new(offset: usize, message: impl Into<String>) -> BytecodeError {
        BytecodeError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for BytecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for BytecodeError {}
