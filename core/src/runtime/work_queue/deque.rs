//! A fixed-capacity Chase-Lev work-stealing deque (Lê, Pop, Cohen, Zappa
//! Nardelli, "Correct and Efficient Work-Stealing for Weak Memory Models",
//! PPoPP 2013), with atomic pointer slots so that a thief's speculative read
//! of a slot is never a data race.
//!
//! The owner ([`Worker`]) pushes and pops at the bottom (LIFO); thieves
//! ([`Stealer`]) take from the top (FIFO). Capacity is fixed: a push to a
//! full deque hands the item back, and the work queue sends it to its
//! shared injector instead, so no buffer is ever reallocated and no memory
//! reclamation scheme is needed.
//!
//! Orderings (numbers refer to the comments in the code):
//! 1. push: release fence before publishing `bottom`: a thief that reads
//!    this or any later `bottom` store of the owner sees the slot write.
//! 2. pop: `bottom` is decremented *before* `top` is read, separated by a
//!    SeqCst fence; steal reads `top` then `bottom`, separated by a SeqCst
//!    fence. This Dekker-style pair guarantees that owner and thief cannot
//!    both take the last item without going through the CAS on `top`.
//! 3. The CAS on `top` (SeqCst) arbitrates the last item between the owner
//!    and thieves, and among thieves.
//! 4. push reads `top` with acquire, pairing with the thieves' CAS, so a
//!    slot is overwritten only after the thief that took it has read it.

use std::marker::PhantomData;
use std::ptr::{self, NonNull};
use std::sync::Arc;

use crate::runtime::sync::{AtomicIsize, AtomicPtr, Ordering, fence};
use crate::runtime::task::Task;

/// Items a deque can hold: anything convertible to a thin owning pointer.
pub trait RawItem: Send + Sized {
    /// Gives up ownership of the item as a pointer; see [`from_raw`](Self::from_raw).
    fn into_raw(self) -> NonNull<()>;
    /// Rebuilds an item from [`into_raw`](Self::into_raw).
    ///
    /// # Safety
    /// `p` came from `into_raw` of the same type and is reclaimed once.
    unsafe fn from_raw(p: NonNull<()>) -> Self;
}

impl RawItem for Task {
    fn into_raw(self) -> NonNull<()> {
        Task::into_raw(self)
    }
    unsafe fn from_raw(p: NonNull<()>) -> Self {
        // SAFETY: forwarded contract.
        unsafe { Task::from_raw(p) }
    }
}

impl<T: Send> RawItem for Box<T> {
    fn into_raw(self) -> NonNull<()> {
        NonNull::from(Box::leak(self)).cast()
    }
    unsafe fn from_raw(p: NonNull<()>) -> Self {
        // SAFETY: forwarded contract.
        unsafe { Box::from_raw(p.cast::<T>().as_ptr()) }
    }
}

#[repr(align(64))]
struct Padded<T>(T);

struct Inner {
    top: Padded<AtomicIsize>,
    bottom: Padded<AtomicIsize>,
    slots: Box<[AtomicPtr<()>]>,
    mask: usize,
    /// Drops an item left in the deque when the last handle goes.
    drop_item: unsafe fn(NonNull<()>),
}

unsafe fn drop_item<T: RawItem>(p: NonNull<()>) {
    // SAFETY: the slot held an item of type `T` that nobody took.
    drop(unsafe { T::from_raw(p) });
}

impl Drop for Inner {
    fn drop(&mut self) {
        let t = self.top.0.load(Ordering::Relaxed);
        let b = self.bottom.0.load(Ordering::Relaxed);
        let mut i = t;
        while b.wrapping_sub(i) > 0 {
            let p = self.slots[i as usize & self.mask].load(Ordering::Relaxed);
            if let Some(p) = NonNull::new(p) {
                // SAFETY: exclusive access; items in [top, bottom) are owned
                // by the deque.
                unsafe { (self.drop_item)(p) };
            }
            i = i.wrapping_add(1);
        }
    }
}

/// The owner's end of a deque. `Send` but not `Sync`: exactly one thread
/// pushes and pops.
pub struct Worker<T: RawItem> {
    inner: Arc<Inner>,
    _marker: PhantomData<(T, *const ())>,
}

