//! Errors of the MLIR bytecode reader and writer: what was wrong and at
//! which byte of the file.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BytecodeError {
    /// Absolute byte offset in the input (0 for writer errors).
    pub offset: usize,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, BytecodeError>;

impl BytecodeError {
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
