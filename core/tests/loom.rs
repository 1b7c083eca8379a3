//! loom models of the runtime's lock-free code.
//!
//! Run with (a separate target dir keeps the normal build cache intact):
//!
//! ```text
//! CARGO_TARGET_DIR=target/loom RUSTFLAGS="--cfg loom" \
//!     cargo test -p bef --release --test loom
//! ```
//!
//! The runtime takes its atomics, `UnsafeCell`s and raw allocation from
//! `bef::runtime::sync`, which re-exports loom's under `cfg(loom)`, so these
//! models check the real code: loom explores the interleavings and weak-
//! memory reorderings, reports a data race on any `UnsafeCell` access not
//! ordered by happens-before ("Causality violation"), and reports leaked
//! allocations of AsyncValue blocks.
//!
//! WEAKENED-ORDERING EXPERIMENT (done once, by hand, then reverted):
//! * `and_then`'s push CAS `Release` -> `Relaxed` (async_value/mod.rs):
//!   `set_vs_and_then`, `set_error_vs_two_waiters` and
//!   `forward_to_vs_and_then` all fail with "Causality violation: Concurrent
//!   read and write accesses." at waiters.rs `next_of` (the setter reads a
//!   node's `next` that the pushing thread wrote without happens-before).
//! * `drop_ref`'s decrement `Release` -> `Relaxed` (async_value/header.rs):
//!   `concurrent_drop_of_last_refs` fails with "Causality violation:
//!   Concurrent read and write accesses to `UnsafeCell`" at `destroy`'s
//!   `drop_payload` (the payload is dropped while another thread's `get`
//!   read is not ordered before it).
//! * the deque's `pop` fence `SeqCst` -> `AcqRel` (work_queue/deque.rs):
//!   `deque_push_pop_steal` fails with "an item was taken twice" (left: 2,
//!   right: 0): owner and thief both took item 2, the store-load reordering
//!   the SeqCst fence forbids.
//!
//! With the orderings as committed, all five models pass (about 1 s).

#![cfg(loom)]

use std::sync::atomic::AtomicUsize as StdAtomicUsize;

use std::ptr::NonNull;

use bef::runtime::work_queue::deque::{RawItem, Steal, deque};
use bef::runtime::{AsyncValue, AsyncValueRef};
use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::thread;

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut b = loom::model::Builder::new();
    if b.preemption_bound.is_none() {
        b.preemption_bound = Some(3);
    }
    b.check(f);
}

/// A payload whose drop is counted, to catch double drops and leaks.
struct Counted(Arc<AtomicUsize>, u32);
impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// One thread sets the value while another adds a callback: the callback
/// runs exactly once, on whichever thread comes second, and sees the payload.
#[test]
fn set_vs_and_then() {
    model(|| {
        let v = AsyncValueRef::<u32>::unconstructed();
        let ran = Arc::new(AtomicUsize::new(0));
        let setter = {
            let v = v.clone();
            thread::spawn(move || v.emplace(42))
        };
        let (r, w) = (ran.clone(), v.clone());
        v.and_then(move || {
            assert_eq!(w.get(), Ok(&42));
            r.fetch_add(1, Ordering::Relaxed);
        });
        setter.join().unwrap();
        assert_eq!(ran.load(Ordering::Relaxed), 1);
        assert_eq!(v.get(), Ok(&42));
    });
}

/// Two callbacks from two threads racing with set_error.
#[test]
fn set_error_vs_two_waiters() {
    model(|| {
        let v = AsyncValue::constructed(7u32);
        let ran = Arc::new(AtomicUsize::new(0));
        let waiter = {
            let (v, r) = (v.clone(), ran.clone());
            thread::spawn(move || {
                let w = v.clone();
                v.and_then(move || {
                    assert!(w.is_error());
                    r.fetch_add(1, Ordering::Relaxed);
                });
            })
        };
        let (r, w) = (ran.clone(), v.clone());
        v.and_then(move || {
            assert_eq!(w.error_diagnostic().map(|d| d.message.as_str()), Some("e"));
            r.fetch_add(1, Ordering::Relaxed);
        });
        v.set_error("e");
        waiter.join().unwrap();
        assert_eq!(ran.load(Ordering::Relaxed), 2);
    });
}

/// Threads read the payload and drop their references concurrently: the
/// payload is dropped exactly once, after every read, and the block is freed
/// (loom reports a leaked allocation otherwise).
#[test]
fn concurrent_drop_of_last_refs() {
    model(|| {
        let drops = Arc::new(AtomicUsize::new(0));
        let v = AsyncValueRef::available(Counted(drops.clone(), 5));
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let v = v.clone();
                thread::spawn(move || {
                    assert_eq!(v.get().unwrap().1, 5);
                    drop(v);
                })
            })
            .collect();
        drop(v);
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(drops.load(Ordering::Relaxed), 1);
    });
}

/// forward_to racing with the target being set and with a callback on the
/// indirect value.
#[test]
fn forward_to_vs_and_then() {
    model(|| {
        let target = AsyncValueRef::<u32>::unconstructed();
        let ind = AsyncValue::indirect();
        let ran = Arc::new(AtomicUsize::new(0));
        let setter = {
            let t = target.clone();
            thread::spawn(move || t.emplace(9))
        };
        let forwarder = {
            let (i, t) = (ind.clone(), target.clone());
            thread::spawn(move || i.forward_to(t.into_untyped()))
        };
        let (r, w) = (ran.clone(), ind.clone());
        ind.and_then(move || {
            assert_eq!(w.get::<u32>(), Ok(&9));
            r.fetch_add(1, Ordering::Relaxed);
        });
        setter.join().unwrap();
        forwarder.join().unwrap();
        assert_eq!(ran.load(Ordering::Relaxed), 1);
        assert_eq!(ind.get::<u32>(), Ok(&9));
    });
}

/// A deque item that owns no memory (its number is the pointer), so that a
/// duplicated item shows up as a failed assertion rather than a double free.
#[derive(Debug)]
struct Item(usize);

impl RawItem for Item {
    fn into_raw(self) -> NonNull<()> {
        NonNull::new(std::ptr::without_provenance_mut(self.0 + 1)).unwrap()
    }
    unsafe fn from_raw(p: NonNull<()>) -> Self {
        Item(p.as_ptr() as usize - 1)
    }
}

/// The owner pushes and pops while a thief steals: every item is taken
/// exactly once (items are distinct bits: a duplicate or a loss changes the
/// sum or the union).
#[test]
fn deque_push_pop_steal() {
    model(|| {
        let (w, s) = deque::<Item>(2);
        let thief = thread::spawn(move || {
            let mut got = 0;
            for _ in 0..2 {
                if let Steal::Success(b) = s.steal() {
                    got += b.0;
                }
            }
            got
        });
        let mut pushed = 0;
        let mut mine = 0;
        for item in [1, 2] {
            w.push(Item(item)).unwrap();
            pushed += item;
        }
        if let Some(b) = w.pop() {
            mine += b.0;
        }
        // Reuse a slot freed by the pop or a steal (ring wrap-around).
        if w.push(Item(4)).is_ok() {
            pushed += 4;
        }
        let stolen = thief.join().unwrap();
        while let Some(b) = w.pop() {
            mine += b.0;
        }
        assert_eq!(mine & stolen, 0, "an item was taken twice");
        assert_eq!(mine + stolen, pushed, "an item was lost");
    });
}

/// Keeps the std atomic import used in both cfgs of this file.
#[allow(dead_code)]
static UNUSED: StdAtomicUsize = StdAtomicUsize::new(0);
