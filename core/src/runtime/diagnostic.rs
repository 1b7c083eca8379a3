//! Diagnostics carried by error AsyncValues and reported to the host
//! context's diagnostic sink.

use std::fmt;

/// Canonical error codes (the TFRT / absl set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// An error of unknown kind (only when a producer says so: an error
    /// made from a message alone is [`Internal`](Self::Internal)).
    Unknown,
    /// The operation was cancelled, usually by its caller.
    Cancelled,
    /// The caller passed an invalid value, whatever the system's state.
    InvalidArgument,
    /// A deadline expired before the operation completed.
    DeadlineExceeded,
    /// A requested entity was not found.
    NotFound,
    /// An entity the operation would create already exists.
    AlreadyExists,
    /// The caller may not perform the operation.
    PermissionDenied,
    /// A resource (memory, quota, space) ran out.
    ResourceExhausted,
    /// The system is not in the state the operation requires.
    FailedPrecondition,
    /// The operation was aborted, as by a conflict with another.
    Aborted,
    /// An index or position lies past the valid range.
    OutOfRange,
    /// The operation is not implemented or supported.
    Unimplemented,
    /// An invariant of the system is broken, or an error of no other kind:
    /// the default, as the reference makes an error from a message alone an
    /// internal error (`code: INTERNAL` under `--print_error_code`).
    #[default]
    Internal,
    /// The service is unavailable for now; retrying may help.
    Unavailable,
    /// Data was lost or corrupted beyond recovery.
    DataLoss,
    /// The caller has no valid credentials.
    Unauthenticated,
}

impl ErrorCode {
    /// The code's name as TFRT prints it (`"INVALID_ARGUMENT"` ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Unknown => "UNKNOWN",
            ErrorCode::Cancelled => "CANCELLED",
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::DeadlineExceeded => "DEADLINE_EXCEEDED",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::AlreadyExists => "ALREADY_EXISTS",
            ErrorCode::PermissionDenied => "PERMISSION_DENIED",
            ErrorCode::ResourceExhausted => "RESOURCE_EXHAUSTED",
            ErrorCode::FailedPrecondition => "FAILED_PRECONDITION",
            ErrorCode::Aborted => "ABORTED",
            ErrorCode::OutOfRange => "OUT_OF_RANGE",
            ErrorCode::Unimplemented => "UNIMPLEMENTED",
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::Unavailable => "UNAVAILABLE",
            ErrorCode::DataLoss => "DATA_LOSS",
            ErrorCode::Unauthenticated => "UNAUTHENTICATED",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A source location (file, 1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file name.
    pub file: String,
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A decoded diagnostic: message, optional location and an error code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// The error text, without location or code.
    pub message: String,
    /// Where the error arose, if known.
    pub location: Option<Location>,
    /// The kind of error.
    pub code: ErrorCode,
}

impl Diagnostic {
    /// A diagnostic with the default code ([`ErrorCode::Internal`]) and no
    /// location.
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic {
            message: message.into(),
            location: None,
            code: ErrorCode::default(),
        }
    }

    /// Sets the error code.
    pub fn with_code(mut self, code: ErrorCode) -> Self {
        self.code = code;
        self
    }

    /// Sets the source location.
    pub fn with_location(mut self, file: impl Into<String>, line: u32, column: u32) -> Self {
        self.location = Some(Location {
            file: file.into(),
            line,
            column,
        });
        self
    }
}

impl From<&str> for Diagnostic {
    fn from(message: &str) -> Self {
        Diagnostic::new(message)
    }
}

impl From<String> for Diagnostic {
    fn from(message: String) -> Self {
        Diagnostic::new(message)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        if self.code != ErrorCode::default() {
            write!(f, "{}: ", self.code)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_includes_location_and_code() {
        let d = Diagnostic::new("shape mismatch")
            .with_code(ErrorCode::InvalidArgument)
            .with_location("a.mlir", 3, 7);
        assert_eq!(
            d.to_string(),
            "a.mlir:3:7: INVALID_ARGUMENT: shape mismatch"
        );
        assert_eq!(Diagnostic::from("x").to_string(), "x");
        assert_eq!(Diagnostic::from("x").code, ErrorCode::Internal);
        assert_eq!(
            Diagnostic::new("x")
                .with_code(ErrorCode::Unknown)
                .to_string(),
            "UNKNOWN: x"
        );
    }
}
