//! A mapped file that another process truncates: reading its lost pages
//! faults with SIGBUS, which by default kills befview with the terminal
//! still in raw mode, on the alternate screen and with mouse tracking on.
//!
//! While a file is mapped ([`Watch`]), a SIGBUS inside its mapping ends
//! befview with exit status 1 and a message naming the file; while the
//! terminal is in raw mode ([`TerminalArmed`]) the handler first puts the
//! terminal back. A SIGBUS anywhere else restores the terminal too, then
//! takes its default action. Everything the handler needs is prepared
//! beforehand and reached through atomics; it calls only write(2),
//! tcsetattr(3), sigaction(2), raise(3) and _exit(2), which are
//! async-signal-safe.

use std::fmt::Write as _;
use std::os::fd::{AsRawFd, RawFd};
use std::path::Path;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

use ratatui::crossterm::Command;
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::DisableMouseCapture;
use ratatui::crossterm::terminal::LeaveAlternateScreen;

/// The watched mapping: its address range (length 0: none) and the message
/// naming its file.
static REGION_START: AtomicUsize = AtomicUsize::new(0);
static REGION_LEN: AtomicUsize = AtomicUsize::new(0);
static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static MESSAGE_LEN: AtomicUsize = AtomicUsize::new(0);
/// Which [`Watch`] holds the region, so that an older one dropped late
/// does not clear a newer one.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The terminal to restore: whether it is in raw mode, its descriptor,
/// its modes from before, and the bytes that leave the alternate screen.
static TERMINAL_ARMED: AtomicBool = AtomicBool::new(false);
static TERMINAL_FD: AtomicI32 = AtomicI32::new(-1);
static SAVED_MODES: AtomicPtr<libc::termios> = AtomicPtr::new(std::ptr::null_mut());
static RESTORE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static RESTORE_LEN: AtomicUsize = AtomicUsize::new(0);

static INSTALL: Once = Once::new();

/// Leaks `bytes` for the handler: it may read them on any thread at any
/// time, so they are never freed (a few short strings per process).
fn leak(bytes: Vec<u8>) -> (*mut u8, usize) {
    let bytes: &'static mut [u8] = Box::leak(bytes.into_boxed_slice());
    (bytes.as_mut_ptr(), bytes.len())
}

/// The bytes that take the terminal out of mouse capture and the alternate
/// screen and show the cursor: what `terminal::restore` sends.
fn restore_sequence() -> String {
    let mut text = String::new();
    // Writing ANSI into a String cannot fail.
    let _ = DisableMouseCapture.write_ansi(&mut text);
    let _ = LeaveAlternateScreen.write_ansi(&mut text);
    let _ = Show.write_ansi(&mut text);
    text
}

/// The message for a fault in `path`'s mapping.
fn message_for(path: &Path) -> String {
    let mut text = String::from("\r\nbefview: ");
    let _ = write!(
        text,
        "{}: the file was truncated or replaced while it was shown; \
         nothing more of it can be read\r\n",
        bef::tool_io::escape::path(path)
    );
    text
}

/// While alive, a SIGBUS inside `bytes` (the mapping of `path`) ends the
/// process with status 1 and a message naming `path`. One mapping is
/// watched at a time: a new watch replaces the previous one.
pub struct Watch {
    generation: u64,
}

impl Watch {
    /// Watches the mapping `bytes` of `path`.
    pub fn new(path: &Path, bytes: &[u8]) -> Watch {
        install();
        let (message, message_len) = leak(message_for(path).into_bytes());
        let generation = GENERATION.fetch_add(1, Ordering::SeqCst) + 1;
        // Clear first, so the handler never pairs a new start with an old
        // length.
        REGION_LEN.store(0, Ordering::SeqCst);
        MESSAGE.store(message, Ordering::SeqCst);
        MESSAGE_LEN.store(message_len, Ordering::SeqCst);
        REGION_START.store(bytes.as_ptr() as usize, Ordering::SeqCst);
        REGION_LEN.store(bytes.len(), Ordering::SeqCst);
        Watch { generation }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if GENERATION.load(Ordering::SeqCst) == self.generation {
            REGION_LEN.store(0, Ordering::SeqCst);
        }
    }
}

/// While alive, the handler restores the terminal (modes saved before raw
/// mode, then the screen) before anything else. Create it before entering
/// raw mode, and drop it after leaving it.
pub struct TerminalArmed {
    /// `/dev/tty` when standard input is not the terminal; kept open for
    /// the handler.
    _tty: Option<std::fs::File>,
}

