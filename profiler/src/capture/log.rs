//! A bounded append-only log with one writer thread and any number of
//! readers: what each recording thread appends its events to.
//!
//! The writer fills fixed-size chunks, taking a chunk once per [`CHUNK`]
//! entries (never per entry), and publishes each entry by storing the new
//! count with `Release`. A reader loads the count with `Acquire` and reads
//! only entries below it, which the writer never touches again while the
//! reader holds their chunk. When the bound is reached, a log that keeps
//! the first entries ([`Keep::First`]) counts later ones as dropped; one
//! that keeps the last ([`Keep::Last`]) reuses its oldest chunk, whose
//! entries are dropped. A ring with a time window ([`Window`]) also drops
//! its oldest chunk, before it is full, once every entry of that chunk is
//! older than the window: what it holds is then the last stretch of time,
//! not a count.

use std::alloc::Layout;
use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Entries per chunk.
pub const CHUNK: usize = 16 * 1024;

type Chunk<T> = Box<[UnsafeCell<MaybeUninit<T>>]>;

/// The bytes of freed chunks kept for reuse, across all logs: a recording
/// then writes to pages already mapped instead of faulting in fresh ones
/// (a chunk is larger than the allocator's mmap threshold, so each new one
/// would otherwise be mapped, faulted page by page and unmapped again).
const POOL_BYTES: usize = 16 << 20;

/// Freed chunk allocations, whatever their entry type, with their layout.
struct Pool {
    free: Vec<(std::ptr::NonNull<u8>, Layout)>,
    bytes: usize,
}

// SAFETY: the pool owns the allocations it holds (no one else points into
// them), so they may be handed to any thread.
unsafe impl Send for Pool {}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    free: Vec::new(),
    bytes: 0,
});

fn chunk_layout<T>() -> Layout {
    Layout::array::<UnsafeCell<MaybeUninit<T>>>(CHUNK).expect("a chunk's size fits in isize")
}

/// A chunk of uninitialised slots: a pooled allocation of the same layout
/// if there is one, else a new one; no per-slot work.
fn new_chunk<T>() -> Arc<Chunk<T>> {
    let layout = chunk_layout::<T>();
    let pooled = {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let at = pool.free.iter().rposition(|&(_, l)| l == layout);
        at.map(|at| {
            pool.bytes -= layout.size();
            pool.free.swap_remove(at).0
        })
    };
    let Some(ptr) = pooled else {
        let mut slots: Vec<UnsafeCell<MaybeUninit<T>>> = Vec::with_capacity(CHUNK);
        // SAFETY: the capacity is `CHUNK`, and `UnsafeCell<MaybeUninit<T>>`
        // needs no initialisation: every bit pattern (or none) is a valid
        // "uninitialised" slot.
        unsafe { slots.set_len(CHUNK) };
        return Arc::new(slots.into_boxed_slice());
    };
    let slots = std::ptr::slice_from_raw_parts_mut(ptr.as_ptr().cast(), CHUNK);
    // SAFETY: `ptr` came from `recycle`, which took it from a boxed slice of
    // `CHUNK` slots with this same layout (so this allocator and this
    // alignment) and gave up its ownership to the pool; the slots need no
    // initialisation, as above.
    Arc::new(unsafe { Box::from_raw(slots) })
}

/// Gives a chunk no one else holds back to the pool, or frees it when the
/// pool is full.
fn recycle<T>(chunk: Arc<Chunk<T>>) {
    let Ok(chunk) = Arc::try_unwrap(chunk) else {
        // A reader's snapshot still holds it; the last holder frees it.
        return;
    };
    let layout = chunk_layout::<T>();
    let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if pool.bytes + layout.size() > POOL_BYTES || chunk.len() != CHUNK {
        return;
    }
    let ptr = Box::into_raw(chunk).cast::<u8>();
    // `Box::into_raw` never returns null; the check only avoids `unsafe`.
    if let Some(ptr) = std::ptr::NonNull::new(ptr) {
        pool.bytes += layout.size();
        pool.free.push((ptr, layout));
    }
}

/// Which entries a full log keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Keep {
    /// The first ones: later entries are dropped.
    #[default]
    First,
    /// The last ones: the oldest entries are dropped to make room.
    Last,
}

/// The time window of a [`Keep::Last`] log: a chunk whose entries are all
/// older than `nanos` before the entry being appended is dropped.
#[derive(Clone, Copy)]
pub struct Window<T> {
    /// How far back entries are kept, in nanoseconds.
    pub nanos: u64,
    /// The clock reading of an entry (`bef::exec::Timestamp::raw`); `None`
    /// for an entry without a time of its own (a continuation).
    pub time_of: fn(&T) -> Option<u64>,
}

