//! Running the `bef-trace` binary under bounds: its peak resident memory,
//! its wall time (killed past a timeout), its output, and an address-space
//! limit so that a run gone wrong fails to allocate rather than take the
//! machine's memory.
//!
//! The peak is the child's own high-water mark (`VmHWM` in
//! `/proc/PID/status`), sampled every few milliseconds until it exits:
//! `wait4`'s `ru_maxrss` would also count the pages the child shared with this
//! test process when it was forked, which here (recordings generated in
//! memory, outputs collected) can be more than the bound itself. What the
//! child allocates in its last milliseconds may be missed; a blow-up takes
//! longer than that.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// What one run did and used.
pub struct Measured {
    /// Exit status and captured output.
    pub output: Output,
    /// Peak resident memory, in bytes.
    pub max_rss: u64,
    /// Whether it ran past the timeout and was killed.
    pub killed: bool,
    /// Wall time until it exited (or was killed).
    pub elapsed: Duration,
}

/// The address space a measured run may take.
const ADDRESS_SPACE: u64 = 4 << 30;

/// `bef-trace` with `args`, in the repository root.
pub fn bef_trace(args: &[&std::ffi::OsStr]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bef-trace"));
    command.args(args).current_dir(super::repo_root());
    command
}

/// Runs `command` with no standard input and its standard output a pipe,
/// or `stdout` when given (a file such as `/dev/full`); kills it after
/// `timeout`.
// The child is reaped with `waitpid`, polled to sample its memory.
#[allow(clippy::zombie_processes)]
pub fn run(mut command: Command, stdout: Option<std::fs::File>, timeout: Duration) -> Measured {
    let started = Instant::now();
    command
        .stdin(Stdio::null())
        .stdout(stdout.map_or_else(Stdio::piped, Stdio::from))
        .stderr(Stdio::piped());
    // SAFETY: the closure only calls setrlimit, which is async-signal-safe,
    // on a value on its own stack.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: ADDRESS_SPACE as libc::rlim_t,
                rlim_max: ADDRESS_SPACE as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("bef-trace starts");
    let drain = |from: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut from) = from {
                let _ = from.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|s| Box::new(s) as _));
    let stderr = drain(child.stderr.take().map(|s| Box::new(s) as _));
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut killed = false;
    let mut max_rss = 0;
    loop {
        max_rss = max_rss.max(high_water_mark(pid).unwrap_or(0));
        // SAFETY: `pid` is our child, not yet reaped; `status` is a valid,
        // writable location.
        let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if done == pid {
            break;
        }
        assert_eq!(done, 0, "waitpid failed");
        if !killed && started.elapsed() > timeout {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let elapsed = started.elapsed();
    Measured {
        output: Output {
            status: std::process::ExitStatus::from_raw(status),
            stdout: stdout.join().expect("stdout drained"),
            stderr: stderr.join().expect("stderr drained"),
        },
        max_rss,
        killed,
        elapsed,
    }
}

/// The peak resident memory of the running process `pid`, in bytes.
fn high_water_mark(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

/// The characters that must never reach a terminal raw, written out here
/// rather than taken from the library the tests check: C0 controls but
/// newline and tab, DEL, C1 controls, and the bidirectional embeddings,
/// overrides and isolates.
pub fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c < ' ' && c != '\n' && c != '\t')
                || ('\u{7f}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
        })
        .collect()
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
