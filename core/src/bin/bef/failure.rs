//! How a subcommand failed, and so what the binary prints and its exit
//! status.
//!
//! The rule (also in `bef --help`): a failure that can be told from the
//! command line and the file system alone, whatever the input holds — an
//! option clap rejects, options that contradict each other, an input or
//! output path that does not exist, is a directory or cannot be opened,
//! binary output to a terminal — is a usage error, exit status 2, as
//! clap's own. Everything found by reading the input — empty, of the wrong
//! kind for the subcommand or its options, malformed, rejected by
//! translation or verification, failing at run time — exits with 1.

use crate::console;
use std::process::ExitCode;

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// Already reported on stderr in full (diagnostics with source lines);
    /// the command just exits with status 1.
    Reported,
    /// A problem with the input or the program it holds: a one-line
    /// message the binary prints as `error: ...`, exit status 1.
    Message(String),
    /// A problem with the command line or the paths it names, whatever the
    /// input holds: printed as `error: ...`, exit status 2.
    Usage(String),
    /// Writing the output failed (a closed pipe is not an error).
    Output(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Output(e)
    }
}

/// Exit status of an error in the input or the program.
pub const INPUT_ERROR: u8 = 1;
/// Exit status of a usage error (clap uses the same).
pub const USAGE_ERROR: u8 = 2;

impl Failure {
    /// Prints what has not been printed yet and returns the exit status.
    pub fn report(self) -> ExitCode {
        match self {
            // `bef dump x.bef | head` closes the pipe early; not an error.
            Failure::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Failure::Output(e) => {
                console::err_line(&format!("error: cannot write output: {e}"));
                ExitCode::from(INPUT_ERROR)
            }
            Failure::Message(message) => {
                console::err_line(&format!("error: {message}"));
                ExitCode::from(INPUT_ERROR)
            }
            Failure::Usage(message) => {
                console::err_line(&format!("error: {message}"));
                ExitCode::from(USAGE_ERROR)
            }
            Failure::Reported => ExitCode::from(INPUT_ERROR),
        }
    }
}
