//! Command-line front ends shared by the `bef` binary and its tests:
//! argument spellings of the reference tools, diagnostics verification and
//! the `translate` command.

pub mod args;
pub mod diagnostics;
pub mod run;
pub mod translate;

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// Already reported on stderr in full (diagnostics with source lines);
    /// the command just exits with status 1.
    Reported,
    /// A one-line message the binary prints as `error: ...`.
    Message(String),
    /// Writing the output failed (a closed pipe is not an error).
    Output(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Output(e)
    }
}
