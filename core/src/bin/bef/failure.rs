//! How a subcommand failed, and so what the binary prints and its exit
//! status.

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
