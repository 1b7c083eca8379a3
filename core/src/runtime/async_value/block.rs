//! Memory for AsyncValue blocks: a per-thread cache of cache-line-aligned
//! blocks in front of the system allocator.
//!
//! Values are made and dropped at a high rate, often in bursts (a kernel
//! producing many results, a batch of values completed by another thread),
//! where the system allocator leaves its own small per-thread cache quickly
//! (glibc's holds 7 blocks per size) and takes locks. Blocks also travel
//! between threads: a value is made on one, set on another, dropped on a
//! third. So:
//!
//! * blocks up to [`MAX_CACHED`] bytes are rounded up to a multiple of a
//!   cache line ([`LINE`]) and aligned to it, so that a small value (header
//!   plus a payload of up to 8 bytes) occupies exactly one cache line, the
//!   unit that moves between cores when another thread sets the value;
//! * each thread keeps freed blocks on one free list per size class, up to
//!   [`THREAD_CACHE_BYTES`] per class; the next block of that class is taken
//!   from there (no lock, no atomic operation);
//! * a thread whose list is full hands the whole list to a global depot (one
//!   lock per list, not per block), and a thread whose list is empty takes a
//!   list from there before asking the system, so producer / consumer thread
//!   pairs recycle blocks too. The depot holds at most [`DEPOT_LISTS`] lists
//!   per class; beyond that, blocks go back to the system. A thread's lists
//!   go to the depot when the thread exits.
//!
//! Not used under `cfg(loom)`, where blocks come from loom's allocator, which
//! checks for leaks.

use std::alloc::{self, Layout};
use std::cell::Cell;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Alignment and size granule of cached blocks: a cache line.
pub(crate) const LINE: usize = 64;
/// Number of size classes: blocks of 1..=CLASSES cache lines.
const CLASSES: usize = 4;
/// Largest cached block; larger or more aligned blocks bypass the cache.
pub(crate) const MAX_CACHED: usize = CLASSES * LINE;
/// Bytes of free blocks a thread keeps per size class.
const THREAD_CACHE_BYTES: usize = 16 * 1024;
/// Lists the depot keeps per size class.
const DEPOT_LISTS: usize = 16;

/// A free block; its first word links to the next free block.
struct FreeBlock {
    next: *mut FreeBlock,
}

/// A singly linked list of free blocks of one class.
#[derive(Clone, Copy)]
struct List {
    head: *mut FreeBlock,
    len: usize,
}

impl List {
    const EMPTY: List = List {
        head: ptr::null_mut(),
        len: 0,
    };
}

/// The size class of a layout, if cached.
#[inline(always)]
fn class_of(layout: Layout) -> Option<usize> {
    if layout.size() <= MAX_CACHED && layout.align() <= LINE {
        Some(layout.size().max(1).div_ceil(LINE) - 1)
    } else {
        None
    }
}

/// The layout of the blocks of class `c`, as allocated from the system.
#[inline(always)]
fn class_layout(c: usize) -> Layout {
    // SAFETY: `LINE` is a power of two and `(c + 1) * LINE` a small multiple
    // of it, so the layout is valid.
    unsafe { Layout::from_size_align_unchecked((c + 1) * LINE, LINE) }
}

/// Free blocks a thread keeps for class `c`.
#[inline(always)]
fn thread_cap(c: usize) -> usize {
    THREAD_CACHE_BYTES / ((c + 1) * LINE)
}

/// Returns every block of `list` to the system.
///
/// SAFETY: `list` holds free blocks of class `c`, owned by the caller.
unsafe fn release(c: usize, list: List) {
    let mut p = list.head;
    while !p.is_null() {
        // SAFETY: `p` is a free block of class `c` (contract); read its link
        // before freeing it.
        unsafe {
            let next = (*p).next;
            alloc::dealloc(p.cast::<u8>(), class_layout(c));
            p = next;
        }
    }
}

/// A list parked in the depot (raw pointers are not `Send`).
struct Parked(List);
// SAFETY: a parked list's blocks are owned by the depot, not shared; the
// thread that takes the list out owns them from then on.
unsafe impl Send for Parked {}

static DEPOT: Mutex<[Vec<Parked>; CLASSES]> = Mutex::new([const { Vec::new() }; CLASSES]);

/// Number of lists parked per class: a hint read without the lock, so that a
/// thread that only allocates does not take the lock for every block.
static PARKED: [AtomicUsize; CLASSES] = [const { AtomicUsize::new(0) }; CLASSES];

fn depot() -> MutexGuard<'static, [Vec<Parked>; CLASSES]> {
    // The depot's state is consistent between statements: a panic elsewhere
    // while holding the lock (allocation failure) does not corrupt it.
    DEPOT.lock().unwrap_or_else(|e| e.into_inner())
}

/// Parks a full list in the depot, or frees it if the depot is full.
///
/// SAFETY: `list` holds free blocks of class `c`, owned by the caller.
unsafe fn park(c: usize, list: List) {
    let mut d = depot();
    if d[c].len() < DEPOT_LISTS {
        d[c].push(Parked(list));
        PARKED[c].store(d[c].len(), Ordering::Relaxed);
    } else {
        drop(d);
        // SAFETY: forwarded contract.
        unsafe { release(c, list) };
    }
}

/// Takes a parked list of class `c` (empty if there is none).
fn unpark(c: usize) -> List {
    if PARKED[c].load(Ordering::Relaxed) == 0 {
        return List::EMPTY;
    }
    let mut d = depot();
    let list = d[c].pop().map_or(List::EMPTY, |p| p.0);
    PARKED[c].store(d[c].len(), Ordering::Relaxed);
    list
}

struct ThreadCache {
    lists: [Cell<List>; CLASSES],
}

