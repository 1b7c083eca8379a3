//! Host allocators: every heap buffer a kernel needs goes through one
//! [`HostAllocator`], so a test can swap in a leak checker, a fixed budget or
//! a profiler.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The allocator interface. Sizes of zero are allocated as one byte, so
/// every successful allocation is a distinct pointer.
pub trait HostAllocator: Send + Sync {
    /// Allocates `size` bytes aligned to `align` (a power of two), or
    /// returns `None` when out of memory, over budget or `align` is invalid.
    fn allocate_bytes(&self, size: usize, align: usize) -> Option<NonNull<u8>>;

    /// Frees memory from `allocate_bytes`.
    ///
    /// # Safety
    /// `ptr` came from `allocate_bytes` of this allocator with the same
    /// `size` and `align`, and is not used afterwards.
    unsafe fn deallocate_bytes(&self, ptr: NonNull<u8>, size: usize, align: usize);
}

impl dyn HostAllocator + '_ {
    /// Allocates room for `n` values of `T` (uninitialized).
    pub fn allocate<T>(&self, n: usize) -> Option<NonNull<T>> {
        let size = std::mem::size_of::<T>().checked_mul(n)?;
        self.allocate_bytes(size, std::mem::align_of::<T>())
            .map(NonNull::cast)
    }

    /// Frees memory from `allocate`.
    ///
    /// # Safety
    /// As [`HostAllocator::deallocate_bytes`], with the same `T` and `n`;
    /// any values in the memory must already have been dropped.
    pub unsafe fn deallocate<T>(&self, ptr: NonNull<T>, n: usize) {
        let size = std::mem::size_of::<T>() * n;
        // SAFETY: forwarded contract.
        unsafe { self.deallocate_bytes(ptr.cast(), size, std::mem::align_of::<T>()) }
    }
}

fn layout(size: usize, align: usize) -> Option<Layout> {
    Layout::from_size_align(size.max(1), align).ok()
}

/// The system allocator (malloc).
#[derive(Clone, Copy, Debug, Default)]
pub struct MallocAllocator;

impl HostAllocator for MallocAllocator {
    fn allocate_bytes(&self, size: usize, align: usize) -> Option<NonNull<u8>> {
        let layout = layout(size, align)?;
        // SAFETY: the layout has a non-zero size.
        NonNull::new(unsafe { System.alloc(layout) })
    }

    unsafe fn deallocate_bytes(&self, ptr: NonNull<u8>, size: usize, align: usize) {
        let layout = layout(size, align).expect("layout was valid at allocation");
        // SAFETY: the caller passes a pointer from `allocate_bytes` with the
        // same size and alignment, hence the same layout.
        unsafe { System.dealloc(ptr.as_ptr(), layout) }
    }
}

/// Live allocations and bytes found by a [`LeakCheckAllocator`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Memory leak detected: {allocations} alive allocations, {bytes} alive bytes")]
pub struct LeakError {
    /// Allocations not yet freed.
    pub allocations: usize,
    /// Bytes of those allocations.
    pub bytes: usize,
}

/// Counts live allocations and bytes of an inner allocator. Dropping it with
/// live allocations reports the leak (see [`LeakCheckAllocator::check`]) and
/// panics unless the thread is already panicking.
///
/// It keeps the statistics of a [`ProfiledAllocator`] too, which the
/// reference prints beside a leak (see [`LeakCheckAllocator::stats`]).
pub struct LeakCheckAllocator<A: HostAllocator = MallocAllocator> {
    inner: ProfiledAllocator<A>,
}

impl Default for LeakCheckAllocator {
    fn default() -> Self {
        Self::new(MallocAllocator)
    }
}

impl<A: HostAllocator> LeakCheckAllocator<A> {
    /// Counts the allocations of `inner`, starting from zero.
    pub fn new(inner: A) -> Self {
        LeakCheckAllocator {
            inner: ProfiledAllocator::new(inner),
        }
    }

    /// A snapshot of the allocation statistics (totals, live, peaks).
    pub fn stats(&self) -> AllocationStats {
        self.inner.stats()
    }

    /// `Err` with the counts if anything is still allocated.
    pub fn check(&self) -> Result<(), LeakError> {
        let stats = self.inner.stats();
        let (allocations, bytes) = (stats.live_allocations, stats.live_bytes);
        if allocations == 0 && bytes == 0 {
            Ok(())
        } else {
            Err(LeakError { allocations, bytes })
        }
    }
}

impl<A: HostAllocator> HostAllocator for LeakCheckAllocator<A> {
    fn allocate_bytes(&self, size: usize, align: usize) -> Option<NonNull<u8>> {
        self.inner.allocate_bytes(size, align)
    }

