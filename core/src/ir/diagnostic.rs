//! Errors found in a host program, parse and translation alike: a message
//! and the location it belongs to. `text::render_diagnostic` turns one into
//! `file:line:col: error: message` with the source line and a caret.

use std::fmt;

use super::location::Location;

/// An error in a host program: what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where the problem is; `Location::Unknown` when it has no place.
    pub location: Location,
    /// What is wrong, without the location.
    pub message: String,
}

impl Diagnostic {
    /// An error at `location`.
    pub fn new(location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            location,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:col: error: message` (without the source excerpt; without
    /// `file:` when the file name is empty). Control characters of the file
    /// name, which comes from the input, are escaped (`\u{1b}`), so that a
    /// name cannot drive the terminal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location.primary_position() {
            Some((file, line, column)) => {
                for c in file.chars() {
                    if c.is_control() {
                        write!(f, "{}", c.escape_default())?;
                    } else {
                        write!(f, "{c}")?;
                    }
                }
                if !file.is_empty() {
                    write!(f, ":")?;
                }
                write!(f, "{line}:{column}: error: {}", self.message)
            }
            None => write!(f, "error: {}", self.message),
        }
    }
}

impl std::error::Error for Diagnostic {}
