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
//! WEAKENED-ORDERING EXPERIMENTS (each done once, by hand, then reverted;
//! every model run on its own, since loom aborts the process after the
//! first failure):
//! * `and_then`'s `INLINE_READY` CAS `Release` -> `Relaxed` (`publish_inline`
//!   in async_value/mod.rs): `set_vs_and_then`, `forward_to_vs_and_then`
//!   and `inline_slot_claim_vs_set` fail with "Causality violation:
//!   Concurrent read and write accesses." at waiters.rs `consume_inline`
//!   (the setter reads the inline slot's closure, written by the `and_then`
//!   thread without happens-before). `drop_unavailable_with_waiters` still
//!   passes, as it should: destruction is ordered by the reference count.
//! * `and_then`'s heap-node push CAS `Release` -> `Relaxed` (`push_node`):
//!   `set_error_vs_two_waiters`, `forward_to_vs_and_then`,
//!   `inline_slot_claim_vs_set` and `large_then_small_waiter_keep_order_vs_set`
//!   fail with the same causality violation at waiters.rs `next_of` (the
//!   setter reads a node's `next` that the pushing thread wrote without
//!   happens-before).
//! * the store of `inline_taken = true` by an `and_then` whose closure does
//!   not fit the inline slot, removed: `large_then_small_waiter_keep_order_vs_set`
//!   fails (left: (1, ThreadId(1)), right: (3, ThreadId(1))): the later,
//!   small callback took the inline slot and the setter ran it first.
//! * `drop_ref`'s decrement `Release` -> `Relaxed` (async_value/header.rs):
//!   `concurrent_drop_of_last_refs` fails with "Causality violation:
//!   Concurrent read and write accesses to `UnsafeCell`" at `destroy`'s
//!   `drop_payload` (the payload is dropped while another thread's `get`
//!   read is not ordered before it); `drop_unavailable_with_waiters` fails
//!   with a leaked callback (left: 1, right: 2): the destroying thread's
//!   load of the state word missed the other thread's waiter.
//! * the deque's `pop` fence `SeqCst` -> `AcqRel` (work_queue/deque.rs):
//!   `deque_push_pop_steal` fails with "an item was taken twice" (left: 2,
//!   right: 0): owner and thief both took item 2, the store-load reordering
//!   the SeqCst fence forbids.
//! * the executor's `sole_holder` test `strong_count == 1` -> `<= 2`
//!   (exec/executor.rs: the exclusive shortcut taken while a continuation
//!   still holds the execution): `executor_exclusive_shortcut` fails with
//!   "exactly one last use" (left: 0, right: 1): the plain store of the
//!   shortcut overwrote the continuation's decrement.
//!
//! The claim of the inline slot (`inline_taken.swap(true, Relaxed)`) needs
//! no ordering: only one thread can win it, and what it writes reaches the
//! setter through the `INLINE_READY` CAS above.
//!
//! Closures capturing a loom `Arc` (16 bytes) plus anything else do not fit
//! the inline slot (16 bytes): the models choose their captures to cover
//! both the inline slot and heap nodes, as each one's comment says.
//!
//! With the orderings as committed, all nine models pass (about 8 s).

#![cfg(loom)]

use std::sync::atomic::AtomicUsize as StdAtomicUsize;

use std::ptr::NonNull;

use bef::exec::loom_hooks::{count_down, sole_holder};
use bef::runtime::work_queue::deque::{RawItem, Steal, deque};
use bef::runtime::{AsyncValue, AsyncValueRef};
use loom::cell::UnsafeCell;
use loom::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use loom::sync::{Arc, Mutex};
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