    unsafe fn deallocate_bytes(&self, ptr: NonNull<u8>, size: usize, align: usize) {
        // SAFETY: forwarded contract.
        unsafe { self.inner.deallocate_bytes(ptr, size, align) }
    }
}

impl<A: HostAllocator> Drop for LeakCheckAllocator<A> {
    fn drop(&mut self) {
        if let Err(leak) = self.check() {
            eprintln!("{leak}");
            if !std::thread::panicking() {
                panic!("{leak}");
            }
        }
    }
}

impl<A: HostAllocator> fmt::Debug for LeakCheckAllocator<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stats = self.inner.stats();
        f.debug_struct("LeakCheckAllocator")
            .field("allocations", &stats.live_allocations)
            .field("bytes", &stats.live_bytes)
            .finish()
    }
}

/// Where a [`FixedSizeAllocator`] reports what it grants, refuses and
/// frees (one line each, without a newline).
pub type AllocationLog = Box<dyn Fn(&str) + Send + Sync>;

/// A test allocator with a fixed budget of live bytes (1 KiB by default):
/// an allocation that would exceed it is refused. As the reference's test
/// allocator, requests of at most [`EXCLUDE_THRESHOLD`](Self::EXCLUDE_THRESHOLD)
/// bytes are neither counted nor refused, and with a log attached
/// ([`with_log`](Self::with_log)) it reports each counted allocation
/// (`Allocating 192 bytes. 832 remaining.`), refusal (`Attempted to allocate
/// 4160 bytes. However current capacity is only 640.`) and release.
pub struct FixedSizeAllocator<A: HostAllocator = MallocAllocator> {
    inner: A,
    capacity: usize,
    used: AtomicUsize,
    log: Option<AllocationLog>,
}

impl Default for FixedSizeAllocator {
    fn default() -> Self {
        Self::new(MallocAllocator)
    }
}

impl<A: HostAllocator> FixedSizeAllocator<A> {
    /// The default budget.
    pub const DEFAULT_CAPACITY: usize = 1024;

    /// Requests of at most this many bytes bypass the budget.
    pub const EXCLUDE_THRESHOLD: usize = 32;

    /// A budget of `DEFAULT_CAPACITY` live bytes over `inner`.
    pub fn new(inner: A) -> Self {
        Self::with_capacity(inner, Self::DEFAULT_CAPACITY)
    }

    /// A budget of `capacity` live bytes over `inner`.
    pub fn with_capacity(inner: A, capacity: usize) -> Self {
        FixedSizeAllocator {
            inner,
            capacity,
            used: AtomicUsize::new(0),
            log: None,
        }
    }

    /// Reports every counted allocation, refusal and release to `log`.
    pub fn with_log(mut self, log: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.log = Some(Box::new(log));
        self
    }

    /// Bytes currently counted against the budget.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    fn report(&self, line: impl FnOnce() -> String) {
        if let Some(log) = &self.log {
            log(&line());
        }
    }
}

impl<A: HostAllocator> HostAllocator for FixedSizeAllocator<A> {
    fn allocate_bytes(&self, size: usize, align: usize) -> Option<NonNull<u8>> {
        if size <= Self::EXCLUDE_THRESHOLD {
            return self.inner.allocate_bytes(size, align);
        }
        // Reserve the budget first (CAS loop), so concurrent callers can
        // never exceed it together.
        match self
            .used
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                used.checked_add(size)
                    .filter(|&total| total <= self.capacity)
            }) {
            Ok(before) => self.report(|| {
                format!(
                    "Allocating {size} bytes. {} remaining.",
                    self.capacity - (before + size)
                )
            }),
            Err(used) => {
                self.report(|| {
                    format!(
                        "Attempted to allocate {size} bytes. However current capacity is only {}.",
                        self.capacity.saturating_sub(used)
                    )
                });
                return None;
            }
        }
        let p = self.inner.allocate_bytes(size, align);
        if p.is_none() {
            self.used.fetch_sub(size, Ordering::Relaxed);
        }
        p
    }

    unsafe fn deallocate_bytes(&self, ptr: NonNull<u8>, size: usize, align: usize) {
        // SAFETY: forwarded contract.
        unsafe { self.inner.deallocate_bytes(ptr, size, align) };
        if size > Self::EXCLUDE_THRESHOLD {
            let before = self.used.fetch_sub(size, Ordering::Relaxed);
            self.report(|| {
                format!(
                    "Freeing {size} bytes. {} available.",
                    self.capacity.saturating_sub(before - size)
                )
            });
        }
    }
}

