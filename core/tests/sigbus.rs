//! A mapped file truncated by another process (`tool_io::sigbus`): a fault
//! inside a watched mapping stops the process with status 1 and a message
//! naming the file (escaped), after restoring an armed terminal; a fault
//! anywhere else, or after the watch is dropped, takes the default action.
//!
//! Each case runs in a child process (this test binary again, told which
//! case by `CHILD`), since the handler ends the process.

#![cfg(unix)]

mod common;

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use bef::format::BefBuffer;
use bef::tool_io::sigbus::{TerminalArmed, Watch};

/// Set in the child process to the directory of the case's files.
const CHILD: &str = "BEF_SIGBUS_TEST_CHILD";

/// Size of the files mapped; reads at [`PAST_THE_END`] after truncation.
const FILE_SIZE: u64 = 256 * 1024;
const PAST_THE_END: usize = 200_000;

/// The message the handler prints for `path`, as the library formats it.
fn message(shown: &str) -> String {
    format!(
        "error: {shown} changed while it was being read (truncated by another process?); stopped\n"
    )
}

/// In the child: the case's directory, if this process is one.
fn child_dir() -> Option<PathBuf> {
    std::env::var_os(CHILD).map(PathBuf::from)
}

/// A sparse file of [`FILE_SIZE`] bytes at `dir/name`.
fn big_file(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::File::create(&path)
        .and_then(|f| f.set_len(FILE_SIZE))
        .expect("file created");
    path
}

fn truncate(path: &Path) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(0))
        .expect("truncates");
}

/// Reads past the end of `buffer`'s truncated file: faults.
fn read_past_the_end(buffer: &BefBuffer) -> ! {
    let byte = std::hint::black_box(buffer.bytes()[PAST_THE_END]);
    panic!("read {byte} from a truncated mapping without a signal");
}

/// Runs the test `name` again in a child process on the files in `dir`,
/// with `stdin` as its standard input.
fn run_child(name: &str, dir: &Path, stdin: Stdio) -> Output {
    Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(CHILD, dir)
        .stdin(stdin)
        .output()
        .expect("child runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_fault_inside_a_watched_mapping_is_reported_and_ends_the_process() {
    if let Some(dir) = child_dir() {
        let path = dir.join("big.bef");
        let buffer = BefBuffer::map(&path).expect("maps").watched(&path);
        truncate(&path);
        read_past_the_end(&buffer);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = big_file(dir.path(), "big.bef");
    let out = run_child(
        "a_fault_inside_a_watched_mapping_is_reported_and_ends_the_process",
        dir.path(),
        Stdio::null(),
    );
    let stderr = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{:?}: {stderr}", out.status);
    assert!(
        stderr.ends_with(&message(&path.display().to_string())),
        "{stderr}"
    );
}

#[test]
fn the_message_escapes_control_characters_in_the_file_name() {
    const NAME: &str = "big\u{1b}]0;title\u{7}\n\u{202e}.bef";
    if let Some(dir) = child_dir() {
        let path = dir.join(NAME);
        let buffer = BefBuffer::map(&path).expect("maps").watched(&path);
        truncate(&path);
        read_past_the_end(&buffer);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = big_file(dir.path(), NAME);
    let out = run_child(
        "the_message_escapes_control_characters_in_the_file_name",
        dir.path(),
        Stdio::null(),
    );
    let stderr = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{:?}: {stderr}", out.status);
    let shown = format!(
        "{}/big\\u{{1b}}]0;title\\u{{7}}\\n\\u{{202e}}.bef",
        dir.path().display()
    );
    assert!(stderr.ends_with(&message(&shown)), "{stderr}");
    let raw = path.display().to_string();
    assert!(!stderr.contains(&raw), "raw name printed: {stderr:?}");
}

#[test]
fn a_dropped_watch_no_longer_reports() {
    if let Some(dir) = child_dir() {
        let path = dir.join("big.bef");
        let buffer = BefBuffer::map(&path).expect("maps");
        drop(Watch::new(&path, buffer.bytes()));
        truncate(&path);
        read_past_the_end(&buffer);
    }
    let dir = tempfile::tempdir().unwrap();
    big_file(dir.path(), "big.bef");
    let out = run_child(
        "a_dropped_watch_no_longer_reports",
        dir.path(),
        Stdio::null(),
    );
    let stderr = stderr(&out);
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGBUS),
        "{:?}: {stderr}",
        out.status
    );
    assert!(!stderr.contains("changed while"), "{stderr}");
}

#[test]
fn a_fault_outside_every_watched_mapping_takes_the_default_action() {
    if let Some(dir) = child_dir() {
        let watched_path = dir.join("watched.bef");
        let _watched = BefBuffer::map(&watched_path)
            .expect("maps")
            .watched(&watched_path);
        let other_path = dir.join("other.bef");
        let other = BefBuffer::map(&other_path).expect("maps");
        truncate(&other_path);
        read_past_the_end(&other);
    }
    let dir = tempfile::tempdir().unwrap();
    big_file(dir.path(), "watched.bef");
    big_file(dir.path(), "other.bef");
    let out = run_child(
        "a_fault_outside_every_watched_mapping_takes_the_default_action",
        dir.path(),
        Stdio::null(),
    );
    let stderr = stderr(&out);
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGBUS),
        "{:?}: {stderr}",
        out.status
    );
    assert!(!stderr.contains("changed while"), "{stderr}");
}