// SAFETY: the owner handle may move to another thread; it is not `Sync`, so
// push/pop stay single-threaded.
unsafe impl<T: RawItem> Send for Worker<T> {}

/// A thief's end of a deque; clone it freely.
pub struct Stealer<T: RawItem> {
    inner: Arc<Inner>,
    _marker: PhantomData<T>,
}

// SAFETY: stealing only moves `T: Send` items between threads through atomics.
unsafe impl<T: RawItem> Send for Stealer<T> {}
// SAFETY: as above; all shared state is atomic.
unsafe impl<T: RawItem> Sync for Stealer<T> {}

impl<T: RawItem> Clone for Stealer<T> {
    fn clone(&self) -> Self {
        Stealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }
}

/// Result of a steal attempt.
#[derive(Debug, PartialEq, Eq)]
pub enum Steal<T> {
    /// The deque held no item.
    Empty,
    /// Took this item.
    Success(T),
    /// Lost a race with another taker; the deque may still hold items.
    Retry,
}

/// A new deque holding up to `capacity` items (rounded up to a power of two).
pub fn deque<T: RawItem>(capacity: usize) -> (Worker<T>, Stealer<T>) {
    let cap = capacity.max(2).next_power_of_two();
    let slots = (0..cap).map(|_| AtomicPtr::new(ptr::null_mut())).collect();
    let inner = Arc::new(Inner {
        top: Padded(AtomicIsize::new(0)),
        bottom: Padded(AtomicIsize::new(0)),
        slots,
        mask: cap - 1,
        drop_item: drop_item::<T>,
    });
    (
        Worker {
            inner: inner.clone(),
            _marker: PhantomData,
        },
        Stealer {
            inner,
            _marker: PhantomData,
        },
    )
}

impl<T: RawItem> Worker<T> {
    /// Pushes at the bottom; gives the item back if the deque is full.
    pub fn push(&self, item: T) -> Result<(), T> {
        let q = &*self.inner;
        let b = q.bottom.0.load(Ordering::Relaxed);
        // (4) acquire: pairs with the thieves' CAS on `top`.
        let t = q.top.0.load(Ordering::Acquire);
        if b.wrapping_sub(t) as usize > q.mask {
            return Err(item);
        }
        q.slots[b as usize & q.mask].store(item.into_raw().as_ptr(), Ordering::Relaxed);
        // (1) publish the slot before the new bottom.
        fence(Ordering::Release);
        q.bottom.0.store(b.wrapping_add(1), Ordering::Relaxed);
        Ok(())
    }

    /// Pops from the bottom (most recently pushed first).
    pub fn pop(&self) -> Option<T> {
        let q = &*self.inner;
        let b = q.bottom.0.load(Ordering::Relaxed).wrapping_sub(1);
        q.bottom.0.store(b, Ordering::Relaxed);
        // (2) the decrement of bottom is ordered before the read of top.
        fence(Ordering::SeqCst);
        let t = q.top.0.load(Ordering::Relaxed);
        let size = b.wrapping_sub(t);
        if size < 0 {
            q.bottom.0.store(b.wrapping_add(1), Ordering::Relaxed);
            return None;
        }
        let p = q.slots[b as usize & q.mask].load(Ordering::Relaxed);
        if size == 0 {
            // (3) last item: race the thieves for it.
            let won = q
                .top
                .0
                .compare_exchange(t, t.wrapping_add(1), Ordering::SeqCst, Ordering::Relaxed)
                .is_ok();
            q.bottom.0.store(b.wrapping_add(1), Ordering::Relaxed);
            if !won {
                return None;
            }
        }
        // SAFETY: index b is in [top, bottom) and we won it (size > 0: no
        // thief can reach it; size == 0: the CAS succeeded).
        Some(unsafe { T::from_raw(NonNull::new_unchecked(p)) })
    }

    /// Number of items (a snapshot).
    pub fn len(&self) -> usize {
        len(&self.inner)
    }

    /// Whether the deque looks empty (a snapshot).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A thief handle for this deque.
    pub fn stealer(&self) -> Stealer<T> {
        Stealer {
            inner: self.inner.clone(),
            _marker: PhantomData,
        }
    }
}

fn len(q: &Inner) -> usize {
    let b = q.bottom.0.load(Ordering::Relaxed);
    let t = q.top.0.load(Ordering::Relaxed);
    b.wrapping_sub(t).max(0) as usize
}

