//! A counting global allocator for tests that bound memory: a test binary
//! installs it with
//! `#[global_allocator] static A: common::counting::Counting = common::counting::Counting;`
//! and measures with [`peak_during`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Forwards to the system allocator and counts live and peak bytes.
pub struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Runs `f` and returns its result with the peak of bytes allocated
/// while it ran beyond what was live before. Measurements take turns, as
/// the counters are process-wide.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    static SERIAL: Mutex<()> = Mutex::new(());
    let _turn = SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let result = f();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    (result, peak)
}

/// Holds the other tests of the binary off while a test runs: the counters
/// are process-wide, so what another test allocates meanwhile (outside its
/// own measurement too) would count towards this one's peak.
pub fn alone() -> std::sync::MutexGuard<'static, ()> {
    static ALONE: Mutex<()> = Mutex::new(());
    ALONE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The memory an input of `len` bytes may take: 64 times its size plus
/// 64 MiB.
pub fn budget(len: usize) -> usize {
    64 * len + (64 << 20)
}