#[test]
fn a_sigbus_sent_by_kill_is_not_reported_as_a_truncation() {
    if let Some(dir) = child_dir() {
        let path = dir.join("big.bef");
        let _buffer = BefBuffer::map(&path).expect("maps").watched(&path);
        // SAFETY: raise only sends the signal to this thread.
        unsafe { libc::raise(libc::SIGBUS) };
        panic!("SIGBUS raised without ending the process");
    }
    let dir = tempfile::tempdir().unwrap();
    big_file(dir.path(), "big.bef");
    let out = run_child(
        "a_sigbus_sent_by_kill_is_not_reported_as_a_truncation",
        dir.path(),
        Stdio::null(),
    );
    let stderr = stderr(&out);
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGBUS),
        "{:?}: {stderr}",
        out.status
    );
    assert!(!stderr.contains("changed while"), "{stderr}");
}

#[test]
fn watches_are_independent_and_name_their_own_file() {
    if let Some(dir) = child_dir() {
        let first_path = dir.join("first.bef");
        let second_path = dir.join("second.bef");
        let first = BefBuffer::map(&first_path)
            .expect("maps")
            .watched(&first_path);
        let second = BefBuffer::map(&second_path)
            .expect("maps")
            .watched(&second_path);
        // The older watch ends first; the newer one still reports.
        drop(first);
        truncate(&second_path);
        read_past_the_end(&second);
    }
    let dir = tempfile::tempdir().unwrap();
    big_file(dir.path(), "first.bef");
    let second = big_file(dir.path(), "second.bef");
    let out = run_child(
        "watches_are_independent_and_name_their_own_file",
        dir.path(),
        Stdio::null(),
    );
    let stderr = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{:?}: {stderr}", out.status);
    assert!(
        stderr.ends_with(&message(&second.display().to_string())),
        "{stderr}"
    );
}

#[test]
fn a_program_read_for_running_is_watched() {
    if let Some(dir) = child_dir() {
        let path = dir.join("program.bef");
        let input = bef::exec::Input::read(&path).expect("reads");
        truncate(&path);
        read_past_the_end(input.bef());
    }
    let dir = tempfile::tempdir().unwrap();
    // A real program, then an unknown section (which readers skip) as a
    // hole up to the size the child reads at.
    let path = dir.path().join("program.bef");
    let mut bytes = common::read_corpus("bef/add_i32.bef");
    bytes.push(0x40);
    bytes.extend(vbr(FILE_SIZE << 1));
    let file = std::fs::File::create(&path).expect("file created");
    std::io::Write::write_all(&mut &file, &bytes).expect("file written");
    file.set_len(bytes.len() as u64 + FILE_SIZE)
        .expect("file extended");
    let out = run_child(
        "a_program_read_for_running_is_watched",
        dir.path(),
        Stdio::null(),
    );
    let stderr = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{:?}: {stderr}", out.status);
    assert!(
        stderr.ends_with(&message(&path.display().to_string())),
        "{stderr}"
    );
}

/// A pseudo-terminal: the controller and the device a child gets as its
/// terminal.
struct Pty {
    controller: std::fs::File,
    device: std::fs::File,
}

fn open_pty() -> Pty {
    use std::os::fd::FromRawFd;
    // SAFETY: posix_openpt returns a new descriptor or -1; grantpt and
    // unlockpt act on that descriptor; ptsname_r writes at most the given
    // length into `name`.
    unsafe {
        let controller = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(controller >= 0, "posix_openpt failed");
        let controller = std::fs::File::from_raw_fd(controller);
        let fd = std::os::fd::AsRawFd::as_raw_fd(&controller);
        assert_eq!(libc::grantpt(fd), 0, "grantpt failed");
        assert_eq!(libc::unlockpt(fd), 0, "unlockpt failed");
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(fd, name.as_mut_ptr(), name.len()), 0);
        let name = std::ffi::CStr::from_ptr(name.as_ptr());
        let device = std::fs::File::options()
            .read(true)
            .write(true)
            .open(name.to_str().expect("a UTF-8 device name"))
            .expect("the pty device opens");
        Pty { controller, device }
    }
}

/// The local modes of the terminal `file` is open on.
fn local_modes(file: &std::fs::File) -> libc::tcflag_t {
    // SAFETY: termios is plain data for tcgetattr to fill; the descriptor
    // is open for the call.
    unsafe {
        let mut modes: libc::termios = std::mem::zeroed();
        let fd = std::os::fd::AsRawFd::as_raw_fd(file);
        assert_eq!(libc::tcgetattr(fd, &mut modes), 0, "tcgetattr");
        modes.c_lflag
    }
}