impl TerminalArmed {
    /// Saves the terminal's modes (the terminal raw mode will be set on:
    /// standard input, else `/dev/tty`) and arms the handler.
    pub fn new() -> std::io::Result<TerminalArmed> {
        install();
        // SAFETY: isatty only inspects the descriptor.
        let stdin_is_tty = unsafe { libc::isatty(libc::STDIN_FILENO) } == 1;
        let tty = if stdin_is_tty {
            None
        } else {
            Some(
                std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open("/dev/tty")?,
            )
        };
        let fd: RawFd = tty.as_ref().map_or(libc::STDIN_FILENO, |t| t.as_raw_fd());
        // SAFETY: termios is plain data; tcgetattr fills it or fails.
        let mut modes: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is open for the duration of the call and `modes` is
        // a valid termios to write.
        if unsafe { libc::tcgetattr(fd, &mut modes) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if RESTORE.load(Ordering::SeqCst).is_null() {
            let (restore, restore_len) = leak(restore_sequence().into_bytes());
            RESTORE_LEN.store(restore_len, Ordering::SeqCst);
            RESTORE.store(restore, Ordering::SeqCst);
        }
        SAVED_MODES.store(Box::into_raw(Box::new(modes)), Ordering::SeqCst);
        TERMINAL_FD.store(fd, Ordering::SeqCst);
        TERMINAL_ARMED.store(true, Ordering::SeqCst);
        Ok(TerminalArmed { _tty: tty })
    }
}

impl Drop for TerminalArmed {
    fn drop(&mut self) {
        TERMINAL_ARMED.store(false, Ordering::SeqCst);
        TERMINAL_FD.store(-1, Ordering::SeqCst);
        // The saved modes stay allocated: a handler running on another
        // thread may still read them.
    }
}

/// Installs the handler once per process.
fn install() {
    INSTALL.call_once(|| {
        // SAFETY: sigaction is plain data; every field the kernel reads is
        // set below (handler, flags, an empty mask).
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        // SAFETY: `action.sa_mask` is a valid sigset_t to initialize, and
        // the handler has the signature SA_SIGINFO requires. Failing to
        // install leaves the default action, which is what befview had.
        unsafe {
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        }
    });
}

/// Writes `len` bytes at `ptr` to `fd`, as far as it goes.
///
/// # Safety
/// `ptr` must point to `len` readable bytes (or be null).
unsafe fn write_all(fd: RawFd, ptr: *const u8, len: usize) {
    if ptr.is_null() {
        return;
    }
    let mut done = 0;
    while done < len {
        // SAFETY: `ptr + done .. ptr + len` is readable (the caller's
        // promise); write(2) is async-signal-safe.
        let n = unsafe { libc::write(fd, ptr.add(done).cast(), len - done) };
        if n <= 0 {
            return;
        }
        done += n as usize;
    }
}

/// Puts the terminal back if raw mode is on: saved modes, then the screen.
fn restore_terminal() {
    if !TERMINAL_ARMED.load(Ordering::SeqCst) {
        return;
    }
    let fd = TERMINAL_FD.load(Ordering::SeqCst);
    let modes = SAVED_MODES.load(Ordering::SeqCst);
    if fd >= 0 && !modes.is_null() {
        // SAFETY: `modes` points to a leaked, initialized termios; the
        // descriptor is the terminal's; tcsetattr is async-signal-safe.
        unsafe { libc::tcsetattr(fd, libc::TCSANOW, modes) };
    }
    // SAFETY: RESTORE/RESTORE_LEN describe a leaked byte slice (or null).
    unsafe {
        write_all(
            libc::STDOUT_FILENO,
            RESTORE.load(Ordering::SeqCst),
            RESTORE_LEN.load(Ordering::SeqCst),
        );
    }
}

extern "C" fn on_sigbus(
    _signal: libc::c_int,
    info: *mut libc::siginfo_t,
    _context: *mut libc::c_void,
) {
    // SAFETY: the kernel passes a valid siginfo_t with SA_SIGINFO.
    let (code, address) = unsafe { ((*info).si_code, (*info).si_addr() as usize) };
    let start = REGION_START.load(Ordering::SeqCst);
    let len = REGION_LEN.load(Ordering::SeqCst);
    restore_terminal();
    // A positive code: raised by the kernel for this access, not sent.
    if code > 0 && len > 0 && address >= start && address - start < len {
        // SAFETY: MESSAGE/MESSAGE_LEN describe a leaked byte slice; _exit
        // is async-signal-safe and runs no destructors.
        unsafe {
            write_all(
                libc::STDERR_FILENO,
                MESSAGE.load(Ordering::SeqCst),
                MESSAGE_LEN.load(Ordering::SeqCst),
            );
            libc::_exit(1);
        }
    }
    // Not the watched file: the default action, with the terminal already
    // restored. The signal is blocked while this runs, so the raised one
    // is delivered (and kills) on return.
    // SAFETY: signal(2) to SIG_DFL and raise(3) are async-signal-safe.
    unsafe {
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
        libc::raise(libc::SIGBUS);
    }
}
