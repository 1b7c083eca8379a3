//! Running the `bef-trace` binary under bounds (`bef_test_support::measured`)
//! and checking what it writes.

use std::process::Command;
use std::time::Duration;

pub use bef_test_support::measured::Measured;
pub use bef_test_support::terminal::raw_controls;

/// `bef-trace` with `args`, in the repository root.
pub fn bef_trace(args: &[&std::ffi::OsStr]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bef-trace"));
    command.args(args).current_dir(super::repo_root());
    command
}

/// Runs `command` with no standard input and its standard output a pipe,
/// or `stdout` when given (a file such as `/dev/full`); kills it after
/// `timeout`.
pub fn run(command: Command, stdout: Option<std::fs::File>, timeout: Duration) -> Measured {
    let streams = bef_test_support::measured::Streams {
        stdin: None,
        stdout,
    };
    bef_test_support::measured::run(command, streams, timeout)
}

/// Checks that `svg` is a well-formed XML document: quick-xml reads it to
/// the end with matching tags, and every character is one XML 1.0 allows
/// (which quick-xml does not check).
pub fn well_formed_xml(svg: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(svg).map_err(|e| format!("not UTF-8: {e}"))?;
    let allowed = |c: char| matches!(c, '\t' | '\n' | '\r' | ' '..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..);
    if let Some((at, c)) = text.char_indices().find(|&(_, c)| !allowed(c)) {
        return Err(format!("{c:?} at byte {at}, which XML does not allow"));
    }
    let mut reader = quick_xml::Reader::from_str(text);
    let mut depth = 0usize;
    let mut root = false;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(_)) => {
                depth += 1;
                root = true;
            }
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(quick_xml::events::Event::Text(t)) => {
                t.decode()
                    .map_err(|e| format!("text at {}: {e}", reader.buffer_position()))?;
            }
            Ok(quick_xml::events::Event::GeneralRef(r)) => {
                let at = reader.buffer_position();
                if r.is_char_ref() {
                    match r.resolve_char_ref() {
                        Ok(Some(c)) if allowed(c) => {}
                        other => return Err(format!("character reference at {at}: {other:?}")),
                    }
                } else {
                    let name = r.decode().map_err(|e| format!("reference at {at}: {e}"))?;
                    if !["amp", "lt", "gt", "quot", "apos"].contains(&name.as_ref()) {
                        return Err(format!("undefined entity &{name}; at {at}"));
                    }
                }
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(format!("at byte {}: {e}", reader.error_position())),
        }
    }
    if !root || depth != 0 {
        return Err(format!("unbalanced document (depth {depth} at the end)"));
    }
    Ok(())
}
