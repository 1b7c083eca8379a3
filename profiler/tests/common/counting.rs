//! A global allocator that counts each thread's live bytes and their
//! peak, so that a test can bound what one call allocates while other
//! tests run on other threads. A test binary installs it with
//! `#[global_allocator] static A: common::counting::Counting = common::counting::Counting;`
//! and measures with [`peak_during`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards to the system allocator and counts this thread's bytes.
pub struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
    /// Live bytes beyond which this thread's allocations fail.
    static LIMIT: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// Counts `delta` bytes; false (and nothing counted) if growing past the
/// thread's limit.
fn note(delta: isize) -> bool {
    // `try_with`: during thread teardown the counters may be gone.
    LIVE.try_with(|live| {
        let now = live.get().saturating_add_signed(delta);
        if delta > 0 && now > LIMIT.try_with(Cell::get).unwrap_or(usize::MAX) {
            return false;
        }
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
        true
    })
    .unwrap_or(true)
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters are const-initialised thread locals, which never allocate.
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

/// Runs `f` and returns its result with the most bytes this thread had
/// allocated at once while it ran, beyond what was live before.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let result = f();
    let peak = PEAK.with(Cell::get).saturating_sub(base);
    (result, peak)
}

/// [`peak_during`], with the thread's allocations failing (which aborts
/// the process, naming the size) once `f` holds more than `limit` bytes:
/// a test gone wrong stops there rather than take the machine's memory.
pub fn peak_within<T>(limit: usize, f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    let before = LIMIT.with(|l| l.replace(base.saturating_add(limit)));
    let measured = peak_during(f);
    LIMIT.with(|l| l.set(before));
    measured
}
