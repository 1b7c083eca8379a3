//! A global allocator that counts bytes, for tests that bound memory. A
//! test binary installs it with
//! `#[global_allocator] static A: Counting = Counting;`.
//!
//! It keeps two counts. The process's live bytes ([`peak_during`]) see
//! what every thread allocates, which a call that spawns threads needs;
//! measurements then take turns, and a test that must not be disturbed
//! holds [`alone`]. Each thread's own live bytes ([`thread_peak_during`],
//! [`thread_peak_within`]) let tests measure side by side, and can be
//! capped so that a test gone wrong fails to allocate instead of taking
//! the machine's memory.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Forwards to the system allocator and counts bytes.
pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static THREAD_PEAK: Cell<usize> = const { Cell::new(0) };
    /// Live bytes beyond which this thread's allocations fail.
    static LIMIT: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// Counts `delta` bytes; false (and nothing counted) if that would grow
/// the thread past its limit.
fn note(delta: isize) -> bool {
    // `try_with`: during thread teardown the counters may be gone.
    let allowed = LIVE
        .try_with(|live| {
            let now = live.get().saturating_add_signed(delta);
            if delta > 0 && now > LIMIT.try_with(Cell::get).unwrap_or(usize::MAX) {
                return false;
            }
            live.set(now);
            let _ = THREAD_PEAK.try_with(|peak| peak.set(peak.get().max(now)));
            true
        })
        .unwrap_or(true);
    if allowed {
        if delta >= 0 {
            let now = CURRENT.fetch_add(delta as usize, Ordering::Relaxed) + delta as usize;
            PEAK.fetch_max(now, Ordering::Relaxed);
        } else {
            CURRENT.fetch_sub(delta.unsigned_abs(), Ordering::Relaxed);
        }
    }
    allowed
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are atomics and const-initialised thread locals, which never
// allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !note(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract for `alloc` is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize));
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !note(new_size as isize - layout.size() as isize) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract for `realloc` is passed on.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if moved.is_null() {
            // The block stays as it was: count it so again.
            note(layout.size() as isize - new_size as isize);
        }
        moved
    }
}

/// Runs `f` and returns its result with the most bytes the process had
/// allocated at once while it ran, beyond what was live before.
/// Measurements take turns, as the counters are process-wide.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    static SERIAL: Mutex<()> = Mutex::new(());
    let _turn = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let result = f();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    (result, peak)
}

/// Holds the binary's other tests off while a test runs: what another
/// test allocates meanwhile would count towards this one's peak.
pub fn alone() -> MutexGuard<'static, ()> {
    static ALONE: Mutex<()> = Mutex::new(());
    ALONE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The memory an input of `len` bytes may take: 64 times its size plus
/// 64 MiB.
pub fn budget(len: usize) -> usize {
    64 * len + (64 << 20)
}

/// Runs `f` and returns its result with the most bytes this thread had
/// allocated at once while it ran, beyond what was live before.
pub fn thread_peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    THREAD_PEAK.with(|p| p.set(base));
    let result = f();
    let peak = THREAD_PEAK.with(Cell::get).saturating_sub(base);
    (result, peak)
}

/// [`thread_peak_during`], with the thread's allocations failing (which
/// aborts the process, naming the size) once `f` holds more than `limit`
/// bytes.
pub fn thread_peak_within<T>(limit: usize, f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    let before = LIMIT.with(|l| l.replace(base.saturating_add(limit)));
    let measured = thread_peak_during(f);
    LIMIT.with(|l| l.set(before));
    measured
}
