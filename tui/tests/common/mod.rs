//! Locating corpus files and opening them as the binary would.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use befview::Loaded;

/// The path of `name` under the repository's `corpus/`; fails the test,
/// naming the path, when it is missing.
pub fn corpus(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(name);
    assert!(path.exists(), "corpus file missing: {}", path.display());
    path
}

/// Opens corpus file `name`, naming it by its corpus-relative path so that
/// screens do not depend on where the repository is.
pub fn open(name: &str) -> Loaded {
    let bytes = std::fs::read(corpus(name)).expect("corpus file is readable");
    Loaded::from_bytes(&Path::new("corpus").join(name), &bytes).expect("corpus file opens")
}

/// What one run of the `befview` binary did and used.
pub struct Measured {
    /// Exit status and captured output.
    pub output: std::process::Output,
    /// Wall time until it exited (or was killed).
    pub elapsed: std::time::Duration,
    /// Peak resident memory, in bytes.
    pub max_rss: u64,
    /// Whether it ran past the timeout and was killed.
    pub killed: bool,
}

/// Address space a measured run may take: a run gone wrong fails to
/// allocate rather than take the machine's memory.
const MEASURED_ADDRESS_SPACE: u64 = 4 << 30;

/// Runs `befview ARGS` in `cwd` with `env` added to its environment and
/// standard input empty, killing it after `timeout`; measures its wall
/// time and peak resident memory.
// The child is reaped with `wait4`, which also reports its resource usage.
#[allow(clippy::zombie_processes)]
pub fn befview_measured(
    args: &[&std::ffi::OsStr],
    cwd: &Path,
    env: &[(&str, &str)],
    timeout: std::time::Duration,
) -> Measured {
    use std::io::Read;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Command, Stdio};
    let started = std::time::Instant::now();
    let mut command = Command::new(env!("CARGO_BIN_EXE_befview"));
    command
        .args(args)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure only calls setrlimit, which is async-signal-safe,
    // on a limit value on its stack.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MEASURED_ADDRESS_SPACE as libc::rlim_t,
                rlim_max: MEASURED_ADDRESS_SPACE as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("the befview binary starts");
    let drain = |mut from: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = from.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut killed = false;
    loop {
        // SAFETY: `pid` is our child, not yet waited for; `status` and
        // `usage` are valid, writable locations.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break;
        }
        assert!(done == 0, "wait4 failed");
        if !killed && started.elapsed() > timeout {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let elapsed = started.elapsed();
    Measured {
        output: std::process::Output {
            status: std::process::ExitStatus::from_raw(status),
            stdout: stdout.join().expect("stdout reader"),
            stderr: stderr.join().expect("stderr reader"),
        },
        elapsed,
        // Linux reports kilobytes.
        max_rss: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
        killed,
    }
}

/// The first character of `bytes` that must not reach a terminal raw (a
/// control character other than newline and tab: C0, DEL, C1; or a
/// bidirectional embedding, override or isolate), with its byte offset;
/// `None` when there is none. Bytes that are not UTF-8 count as such a
/// character. Written out here rather than taken from the library, so that
/// the check does not share the code it checks.
pub fn unsafe_character(bytes: &[u8]) -> Option<(usize, String)> {
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        for (i, c) in chunk.valid().char_indices() {
            let control = c.is_control() && c != '\n' && c != '\t';
            let bidi = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
            if control || bidi {
                return Some((at + i, format!("{c:?}")));
            }
        }
        at += chunk.valid().len();
        if let Some(b) = chunk.invalid().first() {
            return Some((at, format!("byte {b:#04x}")));
        }
    }
    None
}