/// The chunks a log holds, oldest first.
struct Held<T> {
    chunks: VecDeque<Arc<Chunk<T>>>,
    /// The index of the oldest chunk's first entry.
    first: u64,
}

/// What only the writer touches.
struct Writer<T> {
    /// The chunk being filled.
    current: Option<Arc<Chunk<T>>>,
    /// A [`Keep::First`] log that is full.
    full: bool,
}

/// See the [module](self) documentation.
pub struct Log<T: Copy> {
    keep: Keep,
    /// The entries kept at most.
    capacity: u64,
    /// The chunks held at most.
    max_chunks: usize,
    held: Mutex<Held<T>>,
    writer: UnsafeCell<Writer<T>>,
    /// The index of the next entry (entries pushed and not counted as
    /// dropped); only the writer stores it.
    pushed: AtomicU64,
    /// Entries a [`Keep::First`] log did not take.
    refused: AtomicU64,
    /// The time window of a [`Keep::Last`] log, if it has one.
    window: Option<Window<T>>,
}

// SAFETY: entries are `Copy` plain data moved between threads (`T: Send`).
// `writer` is touched only by the one writer (the `push` contract); chunks
// are shared through `held` under its lock, and a slot is written only
// above the published count of a chunk no reader holds a clone of, with
// the Release/Acquire count ordering the writes before the reads.
unsafe impl<T: Copy + Send> Sync for Log<T> {}
// SAFETY: moving the log moves its chunks and writer state with it; the
// chunks' slots are plain `Copy + Send` data, shared only as `Sync`
// describes.
unsafe impl<T: Copy + Send> Send for Log<T> {}

impl<T: Copy> Drop for Log<T> {
    /// Returns the log's chunks to the pool for the next log to fill.
    fn drop(&mut self) {
        self.writer.get_mut().current = None;
        let held = self.held.get_mut().unwrap_or_else(|e| e.into_inner());
        for chunk in held.chunks.drain(..) {
            recycle(chunk);
        }
    }
}

/// The entries a log held when it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot<T> {
    /// The index of `entries[0]` among every entry ever pushed.
    pub first: u64,
    /// The entries, oldest first.
    pub entries: Vec<T>,
    /// Entries lost: after the kept ones for [`Keep::First`], before them
    /// (so `first` of them) for [`Keep::Last`].
    pub dropped: u64,
}

impl<T: Copy> Log<T> {
    /// A log holding up to `capacity` entries (rounded up to whole chunks
    /// for [`Keep::First`]; exactly that many, the newest, for
    /// [`Keep::Last`]).
    pub fn new(capacity: usize, keep: Keep) -> Self {
        let chunks = capacity.div_ceil(CHUNK).max(1);
        let (capacity, max_chunks) = match keep {
            Keep::First => ((chunks * CHUNK) as u64, chunks),
            // One more chunk than the newest `capacity` entries span, so
            // that a whole `capacity` remains after the oldest is reused.
            Keep::Last => (capacity.max(1) as u64, chunks + 1),
        };
        Log {
            keep,
            capacity,
            max_chunks,
            held: Mutex::new(Held {
                chunks: VecDeque::new(),
                first: 0,
            }),
            writer: UnsafeCell::new(Writer {
                current: None,
                full: false,
            }),
            pushed: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            window: None,
        }
    }

    /// A [`Keep::Last`] log of at most `capacity` entries that also drops
    /// entries older than `window` (by whole chunks, so it may hold up to
    /// a chunk more of the past: whoever reads it cuts at the window).
    pub fn with_window(capacity: usize, window: Window<T>) -> Self {
        let mut log = Log::new(capacity, Keep::Last);
        log.window = Some(window);
        log
    }