/// Allocation statistics of a [`ProfiledAllocator`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocationStats {
    /// Successful allocations so far.
    pub total_allocations: usize,
    /// Bytes allocated so far.
    pub total_bytes: usize,
    /// Currently live allocations and bytes.
    pub live_allocations: usize,
    /// Bytes of the live allocations.
    pub live_bytes: usize,
    /// Highest `live_allocations` / `live_bytes` seen.
    pub peak_allocations: usize,
    /// Highest `live_bytes` seen.
    pub peak_bytes: usize,
}

impl fmt::Display for AllocationStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} allocations ({} bytes) in total, {} live ({} bytes), peak {} allocations, {} bytes",
            self.total_allocations,
            self.total_bytes,
            self.live_allocations,
            self.live_bytes,
            self.peak_allocations,
            self.peak_bytes
        )
    }
}

/// Counts allocations and tracks peaks of an inner allocator.
pub struct ProfiledAllocator<A: HostAllocator = MallocAllocator> {
    inner: A,
    total_allocations: AtomicUsize,
    total_bytes: AtomicUsize,
    live_allocations: AtomicUsize,
    live_bytes: AtomicUsize,
    peak_allocations: AtomicUsize,
    peak_bytes: AtomicUsize,
}

impl Default for ProfiledAllocator {
    fn default() -> Self {
        Self::new(MallocAllocator)
    }
}

impl<A: HostAllocator> ProfiledAllocator<A> {
    /// Profiles the allocations of `inner`, starting from zero.
    pub fn new(inner: A) -> Self {
        ProfiledAllocator {
            inner,
            total_allocations: AtomicUsize::new(0),
            total_bytes: AtomicUsize::new(0),
            live_allocations: AtomicUsize::new(0),
            live_bytes: AtomicUsize::new(0),
            peak_allocations: AtomicUsize::new(0),
            peak_bytes: AtomicUsize::new(0),
        }
    }

    /// A snapshot of the counters.
    pub fn stats(&self) -> AllocationStats {
        // Acquire pairs with the Release of a deallocation on another
        // thread, so that a leak check after it sees the freed counts.
        let r = |a: &AtomicUsize| a.load(Ordering::Acquire);
        AllocationStats {
            total_allocations: r(&self.total_allocations),
            total_bytes: r(&self.total_bytes),
            live_allocations: r(&self.live_allocations),
            live_bytes: r(&self.live_bytes),
            peak_allocations: r(&self.peak_allocations),
            peak_bytes: r(&self.peak_bytes),
        }
    }
}

impl<A: HostAllocator> HostAllocator for ProfiledAllocator<A> {
    fn allocate_bytes(&self, size: usize, align: usize) -> Option<NonNull<u8>> {
        let p = self.inner.allocate_bytes(size, align)?;
        self.total_allocations.fetch_add(1, Ordering::Relaxed);
        self.total_bytes.fetch_add(size, Ordering::Relaxed);
        let live = self.live_allocations.fetch_add(1, Ordering::Relaxed) + 1;
        self.peak_allocations.fetch_max(live, Ordering::Relaxed);
        let bytes = self.live_bytes.fetch_add(size, Ordering::Relaxed) + size;
        self.peak_bytes.fetch_max(bytes, Ordering::Relaxed);
        Some(p)
    }

    unsafe fn deallocate_bytes(&self, ptr: NonNull<u8>, size: usize, align: usize) {
        // SAFETY: forwarded contract.
        unsafe { self.inner.deallocate_bytes(ptr, size, align) };
        self.live_allocations.fetch_sub(1, Ordering::Release);
        self.live_bytes.fetch_sub(size, Ordering::Release);
    }
}

impl<A: HostAllocator + ?Sized> HostAllocator for Box<A> {
    fn allocate_bytes(&self, size: usize, align: usize) -> Option<NonNull<u8>> {
        (**self).allocate_bytes(size, align)
    }
    unsafe fn deallocate_bytes(&self, ptr: NonNull<u8>, size: usize, align: usize) {
        // SAFETY: forwarded contract.
        unsafe { (**self).deallocate_bytes(ptr, size, align) }
    }
}

