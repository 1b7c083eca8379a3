//! Files that change while they are mapped.
//!
//! The tools map large inputs (zero-copy, lazy). If another process
//! truncates a mapped file, reading a page past its new end faults with
//! SIGBUS, which by default kills the process without a word — and a TUI
//! killed that way leaves the terminal in raw mode, on the alternate screen,
//! with mouse tracking on. Checking the length before every access cannot
//! close the race (the file can shrink between the check and the read), so
//! the tools handle the signal instead:
//!
//! - while a [`Watch`] over a mapping lives, a SIGBUS the kernel raises for
//!   an address inside that mapping ends the process with status 1 and
//!   `error: <file> changed while it was being read ...` on standard error
//!   (`BefBuffer::watched` keeps one for as long as its mapping);
//! - while a [`TerminalArmed`] lives, the handler first puts the terminal
//!   back: the modes saved before raw mode, then the bytes the TUI gave;
//! - any other SIGBUS (outside every watched mapping, or sent by `kill`)
//!   restores the terminal too, then takes the default action, as it would
//!   without the handler.
//!
//! The first `Watch` or `TerminalArmed` installs the handler for the whole
//! process (replacing any other SIGBUS handler). It reads only what was
//! prepared before the signal, through atomics and bytes that are never
//! freed, and calls only async-signal-safe functions (`write`,
//! `tcsetattr`, `signal`, `raise`, `_exit`).

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// How many mappings can be watched at once. A tool maps one input at a
/// time; the rest is room for threads that each map their own (tests). A
/// watch beyond it watches nothing: its fault takes the default action.
const SLOTS: usize = 32;

/// One watched mapping. Its owner writes it (when the watch starts and
/// ends) while the handler may read it on any thread, so it is a sequence
/// lock: `sequence` is odd while the fields change, and the handler skips a
/// slot whose sequence was odd or moved while it read them.
struct Slot {
    /// Held by one [`Watch`] at a time.
    taken: AtomicBool,
    sequence: AtomicUsize,
    /// The mapping's address range; `len` 0: nothing watched.
    start: AtomicUsize,
    len: AtomicUsize,
    /// The message naming the file: never-freed bytes (see [`kept`]).
    message: AtomicPtr<u8>,
    message_len: AtomicUsize,
}

impl Slot {
    const fn new() -> Slot {
        Slot {
            taken: AtomicBool::new(false),
            sequence: AtomicUsize::new(0),
            start: AtomicUsize::new(0),
            len: AtomicUsize::new(0),
            message: AtomicPtr::new(std::ptr::null_mut()),
            message_len: AtomicUsize::new(0),
        }
    }

    /// Sets what the slot watches (`len` 0: nothing); only its holder
    /// calls it.
    fn set(&self, start: usize, len: usize, message: &'static [u8]) {
        self.sequence.fetch_add(1, Ordering::SeqCst);
        self.start.store(start, Ordering::SeqCst);
        self.len.store(len, Ordering::SeqCst);
        self.message
            .store(message.as_ptr().cast_mut(), Ordering::SeqCst);
        self.message_len.store(message.len(), Ordering::SeqCst);
        self.sequence.fetch_add(1, Ordering::SeqCst);
    }

    /// The message, if `address` is inside the mapping watched here. Called
    /// from the handler: atomics only.
    fn message_at(&self, address: usize) -> Option<(*const u8, usize)> {
        let before = self.sequence.load(Ordering::SeqCst);
        if before % 2 == 1 {
            return None;
        }
        let start = self.start.load(Ordering::SeqCst);
        let len = self.len.load(Ordering::SeqCst);
        let message = self.message.load(Ordering::SeqCst);
        let message_len = self.message_len.load(Ordering::SeqCst);
        if self.sequence.load(Ordering::SeqCst) != before {
            return None;
        }
        (len > 0 && address.wrapping_sub(start) < len)
            .then_some((message.cast_const(), message_len))
    }
}

static WATCHED: [Slot; SLOTS] = [const { Slot::new() }; SLOTS];

