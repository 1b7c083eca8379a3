//! Files that change while they are mapped.
//!
//! `bef` maps its inputs (zero-copy, lazy). If another process truncates a
//! mapped file, the next read of a page past the new end raises SIGBUS,
//! which by default kills the process without a word — and a TUI killed
//! that way leaves the terminal in the alternate screen, in raw mode, with
//! mouse tracking on. Checking the length before every access cannot close
//! the race (the file can shrink between the check and the read), so the
//! tools install a SIGBUS handler instead: it restores the terminal if a
//! TUI registered how, says which file changed, and exits with status 1.
//!
//! The handler only calls async-signal-safe functions (`tcsetattr`,
//! `write`, `_exit`) on data prepared before the signal.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// What the handler writes and restores, prepared in advance. Leaked: it
/// must outlive any signal, and a tool sets it a handful of times.
struct Prepared {
    /// Written to standard error first (e.g. leaving the alternate screen).
    terminal_bytes: &'static [u8],
    /// The terminal attributes to put back, with the descriptor.
    termios: Option<(i32, libc::termios)>,
    /// The message naming the file, ending with a newline.
    message: &'static [u8],
}

static PREPARED: AtomicPtr<Prepared> = AtomicPtr::new(std::ptr::null_mut());
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Serialises the (rare) updates; the handler only loads the pointer.
static UPDATE: Mutex<()> = Mutex::new(());

/// From now on, a SIGBUS (a mapped file that shrank) prints
/// `error: <description> changed while it was being read ...` and exits
/// with status 1. `description` names the file(s) mapped.
pub fn report_changed_file(description: &str) {
    let message = format!(
        "error: {} changed while it was being read (truncated by another process?); stopped\n",
        super::escape::terminal(description)
    );
    update(|p| p.message = leak(message.into_bytes()));
}

/// How a TUI's terminal is put back before the report.
pub struct TerminalRestore<'a> {
    /// Written to standard error first: leave the alternate screen, stop
    /// mouse tracking, show the cursor.
    pub bytes: &'a [u8],
    /// The terminal attributes to put back, and the descriptor they
    /// belong to (leaving raw mode).
    pub attributes: Option<(i32, libc::termios)>,
}

/// Restores the terminal as `restore` says before reporting a SIGBUS;
/// `None` once the TUI has restored it itself.
pub fn restore_terminal_with(restore: Option<TerminalRestore<'_>>) {
    update(|p| match restore {
        Some(restore) => {
            p.terminal_bytes = leak(restore.bytes.to_vec());
            p.termios = restore.attributes;
        }
        None => {
            p.terminal_bytes = &[];
            p.termios = None;
        }
    });
}

fn leak(bytes: Vec<u8>) -> &'static [u8] {
    Box::leak(bytes.into_boxed_slice())
}

fn update(change: impl FnOnce(&mut Prepared)) {
    let _guard = UPDATE.lock().unwrap_or_else(|e| e.into_inner());
    let current = PREPARED.load(Ordering::Acquire);
    let mut next = if current.is_null() {
        Prepared {
            terminal_bytes: &[],
            termios: None,
            message: b"error: a mapped file changed while it was being read; stopped\n",
        }
    } else {
        // SAFETY: non-null pointers in PREPARED come from Box::leak below
        // and are never freed.
        let p = unsafe { &*current };
        Prepared {
            terminal_bytes: p.terminal_bytes,
            termios: p.termios,
            message: p.message,
        }
    };
    change(&mut next);
    // The old one is left in place (a signal may be reading it).
    PREPARED.store(Box::leak(Box::new(next)), Ordering::Release);
    install();
}

#[cfg(unix)]
fn install() {
    if INSTALLED.swap(true, Ordering::AcqRel) {
        return;
    }
    // SAFETY: a zeroed sigaction is a valid value to fill in; the handler
    // is an extern "C" fn of the signature sa_sigaction expects without
    // SA_SIGINFO, and only calls async-signal-safe functions.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

#[cfg(not(unix))]
fn install() {}

#[cfg(unix)]
extern "C" fn on_sigbus(_signal: libc::c_int) {
    let prepared = PREPARED.load(Ordering::Acquire);
    // SAFETY: the pointer is null or a leaked, never-freed `Prepared`;
    // tcsetattr, write and _exit are async-signal-safe, and the buffers
    // they read are 'static.
    unsafe {
        if let Some(p) = prepared.as_ref() {
            if let Some((fd, termios)) = &p.termios {
                libc::tcsetattr(*fd, libc::TCSANOW, termios);
            }
            write_all(p.terminal_bytes);
            write_all(p.message);
        }
        libc::_exit(1);
    }
}

/// `write(2)` to standard error until done or failing.
#[cfg(unix)]
fn write_all(mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: `bytes` is a valid buffer of its length.
        let n = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            return;
        }
        bytes = &bytes[n as usize..];
    }
}