impl<T: RawItem> Stealer<T> {
    /// Takes the oldest item.
    pub fn steal(&self) -> Steal<T> {
        let q = &*self.inner;
        let t = q.top.0.load(Ordering::Acquire);
        // (2) the read of top is ordered before the read of bottom.
        fence(Ordering::SeqCst);
        // Acquire: with the owner's release fence (1), makes the slot visible.
        let b = q.bottom.0.load(Ordering::Acquire);
        if b.wrapping_sub(t) <= 0 {
            return Steal::Empty;
        }
        let p = q.slots[t as usize & q.mask].load(Ordering::Relaxed);
        // (3) claim index t.
        if q.top
            .0
            .compare_exchange(t, t.wrapping_add(1), Ordering::SeqCst, Ordering::Relaxed)
            .is_err()
        {
            return Steal::Retry;
        }
        // SAFETY: we won index t, which the owner had published (t < b).
        Steal::Success(unsafe { T::from_raw(NonNull::new_unchecked(p)) })
    }

    /// Whether the deque looks empty (a snapshot).
    pub fn is_empty(&self) -> bool {
        len(&self.inner) == 0
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn lifo_owner_fifo_thief_and_capacity() {
        let (w, s) = deque::<Box<u32>>(4);
        for i in 0..4 {
            w.push(Box::new(i)).unwrap();
        }
        assert_eq!(*w.push(Box::new(9)).unwrap_err(), 9);
        assert_eq!(w.len(), 4);
        assert_eq!(s.steal(), Steal::Success(Box::new(0)));
        assert_eq!(w.pop(), Some(Box::new(3)));
        assert_eq!(w.pop(), Some(Box::new(2)));
        assert_eq!(s.steal(), Steal::Success(Box::new(1)));
        assert_eq!(w.pop(), None);
        assert_eq!(s.steal(), Steal::Empty);
        // Wrap around the ring several times.
        for round in 0..10u32 {
            for i in 0..3 {
                w.push(Box::new(round * 10 + i)).unwrap();
            }
            assert_eq!(s.steal(), Steal::Success(Box::new(round * 10)));
            assert_eq!(w.pop(), Some(Box::new(round * 10 + 2)));
            assert_eq!(w.pop(), Some(Box::new(round * 10 + 1)));
        }
        assert!(w.is_empty() && s.is_empty());
    }

    #[test]
    fn leftover_items_are_dropped() {
        let marker = Arc::new(());
        let (w, s) = deque::<Box<Arc<()>>>(8);
        for _ in 0..5 {
            w.push(Box::new(marker.clone())).unwrap();
        }
        drop(w.pop());
        drop(w);
        assert_eq!(Arc::strong_count(&marker), 5);
        drop(s);
        assert_eq!(Arc::strong_count(&marker), 1);
    }

    #[test]
    fn concurrent_steal_takes_each_item_once() {
        use std::sync::atomic::AtomicUsize;
        const N: usize = 20_000;
        let (w, s) = deque::<Box<usize>>(256);
        let sum = Arc::new(AtomicUsize::new(0));
        let count = Arc::new(AtomicUsize::new(0));
        let thieves: Vec<_> = (0..2)
            .map(|_| {
                let (s, sum, count) = (s.clone(), sum.clone(), count.clone());
                std::thread::spawn(move || {
                    while count.load(Ordering::Relaxed) < N {
                        if let Steal::Success(v) = s.steal() {
                            sum.fetch_add(*v, Ordering::Relaxed);
                            count.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        let mut i = 0;
        while i < N {
            match w.push(Box::new(i)) {
                Ok(()) => i += 1,
                Err(_) => {
                    if let Some(v) = w.pop() {
                        sum.fetch_add(*v, Ordering::Relaxed);
                        count.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }
        while let Some(v) = w.pop() {
            sum.fetch_add(*v, Ordering::Relaxed);
            count.fetch_add(1, Ordering::Relaxed);
        }
        for t in thieves {
            t.join().unwrap();
        }
        assert_eq!(count.load(Ordering::Relaxed), N);
        assert_eq!(sum.load(Ordering::Relaxed), N * (N - 1) / 2);
    }
}