/// `bytes` kept for the handler, which may read them on any thread at any
/// time, so they are never freed. Equal ones are shared: a process that
/// maps the same file again and again does not grow.
fn kept(bytes: Vec<u8>) -> &'static [u8] {
    static KEPT: Mutex<Vec<&'static [u8]>> = Mutex::new(Vec::new());
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(same) = kept.iter().find(|k| k[..] == bytes[..]) {
        return same;
    }
    let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    kept.push(leaked);
    leaked
}

/// What the handler prints for a fault in `path`'s mapping: one line, the
/// path escaped (a file name can hold control characters).
fn message_for(path: &Path) -> String {
    format!(
        "error: {} changed while it was being read (truncated by another process?); stopped\n",
        super::escape::path(path)
    )
}

/// While alive, a SIGBUS inside `bytes` (a mapping of `path`) ends the
/// process with status 1 and a message naming `path`. Drop it no later
/// than the mapping: a later mapping at the same address would otherwise be
/// reported under this name. Watches are independent; up to 32 at once.
#[must_use = "the mapping is watched only while the Watch lives"]
pub struct Watch {
    /// The slot held, if one was free (and the mapping not empty).
    slot: Option<&'static Slot>,
}

impl Watch {
    /// Watches the mapping `bytes` of `path`.
    pub fn new(path: &Path, bytes: &[u8]) -> Watch {
        if bytes.is_empty() {
            return Watch { slot: None };
        }
        install();
        let message = kept(message_for(path).into_bytes());
        let slot = WATCHED.iter().find(|slot| {
            slot.taken
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        });
        if let Some(slot) = slot {
            slot.set(bytes.as_ptr() as usize, bytes.len(), message);
        }
        Watch { slot }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            slot.set(0, 0, &[]);
            slot.taken.store(false, Ordering::Release);
        }
    }
}

/// While alive, the handler restores the terminal before anything else:
/// the modes saved when it was created, then the bytes given. One at a
/// time. Create it before entering raw mode and drop it after leaving.
#[must_use = "the terminal is restored only while the TerminalArmed lives"]
pub struct TerminalArmed {
    /// `/dev/tty` when standard input is not the terminal; kept open for
    /// the handler.
    #[cfg(unix)]
    _tty: Option<std::fs::File>,
}

#[cfg(unix)]
mod terminal {
    use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicUsize, Ordering};

    /// Whether to restore; the terminal's descriptor and modes from before
    /// raw mode; the bytes that put the screen back.
    pub(super) static ARMED: AtomicBool = AtomicBool::new(false);
    pub(super) static FD: AtomicI32 = AtomicI32::new(-1);
    pub(super) static MODES: AtomicPtr<libc::termios> = AtomicPtr::new(std::ptr::null_mut());
    pub(super) static RESTORE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
    pub(super) static RESTORE_LEN: AtomicUsize = AtomicUsize::new(0);

    /// Puts the terminal back if armed: modes, then the screen. Called from
    /// the handler: atomics, tcsetattr and write only.
    pub(super) fn restore() {
        if !ARMED.load(Ordering::SeqCst) {
            return;
        }
        let fd = FD.load(Ordering::SeqCst);
        let modes = MODES.load(Ordering::SeqCst);
        if fd >= 0 && !modes.is_null() {
            // SAFETY: `modes` points to an initialized termios that is never
            // freed; tcsetattr is async-signal-safe.
            unsafe { libc::tcsetattr(fd, libc::TCSANOW, modes) };
        }
        // SAFETY: RESTORE and RESTORE_LEN describe never-freed bytes (or
        // null).
        unsafe {
            super::write_all(
                libc::STDOUT_FILENO,
                RESTORE.load(Ordering::SeqCst),
                RESTORE_LEN.load(Ordering::SeqCst),
            );
        }
    }
}

