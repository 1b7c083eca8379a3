//! Running a binary under bounds: its peak resident memory, its wall time
//! (killed past a timeout), its output, and an address-space limit so that
//! a run gone wrong fails to allocate rather than take the machine's
//! memory.
//!
//! The peak is the child's own high-water mark (`VmHWM` in
//! `/proc/PID/status`), sampled every two milliseconds until it exits.
//! `wait4`'s `ru_maxrss` would also count the pages the child shared with
//! the test process when it was forked (Linux carries the old high-water
//! mark across `exec`), which can exceed a bound by itself when the test
//! holds large inputs. What the child allocates in its last milliseconds
//! may be missed; a blow-up takes longer than that.

use std::io::{Read, Write};
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
pub const ADDRESS_SPACE: u64 = 4 << 30;

/// Where a measured run's standard streams go.
#[derive(Default)]
pub struct Streams<'a> {
    /// Bytes written to its standard input; `None`: no input (`/dev/null`).
    pub stdin: Option<&'a [u8]>,
    /// A file for its standard output (such as `/dev/full`); `None`: a
    /// pipe, captured in [`Measured::output`].
    pub stdout: Option<std::fs::File>,
}

/// Runs `command` (its arguments, directory and environment set) with
/// `streams`, killing it after `timeout`; its standard error is captured.
// The child is reaped with `waitpid`, polled to sample its memory.
#[allow(clippy::zombie_processes)]
pub fn run(mut command: Command, streams: Streams<'_>, timeout: Duration) -> Measured {
    let started = Instant::now();
    command
        .stdin(if streams.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(streams.stdout.map_or_else(Stdio::piped, Stdio::from))
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
    let mut child = command.spawn().expect("the measured binary starts");
    let writer = child.stdin.take().map(|mut pipe| {
        let input = streams.stdin.unwrap_or_default().to_vec();
        // The command may exit before reading its input (bad options).
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });
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
    if let Some(writer) = writer {
        let _ = writer.join();
    }
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