/// A drop-counting token of 16 bytes (a loom `Arc`), small enough for the
/// inline callback slot when captured alone.
struct Token(Arc<AtomicUsize>);
impl Drop for Token {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// One thread sets the value while another adds a callback: the callback
/// runs exactly once, on whichever thread comes second, and sees the payload.
/// The callback captures two pointers, so it goes into the inline slot (see
/// [`inline_slot_claim_vs_set`]); `set_error_vs_two_waiters` covers heap
/// nodes. It reports by setting `done` (a second set would panic).
#[test]
fn set_vs_and_then() {
    model(|| {
        let v = AsyncValueRef::<u32>::unconstructed();
        let done = AsyncValueRef::<u32>::unconstructed();
        let setter = {
            let v = v.clone();
            thread::spawn(move || v.emplace(42))
        };
        let (d, w) = (done.clone(), v.clone());
        v.and_then(move || d.emplace(*w.get().unwrap()));
        setter.join().unwrap();
        assert_eq!(done.get(), Ok(&42));
        assert_eq!(v.get(), Ok(&42));
    });
}

/// Two callbacks from two threads racing with set_error. Both capture a
/// loom `Arc` (16 bytes) and a handle: too large for the inline slot, so
/// these are heap nodes.
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

/// The inline callback slot: two threads race to claim it (one gets it, the
/// other falls back to a heap node) while a third sets the value. Both
/// callbacks (two pointers each, so both fit) run exactly once and see the
/// payload.
#[test]
fn inline_slot_claim_vs_set() {
    model(|| {
        let v = AsyncValueRef::<u32>::unconstructed();
        let done = [(); 2].map(|_| AsyncValueRef::<u32>::unconstructed());
        let setter = {
            let v = v.clone();
            thread::spawn(move || v.emplace(3))
        };
        let waiter = {
            let (v, d) = (v.clone(), done[0].clone());
            thread::spawn(move || {
                let w = v.clone();
                v.and_then(move || d.emplace(*w.get().unwrap()));
            })
        };
        let (d, w) = (done[1].clone(), v.clone());
        v.and_then(move || d.emplace(*w.get().unwrap() + 1));
        setter.join().unwrap();
        waiter.join().unwrap();
        assert_eq!(done[0].get(), Ok(&3));
        assert_eq!(done[1].get(), Ok(&4));
    });
}

/// A callback too large for the inline slot (heap node), then a small one,
/// racing with the setter. If the small one is still pending when the value
/// becomes available, so is the large one, and the setter runs the large one
/// first (the small one must not have taken the inline slot, which runs
/// first). A callback added after availability runs at once on its own
/// thread, unordered with the setter's (as before the inline slot).
#[test]
fn large_then_small_waiter_keep_order_vs_set() {
    model(|| {
        let v = AsyncValueRef::<u32>::unconstructed();
        let log = Arc::new(Mutex::new(Vec::new()));
        let setter = {
            let v = v.clone();
            thread::spawn(move || v.emplace(1))
        };
        let (l, pad) = (log.clone(), [1usize, 2, 3]);
        v.and_then(move || {
            let pad = pad;
            l.lock().unwrap().push((pad.len(), thread::current().id()));
        });
        let l = log.clone();
        v.and_then(move || l.lock().unwrap().push((1, thread::current().id())));
        let setter_id = setter.thread().id();
        setter.join().unwrap();
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 2);
        if log.iter().any(|&(n, t)| n == 1 && t == setter_id) {
            assert_eq!(log[0], (3, setter_id), "{log:?}");
        }
    });
}

/// A value dropped while unavailable, from two threads, with an inline and
/// a heap callback: neither runs, each closure is dropped exactly once (the
/// counted payloads), and the block is freed.
#[test]
fn drop_unavailable_with_waiters() {
    model(|| {
        let drops = Arc::new(AtomicUsize::new(0));
        let v = AsyncValueRef::<u32>::unconstructed();
        let other = {
            let (v, t) = (v.clone(), Token(drops.clone()));
            thread::spawn(move || {
                // 16 bytes: fits in the inline slot (if it is still free).
                v.and_then(move || {
                    let t = t;
                    panic!("ran {:p}", &t)
                });
                drop(v);
            })
        };
        let (c, pad) = (Counted(drops.clone(), 1), [0usize; 3]);
        // 48 bytes: a heap node.
        v.and_then(move || {
            let (c, pad) = (c, pad);
            panic!("ran {} {pad:?}", c.1)
        });
        drop(v);
        other.join().unwrap();
        assert_eq!(drops.load(Ordering::Relaxed), 2);
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

/// The executor's exclusive shortcut (`bef::exec::loom_hooks`, the real
/// `count_down` and `sole_holder`): while the running thread holds an
/// execution alone it updates the use and ready counters with a plain load
/// and store instead of a read-modify-write. Here a continuation on another
/// thread holds a clone of the execution (a loom `Arc`, as the executor's
/// continuations hold its `Arc`) while it reads a register and records its
/// use, then lets go; the running thread re-checks before each of its two
/// uses, as the processing loop does. Every use must be counted once,
/// exactly one must see the count reach zero (a lost update leaves it
/// above zero or lets two uses see zero), and the last use's release of
/// the register must come after every other use's read (the `UnsafeCell`
/// accesses loom checks).
///
/// loom's `Arc::strong_count` synchronizes with the other holders' drops by
/// itself (std's is a relaxed load), so this model checks the decision and
/// the counting, not the acquire fence in `sole_holder`.
#[test]
fn executor_exclusive_shortcut() {
    struct Execution {
        remaining: AtomicU32,
        register: UnsafeCell<u32>,
    }

    /// One use: read the register, record the use; the last use releases
    /// the register (zeroes it). True for the last use.
    fn use_register(exec: &Arc<Execution>) -> bool {
        // SAFETY: a use reads the register before recording itself, and
        // only the last use (after every other's record) writes it.
        let value = exec.register.with(|p| unsafe { *p });
        assert_eq!(value, 7, "read after the release");
        let last = count_down(&exec.remaining, sole_holder(exec));
        if last {
            // SAFETY: every other use was recorded before this last one.
            exec.register.with_mut(|p| unsafe { *p = 0 });
        }
        last
    }

    model(|| {
        let exec = Arc::new(Execution {
            remaining: AtomicU32::new(3),
            register: UnsafeCell::new(7),
        });
        let continuation = {
            let exec = exec.clone();
            thread::spawn(move || use_register(&exec))
        };
        let mut last_uses = 0;
        for _ in 0..2 {
            last_uses += usize::from(use_register(&exec));
        }
        last_uses += usize::from(continuation.join().unwrap());
        // (The count itself may end at 1: a use that loads 1 knows it is
        // the last and skips the decrement.)
        assert_eq!(last_uses, 1, "exactly one last use");
    });
}

/// Keeps the std atomic import used in both cfgs of this file.
#[allow(dead_code)]
static UNUSED: StdAtomicUsize = StdAtomicUsize::new(0);
