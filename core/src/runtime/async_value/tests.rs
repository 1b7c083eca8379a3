//! Unit tests: the cases of TFRT's `async_value_test.cc` and more.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::*;

/// A payload that records its drop.
struct Payload {
    value: i32,
    drops: Arc<AtomicUsize>,
}

impl Drop for Payload {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

fn flag() -> (Arc<AtomicUsize>, impl FnOnce() + Send + 'static) {
    let n = Arc::new(AtomicUsize::new(0));
    let m = n.clone();
    (n, move || {
        m.fetch_add(1, Ordering::SeqCst);
    })
}

#[test]
fn constructed_to_error() {
    let v = AsyncValue::constructed(123i32);
    let (ran, cb) = flag();
    assert!(!v.is_concrete() && !v.is_available());
    assert_eq!(v.state(), AsyncState::Constructed);
    v.and_then(cb);
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    v.set_error("test error");
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert!(v.is_available() && !v.is_concrete() && v.is_error());
    assert_eq!(v.error_diagnostic().unwrap().message, "test error");
    assert!(matches!(v.get::<i32>(), Err(GetError::Error(d)) if d.message == "test error"));
}

#[test]
fn constructed_to_concrete() {
    let v = AsyncValue::constructed(123i32);
    let (ran, cb) = flag();
    v.and_then(cb);
    assert_eq!(v.get::<i32>(), Err(GetError::Unavailable));
    v.set_state_concrete();
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert!(v.is_available() && v.is_concrete() && !v.is_error());
    assert_eq!(v.get::<i32>(), Ok(&123));
    assert_eq!(v.try_set_state_concrete(), Err(SetError::AlreadySet));
}

#[test]
fn unconstructed_emplace() {
    let v = AsyncValueRef::<i32>::unconstructed();
    let (ran, cb) = flag();
    assert_eq!(v.state(), AsyncState::Unconstructed);
    assert_eq!(v.try_set_state_concrete(), Err(SetError::NotConstructed));
    v.and_then(cb);
    v.emplace(123);
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert_eq!(v.get(), Ok(&123));
    let again = v.try_emplace(5).unwrap_err();
    assert_eq!((again.value, again.reason), (5, SetError::AlreadySet));
}

#[test]
fn add_and_drop_refs() {
    let v = AsyncValue::available(123i32);
    assert_eq!(v.ref_count(), 1);
    let w = v.clone();
    let x = w.clone();
    assert_eq!(v.ref_count(), 3);
    assert!(AsyncValue::ptr_eq(&v, &x));
    drop(w);
    drop(x);
    assert_eq!(v.ref_count(), 1);
    assert_eq!(v.get::<i32>(), Ok(&123));
}

#[test]
fn payload_dropped_exactly_once() {
    let drops = Arc::new(AtomicUsize::new(0));
    let v = AsyncValueRef::available(Payload {
        value: 7,
        drops: drops.clone(),
    });
    let w = v.clone();
    drop(v);
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    assert_eq!(w.get().unwrap().value, 7);
    drop(w);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    // Unconstructed values drop nothing; constructed ones drop their payload.
    drop(AsyncValueRef::<Payload>::unconstructed());
    drop(AsyncValueRef::constructed(Payload {
        value: 1,
        drops: drops.clone(),
    }));
    assert_eq!(drops.load(Ordering::SeqCst), 2);
    // Emplace over a constructed payload replaces (drops) it.
    let v = AsyncValueRef::constructed(Payload {
        value: 1,
        drops: drops.clone(),
    });
    v.emplace(Payload {
        value: 2,
        drops: drops.clone(),
    });
    assert_eq!(drops.load(Ordering::SeqCst), 3);
    assert_eq!(v.get().unwrap().value, 2);
    drop(v);
    assert_eq!(drops.load(Ordering::SeqCst), 4);
}

/// Values remember whether they were counted, whichever way they are
/// destroyed: uncounting only those keeps the sum exact when counting
/// starts while values are alive.
#[test]
fn values_record_whether_they_were_counted() {
    // Counting goes off only while the values below are made; another test
    // making values meanwhile leaves them uncounted, which only ever hides
    // a leak from a concurrent count, never reports a false one.
    let _serial = crate::exec::tests::LEAK_CHECK
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let drops = Arc::new(AtomicUsize::new(0));
    let payload = |value| Payload {
        value,
        drops: drops.clone(),
    };
    live::stop_tracking();
    let uncounted = [
        AsyncValue::available(payload(1)),
        AsyncValue::constructed(payload(2)),
        AsyncValue::error("error"),
    ];
    track_live_async_values();
    let counted = [
        AsyncValue::available(payload(3)),
        AsyncValue::constructed(payload(4)),
        AsyncValue::error("error"),
    ];
    assert!(live_async_values_tracked());
    assert!(uncounted.iter().all(|v| !v.header().counted));
    assert!(counted.iter().all(|v| v.header().counted));
    // The constructed ones end as errors: the other destruction path.
    uncounted[1].set_error("error");
    counted[1].set_error("error");
    assert_eq!(drops.load(Ordering::SeqCst), 2);
    drop(uncounted);
    drop(counted);
    assert_eq!(drops.load(Ordering::SeqCst), 4);
}

#[test]
fn error_drops_payload_by_default() {
    let drops = Arc::new(AtomicUsize::new(0));
    let v = AsyncValueRef::constructed(Payload {
        value: 1,
        drops: drops.clone(),
    });
    v.set_error("error");
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    assert!(v.kept_payload().is_none());
    drop(v);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn keep_payload_on_error() {
    let drops = Arc::new(AtomicUsize::new(0));
    {
        let v = AsyncValueRef::constructed_keep_payload_on_error(Payload {
            value: 1,
            drops: drops.clone(),
        });
        v.set_state_concrete();
        assert_eq!(v.get().unwrap().value, 1);
        assert!(!v.is_error());
    }
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    {
        let v = AsyncValueRef::constructed_keep_payload_on_error(Payload {
            value: 1,
            drops: drops.clone(),
        });
        v.set_error("error");
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(v.kept_payload().unwrap().value, 1);
        assert!(v.is_error());
        assert_eq!(v.error_diagnostic().unwrap().message, "error");
        assert!(matches!(v.get(), Err(GetError::Error(_))));
    }
    assert_eq!(drops.load(Ordering::SeqCst), 2);
}

#[test]
fn type_mismatch_is_an_error() {
    let v = AsyncValue::available(1u32);
    match v.get::<i64>() {
        Err(GetError::TypeMismatch { expected, actual }) => {
            assert_eq!((expected, actual), ("i64", "u32"));
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(v.is_type::<u32>() && !v.is_type::<i64>());
    let u = AsyncValue::unconstructed::<u32>();
    let r = u.try_emplace(1i64).unwrap_err();
    assert_eq!(
        r.reason,
        SetError::TypeMismatch {
            expected: "u32",
            actual: "i64"
        }
    );
    assert!(u.is_unavailable());
    assert!(v.clone().downcast::<u32>().is_ok());
    assert!(v.downcast::<i64>().is_err());
    assert_eq!(
        GetError::TypeMismatch {
            expected: "i64",
            actual: "u32"
        }
        .to_string(),
        "async value type mismatch: expected 'i64', found 'u32'"
    );
}

#[test]
fn error_values() {
    let e = AsyncValue::error(
        Diagnostic::new("boom")
            .with_code(ErrorCode::Internal)
            .with_location("f.mlir", 1, 2),
    );
    assert_eq!(e.kind(), AsyncValueKind::Error);
    assert!(e.is_error() && e.is_available());
    let d = e.error_diagnostic().unwrap();
    assert_eq!(
        (d.code, d.location.as_ref().unwrap().line),
        (ErrorCode::Internal, 1)
    );
    assert_eq!(
        e.try_set_error("again").unwrap_err().reason,
        SetError::AlreadySet
    );
    assert_eq!(e.try_emplace(1).unwrap_err().reason, SetError::AlreadySet);
    let (ran, cb) = flag();
    e.and_then(cb);
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    let typed = AsyncValueRef::<i32>::error("typed");
    assert!(matches!(typed.get(), Err(GetError::Error(d)) if d.message == "typed"));
}

#[test]
fn indirect_forward_to_available() {
    let i = AsyncValue::indirect();
    let (ran, cb) = flag();
    i.and_then(cb);
    assert_eq!(i.kind(), AsyncValueKind::Indirect);
    assert!(i.is_unavailable());
    let target = AsyncValue::available(42i32);
    i.forward_to(target.clone());
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert!(i.is_concrete());
    assert_eq!(i.get::<i32>(), Ok(&42));
    assert!(i.is_type::<i32>());
    assert_eq!(target.ref_count(), 2);
    drop(i);
    assert_eq!(target.ref_count(), 1);
}

#[test]
fn indirect_forward_to_unavailable() {
    let i = AsyncValue::indirect();
    let target = AsyncValueRef::<i32>::unconstructed();
    i.forward_to(target.clone().into_untyped());
    let (ran, cb) = flag();
    i.and_then(cb);
    assert!(i.is_unavailable());
    assert_eq!(
        i.try_forward_to(AsyncValue::available(1))
            .unwrap_err()
            .reason,
        SetError::AlreadySet
    );
    target.emplace(9);
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert_eq!(i.get::<i32>(), Ok(&9));
}

#[test]
fn indirect_forward_to_indirect_collapses() {
    let a = AsyncValue::indirect();
    let b = AsyncValue::indirect();
    let c = AsyncValue::indirect();
    a.forward_to(b.clone());
    b.forward_to(c.clone());
    let concrete = AsyncValue::available(String::from("x"));
    c.forward_to(concrete.clone());
    for v in [&a, &b, &c] {
        assert_eq!(v.get::<String>().map(String::as_str), Ok("x"));
    }
    // a and b point straight at the concrete value (the chain collapsed):
    // it is referenced by `concrete`, a, b and c.
    assert_eq!(concrete.ref_count(), 4);
    assert_eq!(c.ref_count(), 1);
    drop((a, b, c));
    assert_eq!(concrete.ref_count(), 1);
}

#[test]
fn indirect_forward_to_available_indirect() {
    let inner = AsyncValue::indirect();
    inner.forward_to(AsyncValue::available(5u8));
    let outer = AsyncValue::indirect();
    outer.forward_to(inner.clone());
    assert_eq!(outer.get::<u8>(), Ok(&5));
    assert_eq!(inner.ref_count(), 1);
}

#[test]
fn indirect_forward_to_error() {
    let i = AsyncValue::indirect();
    let (ran, cb) = flag();
    i.and_then(cb);
    i.forward_to(AsyncValue::error("bad"));
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert!(i.is_error());
    assert_eq!(i.error_diagnostic().unwrap().message, "bad");
    // set_error on an indirect value forwards it to a new error value.
    let j = AsyncValue::indirect();
    j.set_error("direct");
    assert_eq!(j.error_diagnostic().unwrap().message, "direct");
    // Forwarding to a value that later fails.
    let k = AsyncValue::indirect();
    let t = AsyncValue::constructed(1i32);
    k.forward_to(t.clone());
    t.set_error("late");
    assert_eq!(k.error_diagnostic().unwrap().message, "late");
}

#[test]
fn indirect_type_checks_and_self_forward() {
    let typed = AsyncValueRef::<i32>::indirect();
    typed.forward_to(AsyncValue::available(1u8));
    assert!(typed.is_error());
    assert!(
        typed
            .error_diagnostic()
            .unwrap()
            .message
            .contains("forwarded to a value of type 'u8'")
    );
    let typed = AsyncValueRef::<i32>::indirect();
    assert_eq!(typed.try_emplace(3).map_err(|r| r.reason), Ok(()));
    assert_eq!(typed.get(), Ok(&3));
    let me = AsyncValue::indirect();
    me.forward_to(me.clone());
    assert!(me.is_error());
    assert_eq!(me.ref_count(), 1);
    let not_indirect = AsyncValue::unconstructed::<i32>();
    assert_eq!(
        not_indirect
            .try_forward_to(AsyncValue::available(1))
            .unwrap_err()
            .reason,
        SetError::NotIndirect
    );
}

#[test]
fn forward_to_dropped_target_leaves_indirect_unresolved() {
    let i = AsyncValue::indirect();
    let target = AsyncValue::unconstructed::<i32>();
    i.forward_to(target);
    // The only reference to the target was the argument: it is gone, the
    // pending forward is dropped and the indirect value is not kept alive.
    assert!(i.is_unavailable());
    assert_eq!(i.ref_count(), 1);
}

#[test]
fn waiters_added_before_and_after_availability() {
    let v = AsyncValueRef::<i32>::unconstructed();
    let log = Arc::new(Mutex::new(Vec::new()));
    for i in 0..3 {
        let (l, w) = (log.clone(), v.clone());
        v.and_then(move || l.lock().unwrap().push((i, *w.get().unwrap())));
    }
    assert!(log.lock().unwrap().is_empty());
    v.emplace(7);
    let l = log.clone();
    v.and_then(move || l.lock().unwrap().push((3, 0)));
    // Waiters run in the order they were added; a late waiter runs at once.
    assert_eq!(*log.lock().unwrap(), [(0, 7), (1, 7), (2, 7), (3, 0)]);
}

#[test]
fn waiter_ordering_with_many_waiters() {
    let v = AsyncValue::unconstructed::<()>();
    let log = Arc::new(Mutex::new(Vec::new()));
    for i in 0..100 {
        let l = log.clone();
        v.and_then(move || l.lock().unwrap().push(i));
    }
    v.emplace(());
    assert_eq!(*log.lock().unwrap(), (0..100).collect::<Vec<_>>());
}

#[test]
fn waiters_of_a_value_dropped_unavailable_are_dropped() {
    let token = Arc::new(());
    let v = AsyncValue::unconstructed::<i32>();
    let t = token.clone();
    v.and_then(move || panic!("must not run {t:?}"));
    assert_eq!(Arc::strong_count(&token), 2);
    drop(v);
    assert_eq!(Arc::strong_count(&token), 1);
}

#[test]
fn panicking_waiter_drops_the_rest() {
    let token = Arc::new(());
    let v = AsyncValue::unconstructed::<i32>();
    v.and_then(|| panic!("waiter panic"));
    let t = token.clone();
    v.and_then(move || drop(t));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| v.emplace(1)));
    assert!(r.is_err());
    assert_eq!(Arc::strong_count(&token), 1);
    assert_eq!(v.get::<i32>(), Ok(&1));
}

#[test]
fn set_from_another_thread() {
    let v = AsyncValueRef::<u64>::unconstructed();
    let seen = Arc::new(AtomicUsize::new(0));
    let (s, w) = (seen.clone(), v.clone());
    v.and_then(move || s.store(*w.get().unwrap() as usize, Ordering::SeqCst));
    let w = v.clone();
    std::thread::spawn(move || w.emplace(99)).join().unwrap();
    assert_eq!(seen.load(Ordering::SeqCst), 99);
}

#[test]
fn handles_are_one_pointer() {
    assert_eq!(
        std::mem::size_of::<AsyncValue>(),
        std::mem::size_of::<usize>()
    );
    assert_eq!(
        std::mem::size_of::<Option<AsyncValueRef<u8>>>(),
        std::mem::size_of::<usize>()
    );
    let v = AsyncValue::available(1u8);
    assert!(format!("{v:?}").contains("Concrete"));
}

#[test]
#[should_panic(expected = "AsyncValue::emplace: async value is already available")]
fn double_emplace_panics() {
    let v = AsyncValue::available(1i32);
    v.emplace(2i32);
}

#[test]
fn waiter_order_with_large_and_small_closures() {
    // A closure too large for the inline slot, then small ones: the small
    // ones must not overtake it (the inline slot's callback runs first).
    let v = AsyncValue::unconstructed::<()>();
    let log = Arc::new(Mutex::new(Vec::new()));
    let (l, big) = (log.clone(), [7u64; 4]);
    v.and_then(move || l.lock().unwrap().push(big[0] as usize));
    for i in 0..3 {
        let l = log.clone();
        v.and_then(move || l.lock().unwrap().push(i));
    }
    v.emplace(());
    assert_eq!(*log.lock().unwrap(), [7, 0, 1, 2]);
}

#[test]
fn small_closure_in_the_inline_slot_then_heap_nodes() {
    let v = AsyncValueRef::<u32>::unconstructed();
    let log = Arc::new(Mutex::new(Vec::new()));
    let (l, w) = (log.clone(), v.clone());
    // Two pointers: the inline slot.
    v.and_then(move || l.lock().unwrap().push(*w.get().unwrap()));
    let (l, w, big) = (log.clone(), v.clone(), [1u32; 9]);
    v.and_then(move || l.lock().unwrap().push(*w.get().unwrap() + big[8]));
    let l = log.clone();
    v.and_then(move || l.lock().unwrap().push(0));
    assert!(log.lock().unwrap().is_empty());
    v.emplace(10);
    assert_eq!(*log.lock().unwrap(), [10, 11, 0]);
    // The handles captured by the callbacks were released.
    assert_eq!(v.ref_count(), 1);
}

#[test]
fn small_values_fit_one_cache_line() {
    assert!(std::mem::size_of::<header::Inner<u64>>() <= 64);
    for _ in 0..10 {
        let v = AsyncValueRef::available(1u64);
        assert_eq!(v.as_untyped().ptr.as_ptr() as usize % 64, 0);
    }
}

/// A chain of indirect values, each forwarded to the next, resolves one
/// level per nested waiter call when its last value becomes available. A
/// chain far longer than the stack allows (a deep recursion returning
/// through `tfrt.call`s makes one) continues on fresh stack segments.
#[cfg(not(loom))]
#[test]
fn a_long_forwarding_chain_resolves_without_overflowing_the_stack() {
    const LINKS: usize = 200_000;
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let first = AsyncValue::indirect();
            let mut last = first.clone();
            for _ in 0..LINKS {
                let next = AsyncValue::indirect();
                last.forward_to(next.clone());
                last = next;
            }
            let value = AsyncValue::unconstructed::<i32>();
            last.forward_to(value.clone());
            drop(last);
            let (ran, cb) = flag();
            first.and_then(cb);
            value.emplace(42i32);
            assert_eq!(ran.load(Ordering::SeqCst), 1);
            *first.get::<i32>().expect("resolved")
        })
        .expect("thread starts");
    assert_eq!(worker.join().expect("no overflow"), 42);
}