impl<A: HostAllocator + ?Sized> HostAllocator for std::sync::Arc<A> {
    fn allocate_bytes(&self, size: usize, align: usize) -> Option<NonNull<u8>> {
        (**self).allocate_bytes(size, align)
    }
    unsafe fn deallocate_bytes(&self, ptr: NonNull<u8>, size: usize, align: usize) {
        // SAFETY: forwarded contract.
        unsafe { (**self).deallocate_bytes(ptr, size, align) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn malloc_round_trip_and_bad_alignment() {
        let a: &dyn HostAllocator = &MallocAllocator;
        let p = a.allocate::<u64>(4).unwrap();
        // SAFETY: 4 u64s were allocated.
        unsafe {
            p.as_ptr().write_bytes(0, 4);
            assert_eq!(*p.as_ptr().add(3), 0);
            a.deallocate(p, 4);
        }
        assert!(a.allocate_bytes(8, 3).is_none());
        assert!(a.allocate::<u64>(usize::MAX).is_none());
        let z = a.allocate_bytes(0, 1).unwrap();
        // SAFETY: from allocate_bytes(0, 1).
        unsafe { a.deallocate_bytes(z, 0, 1) };
    }

    #[test]
    fn leak_check_reports_counts() {
        let a = LeakCheckAllocator::default();
        let p = a.allocate_bytes(100, 8).unwrap();
        let q = a.allocate_bytes(28, 4).unwrap();
        let err = a.check().unwrap_err();
        assert_eq!(
            err.to_string(),
            "Memory leak detected: 2 alive allocations, 128 alive bytes"
        );
        // SAFETY: pointers from this allocator with their sizes.
        unsafe {
            a.deallocate_bytes(p, 100, 8);
            a.deallocate_bytes(q, 28, 4);
        }
        assert_eq!(a.check(), Ok(()));
    }

    #[test]
    #[should_panic(expected = "Memory leak detected: 1 alive allocations, 16 alive bytes")]
    fn leak_check_panics_on_drop_with_leaks() {
        let a = LeakCheckAllocator::default();
        // Leaked on purpose (never deallocated).
        let _leaked = a.allocate_bytes(16, 8).unwrap();
        drop(a);
    }

    #[test]
    fn fixed_size_refuses_beyond_budget() {
        let a = FixedSizeAllocator::default();
        let p = a.allocate_bytes(960, 8).unwrap();
        assert!(a.allocate_bytes(65, 1).is_none());
        let q = a.allocate_bytes(64, 8).unwrap();
        assert_eq!(a.used(), 1024);
        assert!(a.allocate_bytes(33, 1).is_none());
        // Small requests bypass the budget.
        let small = a.allocate_bytes(32, 8).unwrap();
        assert_eq!(a.used(), 1024);
        // SAFETY: pointers from this allocator with their sizes.
        unsafe { a.deallocate_bytes(p, 960, 8) };
        let r = a.allocate_bytes(960, 8).unwrap();
        // SAFETY: as above.
        unsafe {
            a.deallocate_bytes(q, 64, 8);
            a.deallocate_bytes(r, 960, 8);
            a.deallocate_bytes(small, 32, 8);
        }
        assert_eq!(a.used(), 0);
        assert!(a.allocate_bytes(1025, 1).is_none());
    }

    #[test]
    fn fixed_size_budget_holds_under_contention() {
        let a = Arc::new(FixedSizeAllocator::default());
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let a = a.clone();
                std::thread::spawn(move || {
                    let mut got = Vec::new();
                    for _ in 0..100 {
                        if let Some(p) = a.allocate_bytes(64, 8) {
                            got.push(p.as_ptr() as usize);
                        }
                    }
                    got
                })
            })
            .collect();
        let all: Vec<usize> = threads
            .into_iter()
            .flat_map(|t| t.join().unwrap())
            .collect();
        assert_eq!(all.len(), 16);
        for p in all {
            // SAFETY: each pointer came from `allocate_bytes(64, 8)`.
            unsafe { a.deallocate_bytes(NonNull::new(p as *mut u8).unwrap(), 64, 8) };
        }
        assert_eq!(a.used(), 0);
    }

    #[test]
    fn profiled_counts_and_peaks() {
        let a = ProfiledAllocator::default();
        let p = a.allocate_bytes(10, 1).unwrap();
        let q = a.allocate_bytes(30, 1).unwrap();
        // SAFETY: pointers from this allocator with their sizes.
        unsafe { a.deallocate_bytes(p, 10, 1) };
        let r = a.allocate_bytes(5, 1).unwrap();
        // SAFETY: as above.
        unsafe {
            a.deallocate_bytes(q, 30, 1);
            a.deallocate_bytes(r, 5, 1);
        }
        let s = a.stats();
        assert_eq!(
            s,
            AllocationStats {
                total_allocations: 3,
                total_bytes: 45,
                live_allocations: 0,
                live_bytes: 0,
                peak_allocations: 2,
                peak_bytes: 40,
            }
        );
        assert!(
            s.to_string()
                .starts_with("3 allocations (45 bytes) in total")
        );
    }
}
