//! Support shared by the integration tests: the repository's `corpus/`,
//! where every file a test reads lives, and the `bef` binary. A missing
//! input fails the test with its path; no test skips for lack of one.

#![allow(dead_code)] // each test binary uses its own part

pub mod counting;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root (the working directory of `bef` in these tests).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core/ has a parent")
        .to_path_buf()
}

/// `corpus/<relative>`; fails the test when it does not exist.
pub fn corpus_path(relative: &str) -> PathBuf {
    let path = repo_root().join("corpus").join(relative);
    assert!(
        path.exists(),
        "test input {} is missing (it belongs in the repository's corpus/)",
        path.display()
    );
    path
}

/// The bytes of `corpus/<relative>`.
pub fn read_corpus(relative: &str) -> Vec<u8> {
    let path = corpus_path(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files directly in `corpus/<dir>` whose extension is `ext`, sorted;
/// fails the test when there are none.
pub fn corpus_files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = corpus_path(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .{ext} files in {} (test inputs missing)",
        dir.display()
    );
    files
}

/// Runs the `bef` binary in the repository root with `stdin` as its
/// standard input; standard output is a pipe, so binary output is allowed.
pub fn bef(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bef"))
        .args(args)
        .current_dir(repo_root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bef binary starts");
    let mut input = child.stdin.take().expect("piped stdin");
    // The command may exit before reading its input (bad options).
    let _ = input.write_all(stdin.unwrap_or_default());
    drop(input);
    child.wait_with_output().expect("the bef binary finishes")
}

/// Output bytes as text, lossily.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Bytes as space-separated hex pairs, at most 64 of them, for failure
/// messages and golden comparisons.
pub fn hex(bytes: &[u8]) -> String {
    const LIMIT: usize = 64;
    let mut out: Vec<String> = bytes
        .iter()
        .take(LIMIT)
        .map(|b| format!("{b:02x}"))
        .collect();
    if bytes.len() > LIMIT {
        out.push(format!("... ({} bytes)", bytes.len()));
    }
    out.join(" ")
}

/// What one run of the `bef` binary did and used.
#[cfg(unix)]
pub struct Measured {
    /// Exit status and captured output.
    pub output: Output,
    /// Wall time until it exited (or was killed).
    pub elapsed: std::time::Duration,
    /// Peak resident memory, in bytes.
    pub max_rss: u64,
    /// Whether it ran past the timeout and was killed.
    pub killed: bool,
}

/// Address space a measured run may take: a run gone wrong fails to
/// allocate rather than take the machine's memory.
#[cfg(unix)]
const MEASURED_ADDRESS_SPACE: u64 = 4 << 30;

/// Runs the `bef` binary as [`bef`] does, killing it after `timeout`, and
/// measures its wall time and peak resident memory.
#[cfg(unix)]
pub fn bef_measured(args: &[&str], stdin: Option<&[u8]>, timeout: std::time::Duration) -> Measured {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bef"));
    command.args(args).current_dir(repo_root());
    measured(command, stdin, timeout)
}

/// Runs `command` (its arguments, directory and environment set) with
/// `stdin` as its standard input, killing it after `timeout`, and measures
/// its wall time and peak resident memory.
#[cfg(unix)]
// The child is reaped with `wait4`, which also reports its resource usage.
#[allow(clippy::zombie_processes)]
pub fn measured(
    mut command: Command,
    stdin: Option<&[u8]>,
    timeout: std::time::Duration,
) -> Measured {
    use std::io::Read;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let started = std::time::Instant::now();
    command
        .stdin(Stdio::piped())
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
    let mut child = command.spawn().expect("the bef binary starts");
    let input = stdin.unwrap_or_default().to_vec();
    let mut pipe = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
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
    let _ = writer.join();
    Measured {
        output: Output {
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

/// A fresh directory for one test's files, under the system's temporary
/// directory.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bef-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