impl Drop for ThreadCache {
    fn drop(&mut self) {
        for (c, list) in self.lists.iter().enumerate() {
            let list = list.replace(List::EMPTY);
            if list.len != 0 {
                // SAFETY: the list belongs to this exiting thread.
                unsafe { park(c, list) };
            }
        }
    }
}

thread_local! {
    static CACHE: ThreadCache = const {
        ThreadCache {
            lists: [const { Cell::new(List::EMPTY) }; CLASSES],
        }
    };
}

/// Allocates a block for `layout` (non-zero size), aligned to at least
/// `layout.align()`. Returns null when out of memory.
///
/// SAFETY: `layout` has a non-zero size.
#[inline]
pub(crate) unsafe fn allocate(layout: Layout) -> *mut u8 {
    let Some(c) = class_of(layout) else {
        // SAFETY: non-zero size (contract).
        return unsafe { alloc::alloc(layout) };
    };
    let cached = CACHE.try_with(|t| {
        let mut list = t.lists[c].get();
        if list.len == 0 {
            list = unpark(c);
            if list.len == 0 {
                return ptr::null_mut();
            }
        }
        let block = list.head;
        // SAFETY: a non-empty list's head is a free block owned by this
        // thread; its first word is the link.
        list.head = unsafe { (*block).next };
        list.len -= 1;
        t.lists[c].set(list);
        block.cast::<u8>()
    });
    match cached {
        Ok(p) if !p.is_null() => p,
        // SAFETY: the class layout has a non-zero size.
        _ => unsafe { alloc::alloc(class_layout(c)) },
    }
}

/// Frees a block from [`allocate`].
///
/// SAFETY: `p` came from `allocate(layout)` (on any thread) and is not used
/// afterwards.
#[inline]
pub(crate) unsafe fn deallocate(p: *mut u8, layout: Layout) {
    let Some(c) = class_of(layout) else {
        // SAFETY: allocated by the system with this layout (contract).
        return unsafe { alloc::dealloc(p, layout) };
    };
    let block = p.cast::<FreeBlock>();
    let cached = CACHE.try_with(|t| {
        let mut list = t.lists[c].get();
        if list.len >= thread_cap(c) {
            // SAFETY: a full list owned by this thread.
            unsafe { park(c, list) };
            list = List::EMPTY;
        }
        // SAFETY: `block` is ours (contract) and at least a cache line long,
        // aligned for a pointer.
        unsafe { block.write(FreeBlock { next: list.head }) };
        list.head = block;
        list.len += 1;
        t.lists[c].set(list);
    });
    if cached.is_err() {
        // Thread-local storage torn down (a value dropped by another
        // thread-local's destructor): straight back to the system.
        // SAFETY: every block of class `c` has the class layout.
        unsafe { alloc::dealloc(p, class_layout(c)) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn classes() {
        assert_eq!(class_of(layout(1, 1)), Some(0));
        assert_eq!(class_of(layout(64, 8)), Some(0));
        assert_eq!(class_of(layout(65, 8)), Some(1));
        assert_eq!(class_of(layout(256, 64)), Some(3));
        assert_eq!(class_of(layout(257, 8)), None);
        assert_eq!(class_of(layout(64, 128)), None);
    }

    #[test]
    fn blocks_are_line_aligned_distinct_and_reused() {
        let l = layout(56, 8);
        let blocks: Vec<*mut u8> = (0..1000)
            // SAFETY: non-zero size.
            .map(|_| unsafe { allocate(l) })
            .collect();
        let mut sorted = blocks.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), blocks.len());
        for &p in &blocks {
            assert!(!p.is_null() && (p as usize).is_multiple_of(LINE));
            // SAFETY: the block is at least `l.size()` bytes.
            unsafe { ptr::write_bytes(p, 0xAB, l.size()) };
        }
        let last = *blocks.last().unwrap();
        for p in blocks {
            // SAFETY: from `allocate(l)`, freed once.
            unsafe { deallocate(p, l) };
        }
        // The most recently freed block comes back first.
        // SAFETY: non-zero size; freed below.
        let again = unsafe { allocate(l) };
        assert_eq!(again, last);
        // SAFETY: as above.
        unsafe { deallocate(again, l) };
    }

    #[test]
    fn uncached_layouts_bypass_the_cache() {
        for l in [layout(4096, 8), layout(32, 256)] {
            // SAFETY: non-zero size; freed once with the same layout.
            unsafe {
                let p = allocate(l);
                assert!(!p.is_null() && (p as usize).is_multiple_of(l.align()));
                ptr::write_bytes(p, 1, l.size());
                deallocate(p, l);
            }
        }
    }

    /// Blocks made on one thread and freed on another travel through the
    /// depot; nothing is lost or handed out twice.
    #[test]
    fn producer_consumer_threads() {
        let l = layout(200, 16);
        let (tx, rx) = std::sync::mpsc::channel::<Vec<usize>>();
        let consumer = std::thread::spawn(move || {
            for batch in rx {
                for p in batch {
                    // SAFETY: from `allocate(l)` on the producer, freed once.
                    unsafe { deallocate(p as *mut u8, l) };
                }
            }
        });
        for _ in 0..20 {
            let batch: Vec<usize> = (0..500)
                .map(|i| {
                    // SAFETY: non-zero size.
                    let p = unsafe { allocate(l) };
                    assert!(!p.is_null() && (p as usize).is_multiple_of(LINE));
                    // SAFETY: the block is `l.size()` bytes.
                    unsafe { ptr::write_bytes(p, i as u8, l.size()) };
                    p as usize
                })
                .collect();
            let mut sorted = batch.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), batch.len());
            tx.send(batch).unwrap();
        }
        drop(tx);
        consumer.join().unwrap();
    }
}