    /// Appends `entry`, or counts it as dropped when a [`Keep::First`] log
    /// is full.
    ///
    /// # Safety
    /// Only one thread may ever call `push` or [`reserve_first`](Self::reserve_first)
    /// on a given log (its writer).
    #[inline]
    pub unsafe fn push(&self, entry: T) {
        // Only this thread stores `pushed`, so a relaxed load sees its own
        // latest store.
        let i = self.pushed.load(Ordering::Relaxed);
        let offset = (i % CHUNK as u64) as usize;
        // SAFETY: the caller is the only writer, the only one to touch
        // `writer`.
        let writer = unsafe { &mut *self.writer.get() };
        if offset == 0 && !self.next_chunk(writer, &entry) {
            self.refused.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let Some(chunk) = &writer.current else {
            // `next_chunk` sets it whenever it succeeds.
            return;
        };
        // SAFETY: slot `offset` of the current chunk is at or beyond the
        // published count, so no reader reads it, and the caller is the
        // only writer; `offset < CHUNK`.
        unsafe { (*chunk[offset].get()).write(entry) };
        self.pushed.store(i + 1, Ordering::Release);
    }

    /// Takes the chunk to fill next; false when a [`Keep::First`] log is
    /// full.
    #[cold]
    fn next_chunk(&self, writer: &mut Writer<T>, entry: &T) -> bool {
        if writer.full {
            return false;
        }
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        // The first chunk may have been reserved already.
        let fresh = held.first + (held.chunks.len() * CHUNK) as u64;
        if fresh > self.pushed.load(Ordering::Relaxed) {
            writer.current = held.chunks.back().cloned();
            return true;
        }
        let expired = self.expired(&mut held, entry);
        let chunk = if let Some(chunk) = expired {
            chunk
        } else if held.chunks.len() < self.max_chunks {
            new_chunk()
        } else if self.keep == Keep::First {
            writer.full = true;
            writer.current = None;
            return false;
        } else {
            let Some(mut oldest) = held.chunks.pop_front() else {
                return false;
            };
            held.first += CHUNK as u64;
            // Reused unless a reader still holds it; `get_mut` orders that
            // reader's reads before the writes to come.
            if Arc::get_mut(&mut oldest).is_some() {
                oldest
            } else {
                new_chunk()
            }
        };
        held.chunks.push_back(chunk.clone());
        writer.current = Some(chunk);
        true
    }

    /// With a window: drops the chunks whose entries are all older than the
    /// window before `entry` (the newest), and hands back one of them for
    /// reuse; a chunk a reader still holds is left to it.
    fn expired(&self, held: &mut Held<T>, entry: &T) -> Option<Arc<Chunk<T>>> {
        let window = self.window?;
        let now = bef::exec::Timestamp::from_raw((window.time_of)(entry)?);
        let mut reuse = None;
        // The newest chunk is being filled; only full ones may go.
        while held.chunks.len() > 1 {
            let newest_in_oldest = held.chunks[0]
                .iter()
                .rev()
                // SAFETY: every slot of a chunk before the newest was
                // written (and published) before the writer moved on, and
                // only the writer, this thread, writes slots.
                .find_map(|slot| (window.time_of)(unsafe { (*slot.get()).assume_init_ref() }));
            let old = newest_in_oldest
                .is_none_or(|t| now.nanos_since(bef::exec::Timestamp::from_raw(t)) > window.nanos);
            if !old {
                break;
            }
            let Some(mut oldest) = held.chunks.pop_front() else {
                break;
            };
            held.first += CHUNK as u64;
            if reuse.is_none() && Arc::get_mut(&mut oldest).is_some() {
                reuse = Some(oldest);
            } else {
                recycle(oldest);
            }
        }
        reuse
    }

    /// Takes the first chunk now, so that the first `push` does not
    /// allocate.
    ///
    /// # Safety
    /// As for [`push`](Self::push): only the writer may call it.
    pub unsafe fn reserve_first(&self) {
        // SAFETY: the caller is the only writer.
        let writer = unsafe { &mut *self.writer.get() };
        if self.pushed.load(Ordering::Relaxed) == 0 && writer.current.is_none() {
            let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            let chunk = new_chunk();
            held.chunks.push_back(chunk.clone());
            writer.current = Some(chunk);
        }
    }

    /// The index the next entry will have; exact for the writer.
    pub fn pushed(&self) -> u64 {
        self.pushed.load(Ordering::Relaxed)
    }

    /// The entries held now, in order.
    pub fn snapshot(&self) -> Snapshot<T> {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let chunks: Vec<Arc<Chunk<T>>> = held.chunks.iter().cloned().collect();
        let held_first = held.first;
        // Loaded under the lock: the writer cannot move to another chunk
        // meanwhile, so every entry below it is in `chunks`.
        let end = self.pushed.load(Ordering::Acquire);
        drop(held);
        let first = match self.keep {
            Keep::First => held_first,
            Keep::Last => held_first.max(end.saturating_sub(self.capacity)),
        };
        let mut entries = Vec::with_capacity((end - first) as usize);
        for i in first..end {
            let at = (i - held_first) as usize;
            // SAFETY: `i` is below the count loaded with Acquire, which the
            // writer stored with Release after initialising the slot; the
            // writer does not write it again while `chunks` holds its
            // chunk (a chunk is reused only when no one else holds it).
            entries.push(unsafe { (*chunks[at / CHUNK][at % CHUNK].get()).assume_init() });
        }
        let dropped = match self.keep {
            Keep::First => self.refused.load(Ordering::Relaxed),
            Keep::Last => first,
        };
        Snapshot {
            first,
            entries,
            dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_on_recycled_chunks_holds_only_its_own_entries() {
        let old = Log::new(2 * CHUNK, Keep::First);
        for i in 0..2 * CHUNK as u64 {
            // SAFETY: this test thread is the only writer.
            unsafe { old.push(u64::MAX - i) };
        }
        drop(old);
        let new = Log::new(2 * CHUNK, Keep::First);
        for i in 0..CHUNK as u64 + 3 {
            // SAFETY: this test thread is the only writer.
            unsafe { new.push(i) };
        }
        let got = new.snapshot();
        assert_eq!(got.entries.len(), CHUNK + 3);
        assert!(got.entries.iter().enumerate().all(|(i, &v)| v == i as u64));
    }

    #[test]
    fn keeps_the_first_entries_and_counts_drops() {
        let log = Log::new(CHUNK + 1, Keep::First);
        for i in 0..3 * CHUNK + 5 {
            // SAFETY: this test thread is the only writer.
            unsafe { log.push(i) };
        }
        let got = log.snapshot();
        assert_eq!(got.first, 0);
        assert_eq!(got.entries.len(), 2 * CHUNK);
        assert!(got.entries.iter().enumerate().all(|(i, &v)| i == v));
        assert_eq!(got.dropped, CHUNK as u64 + 5);
    }

    #[test]
    fn keeps_the_last_entries_and_counts_drops() {
        let log = Log::new(CHUNK + 7, Keep::Last);
        let total = 5 * CHUNK + 3;
        for i in 0..total {
            // SAFETY: this test thread is the only writer.
            unsafe { log.push(i) };
        }
        let got = log.snapshot();
        assert_eq!(got.entries.len(), CHUNK + 7);
        assert_eq!(got.first, (total - CHUNK - 7) as u64);
        assert_eq!(got.dropped, got.first);
        assert!(
            got.entries
                .iter()
                .enumerate()
                .all(|(i, &v)| v == got.first as usize + i)
        );
    }

    #[test]
    fn a_windowed_ring_drops_chunks_older_than_its_window() {
        // Entries are their own clock readings.
        let log = Log::with_window(
            100 * CHUNK,
            Window {
                nanos: 5_000_000,
                time_of: |&t: &u64| Some(t),
            },
        );
        let old = bef::exec::Timestamp::now().raw();
        for _ in 0..2 * CHUNK {
            // SAFETY: this test thread is the only writer.
            unsafe { log.push(old) };
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        let new = bef::exec::Timestamp::now().raw();
        for _ in 0..2 * CHUNK + 1 {
            // SAFETY: this test thread is the only writer.
            unsafe { log.push(new) };
        }
        // Far below the count it may hold, the ring let both old chunks
        // go as the new entries came, and kept every new one.
        let got = log.snapshot();
        assert_eq!(got.first, 2 * CHUNK as u64);
        assert_eq!(got.dropped, got.first);
        assert_eq!(got.entries.len(), 2 * CHUNK + 1);
        assert!(got.entries.iter().all(|&t| t == new));
    }

    #[test]
    fn a_ring_below_its_capacity_keeps_everything() {
        let log = Log::new(10, Keep::Last);
        for i in 0..4u8 {
            // SAFETY: this test thread is the only writer.
            unsafe { log.push(i) };
        }
        assert_eq!(
            log.snapshot(),
            Snapshot {
                first: 0,
                entries: vec![0, 1, 2, 3],
                dropped: 0
            }
        );
    }

    #[test]
    fn readers_see_a_prefix_while_the_writer_appends() {
        let log = Arc::new(Log::new(4 * CHUNK, Keep::First));
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
            assert!(
                seen.entries
                    .iter()
                    .enumerate()
                    .all(|(i, &v)| v == i as u64 * 3)
            );
        }
        writer.join().unwrap();
        assert_eq!(log.snapshot().entries.len(), 3 * CHUNK);
    }

    #[test]
    fn readers_of_a_ring_see_consecutive_entries_while_it_turns() {
        let log = Arc::new(Log::new(2 * CHUNK, Keep::Last));
        let writer = {
            let log = log.clone();
            std::thread::spawn(move || {
                for i in 0..12 * CHUNK as u64 {
                    // SAFETY: the spawned thread is the only writer.
                    unsafe { log.push(i) };
                }
            })
        };
        for _ in 0..50 {
            let seen = log.snapshot();
            assert!(seen.entries.len() <= 2 * CHUNK);
            assert!(
                seen.entries
                    .iter()
                    .enumerate()
                    .all(|(i, &v)| v == seen.first + i as u64)
            );
        }
        writer.join().unwrap();
        let last = log.snapshot();
        assert_eq!(last.entries.last(), Some(&(12 * CHUNK as u64 - 1)));
        assert_eq!(last.dropped, 10 * CHUNK as u64);
    }
}
