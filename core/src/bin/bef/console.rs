//! Everything `bef` prints for a person goes through here. Names, messages
//! and kernel output come from the input, so the text is escaped
//! (`bef::tool_io::escape`): a function named with an escape sequence
//! cannot set the window title or write the clipboard. A failed write to
//! standard output (a full disk, `/dev/full`) is kept and makes the command
//! fail at the end instead of being lost; a closed pipe (`| head`) is not
//! an error.

use std::io::{self, Write};
use std::sync::Mutex;

use bef::tool_io::escape;

/// The first failed write to standard output.
static STDOUT_ERROR: Mutex<Option<io::Error>> = Mutex::new(None);

/// Writes `text` to standard output, escaped, and flushes.
pub fn out(text: &str) {
    out_with(|out| out.write_all(escape::terminal_lines(text).as_bytes()));
}

/// Lets `write` stream to standard output (buffered, flushed at the end)
/// text that is already safe for a terminal, such as JSON written through
/// `bef::tool_io::json::TerminalSafe`.
pub fn out_with(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
    let stdout = io::stdout();
    let mut buffered = io::BufWriter::with_capacity(64 << 10, stdout.lock());
    let result = write(&mut buffered).and_then(|()| buffered.flush());
    if let Err(e) = result
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        STDOUT_ERROR
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(e);
    }
}

/// [`out`] with a newline.
pub fn out_line(line: &str) {
    out(&format!("{line}\n"));
}

/// Writes `text` to standard error, escaped.
pub fn err(text: &str) {
    // Nowhere left to report a failure to write an error.
    let _ = io::stderr().write_all(escape::terminal_lines(text).as_bytes());
}

/// [`err`] with a newline.
pub fn err_line(line: &str) {
    err(&format!("{line}\n"));
}

/// The first failed write to standard output, if any (taken).
pub fn take_stdout_error() -> Option<io::Error> {
    STDOUT_ERROR
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
}

/// Whether output to standard output may be coloured: it is a terminal and
/// `NO_COLOR` (<https://no-color.org>) is unset or empty.
pub fn stdout_wants_colour() -> bool {
    use std::io::IsTerminal;
    io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}
