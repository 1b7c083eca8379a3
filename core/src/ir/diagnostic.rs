//! Diagnostics about a host program, from parsing, verification,
//! translation and passes alike: a severity, a message and the location it
//! belongs to. `text::render_diagnostic` turns one into
//! `file:line:col: error: message` with the source line and a caret.

use std::fmt;

use super::location::Location;

/// How serious a diagnostic is, as MLIR grades them. Only errors make a
/// tool fail; remarks report what an analysis found (`--tfrt-print-stream`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Severity {
    /// Something is wrong: the program is rejected.
    #[default]
    Error,
    /// Something is suspicious but the program is accepted.
    Warning,
    /// Extra information attached to another diagnostic.
    Note,
    /// Information an analysis or pass reports.
    Remark,
}

impl Severity {
    /// The word MLIR prints before the message (`error`, `remark`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A diagnostic about a host program: how serious, what, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where the problem is; `Location::Unknown` when it has no place.
    pub location: Location,
    /// What is wrong, without the location.
    pub message: String,
    /// Error, warning, note or remark.
    pub severity: Severity,
}

impl Diagnostic {
    /// An error at `location`.
    pub fn new(location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            location,
            message: message.into(),
            severity: Severity::Error,
        }
    }

    /// A remark at `location`: information, not a failure.
    pub fn remark(location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Remark,
            ..Diagnostic::new(location, message)
        }
    }

    /// Whether this is an error (the only severity that makes a tool fail).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:col: error: message` (`remark:` and so on for the other
    /// severities; without the source excerpt; without
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
                write!(f, "{line}:{column}: {}: {}", self.severity, self.message)
            }
            None => write!(f, "{}: {}", self.severity, self.message),
        }
    }
}

impl std::error::Error for Diagnostic {}
