//! A bounded append-only log with one writer thread and any number of
//! readers: what each recording thread appends its events to.
//!
//! The writer fills fixed-size chunks, allocating a chunk once per
//! [`CHUNK`] entries (never per entry), and publishes each entry by
//! storing the new length with `Release`. A reader loads the length with
//! `Acquire` and reads only entries below it, which the writer never
//! touches again. When the bound is reached, entries are counted as
//! dropped instead.

use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Entries per chunk.
pub const CHUNK: usize = 16 * 1024;

type Chunk<T> = Box<[UnsafeCell<MaybeUninit<T>>]>;

/// A chunk of uninitialised slots: one allocation, no per-slot work.
fn new_chunk<T>() -> Chunk<T> {
    let mut slots: Vec<UnsafeCell<MaybeUninit<T>>> = Vec::with_capacity(CHUNK);
    // SAFETY: the capacity is `CHUNK`, and `UnsafeCell<MaybeUninit<T>>`
    // needs no initialisation: every bit pattern (or none) is a valid
    // "uninitialised" slot.
    unsafe { slots.set_len(CHUNK) };
    slots.into_boxed_slice()
}

/// See the [module](self) documentation.
pub struct Log<T: Copy> {
    chunks: Box<[OnceLock<Chunk<T>>]>,
    /// Entries published; only the writer stores it.
    len: AtomicUsize,
    dropped: AtomicU64,
}

// SAFETY: entries are `Copy` plain data moved between threads (`T: Send`);
// the only shared mutation is the writer's append, and the `Log` contract
// (one writer, see `push`) with the Release/Acquire length keeps readers
// off slots being written.
unsafe impl<T: Copy + Send> Sync for Log<T> {}

impl<T: Copy> Log<T> {
    /// A log holding up to `capacity` entries (rounded up to whole chunks).
    pub fn new(capacity: usize) -> Self {
        let chunks = capacity.div_ceil(CHUNK).max(1);
        Log {
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            len: AtomicUsize::new(0),
            dropped: AtomicU64::new(0),
        }
    }

    /// Appends `entry`, or counts it as dropped when the log is full.
    ///
    /// # Safety
    /// Only one thread may ever call `push` on a given log (its writer).
    #[inline]
    pub unsafe fn push(&self, entry: T) {
        // Only this thread stores `len`, so a relaxed load sees its own
        // latest store.
        let i = self.len.load(Ordering::Relaxed);
        let Some(slot) = self.chunks.get(i / CHUNK) else {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let chunk = slot.get_or_init(new_chunk);
        // SAFETY: slot `i` is at or beyond the published length, so no
        // reader reads it, and the caller guarantees this is the only
        // writer; `i % CHUNK` is in bounds of a chunk of `CHUNK` slots.
        unsafe { (*chunk[i % CHUNK].get()).write(entry) };
        self.len.store(i + 1, Ordering::Release);
    }

    /// Allocates the first chunk now, so that the first `push` does not.
    pub fn reserve_first(&self) {
        self.chunks[0].get_or_init(new_chunk);
    }

    /// The entries published so far, in order.
    pub fn snapshot(&self) -> Vec<T> {
        let len = self.len.load(Ordering::Acquire);
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            let chunk = self.chunks[i / CHUNK]
                .get()
                .expect("a published entry's chunk was initialised before it");
            // SAFETY: `i` is below the length loaded with Acquire, which the
            // writer stored with Release after initialising slot `i`; the
            // writer never writes below the published length again.
            out.push(unsafe { (*chunk[i % CHUNK].get()).assume_init() });
        }
        out
    }

    /// Entries published so far (the index of the next one); exact for the
    /// writer, a lower bound for other threads.
    pub fn pushed(&self) -> u64 {
        self.len.load(Ordering::Relaxed) as u64
    }

    /// Entries that did not fit.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn keeps_order_and_counts_drops() {
        let log = Log::new(CHUNK + 1);
        for i in 0..2 * CHUNK + 5 {
            // SAFETY: this test thread is the only writer.
            unsafe { log.push(i) };
        }
        let got = log.snapshot();
        assert_eq!(got.len(), 2 * CHUNK);
        assert!(got.iter().enumerate().all(|(i, &v)| i == v));
        assert_eq!(log.dropped(), 5);
    }

    #[test]
    fn readers_see_a_prefix_while_the_writer_appends() {
        let log = Arc::new(Log::new(4 * CHUNK));
        let writer = {
            let log = log.clone();
            std::thread::spawn(move || {
                for i in 0..3 * CHUNK as u64 {
                    // SAFETY: the spawned thread is the only writer.
                    unsafe { log.push(i * 3) };
                }
            })
        };
        for _ in 0..20 {
            let seen = log.snapshot();
            assert!(seen.iter().enumerate().all(|(i, &v)| v == i as u64 * 3));
        }
        writer.join().unwrap();
        assert_eq!(log.snapshot().len(), 3 * CHUNK);
    }
}
