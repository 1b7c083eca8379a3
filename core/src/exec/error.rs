//! Errors of loading a program: undecodable bytes, unknown kernels, tables
//! that break the executor's rules.

use std::fmt;

use crate::format::DecodeError;
use crate::runtime::Location;

/// Why a BEF file cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// What is wrong.
    pub message: String,
    /// Source location (e.g. of the first kernel with an unknown name).
    pub location: Option<Location>,
    /// Byte offset in the file, for structural errors.
    pub offset: Option<u64>,
}

impl LoadError {
    /// An error with `message` and neither location nor offset.
    pub fn new(message: impl Into<String>) -> Self {
        LoadError {
            message: message.into(),
            location: None,
            offset: None,
        }
    }

    /// A structural error from the format reader.
    pub fn decode(error: DecodeError) -> Self {
        LoadError {
            message: error.message,
            location: None,
            offset: Some(error.offset),
        }
    }

    /// The error, located at `location` in the source program.
    pub fn at(mut self, location: Option<Location>) -> Self {
        self.location = location;
        self
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(offset) = self.offset {
            write!(f, "byte offset {offset:#x}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoadError {}
