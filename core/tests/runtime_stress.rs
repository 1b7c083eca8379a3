//! Stress tests: many values resolved from many threads with concurrent
//! waiters; work queues under 100,000 tasks with nested spawning and
//! blocking tasks. Each test checks the reference balance with the global
//! live-value counter (tests in this binary hold `SERIAL` so their counts do
//! not mix).

#![cfg(not(loom))]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};

use bef::runtime::{
    AsyncValue, AsyncValueRef, ConcurrentWorkQueue, Task, create_work_queue, live_async_values,
    track_live_async_values,
};

static SERIAL: Mutex<()> = Mutex::new(());

/// Runs `f` and asserts that it leaves no AsyncValue alive.
fn balanced(f: impl FnOnce()) {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Counted in release builds too.
    track_live_async_values();
    let before = live_async_values();
    f();
    assert_eq!(live_async_values(), before, "AsyncValues leaked");
}

#[test]
fn thousands_of_values_resolved_from_many_threads() {
    balanced(|| {
        const N: usize = 4000;
        const SETTERS: usize = 4;
        const WAITERS: usize = 3;
        let values: Arc<Vec<AsyncValueRef<usize>>> =
            Arc::new((0..N).map(|_| AsyncValueRef::unconstructed()).collect());
        let indirects: Arc<Vec<AsyncValue>> =
            Arc::new((0..N).map(|_| AsyncValue::indirect()).collect());
        let ran = Arc::new(AtomicUsize::new(0));
        let bad = Arc::new(AtomicUsize::new(0));
        let start = Arc::new(Barrier::new(SETTERS + WAITERS + 1));
        let mut threads = Vec::new();
        for t in 0..SETTERS {
            let (values, start) = (values.clone(), start.clone());
            threads.push(std::thread::spawn(move || {
                start.wait();
                for i in (t..N).step_by(SETTERS) {
                    if i % 10 == 0 {
                        values[i].set_error(format!("e{i}"));
                    } else {
                        values[i].emplace(i);
                    }
                }
            }));
        }
        for w in 0..WAITERS {
            let (values, indirects, ran, bad, start) = (
                values.clone(),
                indirects.clone(),
                ran.clone(),
                bad.clone(),
                start.clone(),
            );
            threads.push(std::thread::spawn(move || {
                start.wait();
                for k in 0..N {
                    // Walk in different orders so waiters race with setters.
                    let i = if w % 2 == 0 { k } else { N - 1 - k };
                    let (v, ran, bad) = (values[i].clone(), ran.clone(), bad.clone());
                    values[i].and_then(move || {
                        let ok = match v.get() {
                            Ok(&x) => x == i && i % 10 != 0,
                            Err(_) => i % 10 == 0 && v.is_error(),
                        };
                        if !ok {
                            bad.fetch_add(1, Ordering::Relaxed);
                        }
                        ran.fetch_add(1, Ordering::Relaxed);
                    });
                    if w == 0 {
                        indirects[i].forward_to(values[i].clone().into_untyped());
                    }
                }
            }));
        }
        start.wait();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(ran.load(Ordering::Relaxed), N * WAITERS);
        assert_eq!(bad.load(Ordering::Relaxed), 0);
        for (i, ind) in indirects.iter().enumerate() {
            if i % 10 == 0 {
                assert!(ind.is_error());
            } else {
                assert_eq!(ind.get::<usize>(), Ok(&i));
            }
            assert_eq!(values[i].ref_count(), 2, "the value and its indirect");
        }
    });
}

#[test]
fn concurrent_clone_and_drop_keeps_counts_exact() {
    balanced(|| {
        let v = AsyncValueRef::available(vec![1u8; 16]);
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let v = v.clone();
                std::thread::spawn(move || {
                    for _ in 0..20_000 {
                        let w = v.clone();
                        assert_eq!(w.get().unwrap().len(), 16);
                        drop(w);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(v.ref_count(), 1);
    });
}

fn hammer_queue(q: Arc<dyn ConcurrentWorkQueue>, blocking: bool) {
    const ROOTS: usize = 100;
    const CHILDREN: usize = 999;
    let count = Arc::new(AtomicUsize::new(0));
    let blocking_count = Arc::new(AtomicUsize::new(0));
    let results: Vec<AsyncValueRef<usize>> =
        (0..ROOTS).map(|_| AsyncValueRef::unconstructed()).collect();
    for (r, result) in results.iter().enumerate() {
        let (q2, count, result, bc) = (
            q.clone(),
            count.clone(),
            result.clone(),
            blocking_count.clone(),
        );
        q.add_task(Task::new(move || {
            count.fetch_add(1, Ordering::Relaxed);
            // Each root spawns its children; the last child to finish
            // publishes the root's result.
            let left = Arc::new(AtomicUsize::new(CHILDREN));
            for _ in 0..CHILDREN {
                let (count, left, result) = (count.clone(), left.clone(), result.clone());
                q2.add_task(Task::new(move || {
                    count.fetch_add(1, Ordering::Relaxed);
                    if left.fetch_sub(1, Ordering::AcqRel) == 1 {
                        result.emplace(r);
                    }
                }));
            }
            if blocking && r % 10 == 0 {
                let refused = q2.add_blocking_task(
                    Task::new(move || {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                        bc.fetch_add(1, Ordering::Relaxed);
                    }),
                    true,
                );
                assert!(refused.is_none());
            }
        }));
    }
    let all: Vec<AsyncValue> = results.iter().map(|v| v.clone().into_untyped()).collect();
    q.await_values(&all);
    for (r, v) in results.iter().enumerate() {
        assert_eq!(v.get(), Ok(&r));
    }
    q.quiesce();
    assert_eq!(count.load(Ordering::Relaxed), ROOTS * (CHILDREN + 1));
    if blocking {
        assert_eq!(blocking_count.load(Ordering::Relaxed), ROOTS / 10);
    }
}

#[test]
fn multi_threaded_queue_100k_nested_and_blocking_tasks() {
    balanced(|| {
        for name in ["mstd:2,4", "mstd:4,1"] {
            let q: Arc<dyn ConcurrentWorkQueue> = Arc::from(create_work_queue(name).unwrap());
            hammer_queue(q, true);
        }
    });
}

#[test]
fn single_threaded_queue_100k_nested_tasks() {
    balanced(|| {
        let q: Arc<dyn ConcurrentWorkQueue> = Arc::from(create_work_queue("s").unwrap());
        hammer_queue(q, true);
    });
}

#[test]
fn tasks_submitted_from_many_threads_while_workers_park() {
    balanced(|| {
        let q: Arc<dyn ConcurrentWorkQueue> = Arc::from(create_work_queue("mstd:2,2").unwrap());
        let count = Arc::new(AtomicUsize::new(0));
        // Bursts separated by pauses make the workers park and be woken
        // again many times.
        let threads: Vec<_> = (0..3)
            .map(|_| {
                let (q, count) = (q.clone(), count.clone());
                std::thread::spawn(move || {
                    for burst in 0..50 {
                        for _ in 0..100 {
                            let c = count.clone();
                            q.add_task(Task::new(move || {
                                c.fetch_add(1, Ordering::Relaxed);
                            }));
                        }
                        if burst % 5 == 0 {
                            std::thread::sleep(std::time::Duration::from_millis(2));
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        q.quiesce();
        assert_eq!(count.load(Ordering::Relaxed), 3 * 50 * 100);
    });
}