impl TerminalArmed {
    /// Saves the modes of the terminal raw mode will be set on (standard
    /// input, else `/dev/tty`, as crossterm chooses) and arms the handler
    /// to restore them and then write `restore` to standard output.
    ///
    /// The TUI passes `restore` (the bytes that leave its alternate screen,
    /// stop mouse tracking and show the cursor) because it alone knows what
    /// it turned on: its terminal library writes those sequences, and the
    /// same commands give the bytes, so the two cannot drift apart.
    #[cfg(unix)]
    pub fn new(restore: &[u8]) -> std::io::Result<TerminalArmed> {
        use std::os::fd::AsRawFd;

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
        let fd = tty.as_ref().map_or(libc::STDIN_FILENO, |t| t.as_raw_fd());
        // SAFETY: termios is plain data, for tcgetattr to fill.
        let mut modes: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is open for the duration of the call and `modes` is
        // a valid termios to write.
        if unsafe { libc::tcgetattr(fd, &mut modes) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let restore = kept(restore.to_vec());
        // Disarmed while the parts change, so the handler never pairs them
        // wrongly.
        terminal::ARMED.store(false, Ordering::SeqCst);
        // Never freed, as the handler may read it at any time: one termios
        // per TUI session.
        terminal::MODES.store(Box::into_raw(Box::new(modes)), Ordering::SeqCst);
        terminal::RESTORE.store(restore.as_ptr().cast_mut(), Ordering::SeqCst);
        terminal::RESTORE_LEN.store(restore.len(), Ordering::SeqCst);
        terminal::FD.store(fd, Ordering::SeqCst);
        terminal::ARMED.store(true, Ordering::SeqCst);
        Ok(TerminalArmed { _tty: tty })
    }

    /// Nothing to arm without Unix signals.
    #[cfg(not(unix))]
    pub fn new(_restore: &[u8]) -> std::io::Result<TerminalArmed> {
        Ok(TerminalArmed {})
    }
}

impl Drop for TerminalArmed {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            terminal::ARMED.store(false, Ordering::SeqCst);
            terminal::FD.store(-1, Ordering::SeqCst);
        }
    }
}

/// Installs the handler, once per process.
#[cfg(unix)]
fn install() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        // SAFETY: sigaction is plain data; every field the kernel reads is
        // set below (handler, flags, an empty mask).
        let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
        action.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
        // SA_ONSTACK: a fault deep in recursion still finds a stack.
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        // SAFETY: `action.sa_mask` is a valid sigset_t to initialize, and
        // the handler has the signature SA_SIGINFO requires. Failing to
        // install leaves the default action, as without a watch.
        unsafe {
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        }
    });
}

#[cfg(not(unix))]
fn install() {}

/// Writes `len` bytes at `ptr` to `fd`, as far as it goes.
///
/// # Safety
/// `ptr` must point to `len` readable bytes (or be null).
#[cfg(unix)]
unsafe fn write_all(fd: libc::c_int, ptr: *const u8, len: usize) {
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

#[cfg(unix)]
extern "C" fn on_sigbus(
    _signal: libc::c_int,
    info: *mut libc::siginfo_t,
    _context: *mut libc::c_void,
) {
    // SAFETY: with SA_SIGINFO the kernel passes a valid siginfo_t.
    let (code, address) = unsafe { ((*info).si_code, (*info).si_addr() as usize) };
    // A positive code: raised by the kernel for this access, not sent.
    let message = if code > 0 {
        WATCHED.iter().find_map(|slot| slot.message_at(address))
    } else {
        None
    };
    terminal::restore();
    if let Some((message, len)) = message {
        // SAFETY: slots hold never-freed messages (`kept`); _exit is
        // async-signal-safe and runs no destructors.
        unsafe {
            write_all(libc::STDERR_FILENO, message, len);
            libc::_exit(1);
        }
    }
    // Not a watched mapping: the default action, with the terminal already
    // restored. The signal is blocked while this runs, so the raised one is
    // delivered (and kills) on return.
    // SAFETY: signal(2) to SIG_DFL and raise(3) are async-signal-safe.
    unsafe {
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
        libc::raise(libc::SIGBUS);
    }
}