#[test]
fn an_armed_terminal_is_restored_before_the_report() {
    if let Some(dir) = child_dir() {
        let path = dir.join("big.bef");
        let buffer = BefBuffer::map(&path).expect("maps").watched(&path);
        let _armed = TerminalArmed::new(b"[screen restored]").expect("a terminal");
        // Raw mode, as a TUI sets it.
        // SAFETY: standard input is the terminal; termios is plain data
        // for tcgetattr to fill and cfmakeraw to change.
        unsafe {
            let mut modes: libc::termios = std::mem::zeroed();
            assert_eq!(libc::tcgetattr(libc::STDIN_FILENO, &mut modes), 0);
            libc::cfmakeraw(&mut modes);
            assert_eq!(
                libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &modes),
                0
            );
        }
        truncate(&path);
        read_past_the_end(&buffer);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = big_file(dir.path(), "big.bef");
    let pty = open_pty();
    let before = local_modes(&pty.device);
    assert_ne!(before & libc::ICANON, 0, "a new pty is in canonical mode");
    let out = run_child(
        "an_armed_terminal_is_restored_before_the_report",
        dir.path(),
        Stdio::from(pty.device.try_clone().expect("pty device")),
    );
    let stderr = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{:?}: {stderr}", out.status);
    assert!(
        String::from_utf8_lossy(&out.stdout).ends_with("[screen restored]"),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.ends_with(&message(&path.display().to_string())),
        "{stderr}"
    );
    assert_eq!(
        local_modes(&pty.device),
        before,
        "terminal left in raw mode"
    );
    drop(pty.controller);
}

/// `value` as a BEF VBR integer (big-endian groups of 7 bits).
fn vbr(mut value: u64) -> Vec<u8> {
    let mut out = vec![(value & 0x7f) as u8];
    value >>= 7;
    while value != 0 {
        out.push(0x80 | (value & 0x7f) as u8);
        value >>= 7;
    }
    out.reverse();
    out
}

/// `bef dump --hex` of a file truncated while it is dumped. The dump reads
/// each section's header bytes from the mapping as it prints that section,
/// and it cannot print faster than the test reads: its standard output is
/// a pipe the test leaves full. So the file is cut well ahead of what the
/// dump can have reached (megabytes of output ahead, the pipe holding at
/// most a few hundred kilobytes), and reading on makes it read the lost
/// pages: deterministic, whatever the timing.
#[test]
fn bef_dump_of_a_file_truncated_meanwhile_stops_with_a_message() {
    const SECTIONS: usize = 64 * 1024;
    const KEPT_SECTIONS: usize = SECTIONS / 2;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many sections.bef");
    let program = common::read_corpus("bef/add_i32.bef");
    let mut bytes = program.clone();
    // Sections of an unknown id (which readers skip) of one byte each.
    let section: Vec<u8> = [vec![0x40], vbr(1 << 1), vec![0]].concat();
    for _ in 0..SECTIONS {
        bytes.extend_from_slice(&section);
    }
    std::fs::write(&path, &bytes).expect("file written");
    let cut = program.len() + KEPT_SECTIONS * section.len();

    let mut child = Command::new(env!("CARGO_BIN_EXE_bef"))
        .arg("dump")
        .arg("--hex")
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bef starts");
    let mut stdout = child.stdout.take().expect("piped");
    // SAFETY: F_GETPIPE_SZ only reads the pipe's capacity.
    let capacity =
        unsafe { libc::fcntl(std::os::fd::AsRawFd::as_raw_fd(&stdout), libc::F_GETPIPE_SZ) };
    // Each section prints over 60 bytes: the dump is far from the cut
    // while the pipe (and its own 8 KiB buffer) holds it back.
    assert!(
        capacity > 0 && (capacity as usize) * 4 < KEPT_SECTIONS * 60,
        "pipe capacity {capacity}"
    );
    // The first bytes come after the file was mapped and its sections
    // listed.
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).expect("bef prints");
    std::fs::File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_len(cut as u64))
        .expect("truncates");
    let mut printed = first.to_vec();
    stdout.read_to_end(&mut printed).expect("reads the dump");
    let out = child.wait_with_output().expect("bef ends");
    let stderr = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{:?}: {stderr}", out.status);
    assert_eq!(stderr, message(&path.display().to_string()));
    let printed = String::from_utf8_lossy(&printed);
    // Stopped at the cut: the sections before it printed (but for what
    // the dump's buffers held, about 90 sections), then those in the rest
    // of the page holding the new end (it reads as zeros), and no more.
    // SAFETY: sysconf only reads a system setting.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
    let listed = printed.matches("Unknown(64)").count();
    assert!(
        (KEPT_SECTIONS - 500..=KEPT_SECTIONS + page / section.len() + 1).contains(&listed),
        "{listed} sections listed"
    );
}
