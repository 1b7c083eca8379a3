//! Work queue tests shared by both implementations.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::*;
use crate::runtime::async_value::AsyncValueRef;

fn queues() -> Vec<Box<dyn ConcurrentWorkQueue>> {
    ["s", "mstd:2", "mstd:3,2"]
        .iter()
        .map(|n| create_work_queue(n).unwrap())
        .collect()
}

#[test]
fn names_and_parallelism() {
    let q = create_work_queue("mstd:3,7").unwrap();
    assert_eq!(
        (q.name(), q.parallelism_level()),
        ("mstd:3,7".to_string(), 3)
    );
    let s = create_work_queue("s").unwrap();
    assert_eq!((s.name(), s.parallelism_level()), ("s".to_string(), 1));
    assert_eq!(
        create_work_queue("foo").err().unwrap().to_string(),
        "unknown work queue type 'foo' (expected 's', 'mstd', 'mstd:N' or 'mstd:N,M')"
    );
}

#[test]
fn tasks_run_and_quiesce_waits() {
    for q in queues() {
        let n = Arc::new(AtomicUsize::new(0));
        for _ in 0..1000 {
            let n = n.clone();
            q.add_task(Task::new(move || {
                n.fetch_add(1, Ordering::Relaxed);
            }));
        }
        q.quiesce();
        assert_eq!(n.load(Ordering::Relaxed), 1000, "{}", q.name());
        assert!(!q.is_in_worker_thread());
    }
}

#[test]
fn single_threaded_is_fifo_on_caller_thread() {
    let q = SingleThreadedWorkQueue::new();
    let log = Arc::new(std::sync::Mutex::new(Vec::new()));
    let me = std::thread::current().id();
    for i in 0..10 {
        let l = log.clone();
        q.add_task(Task::new(move || {
            assert_eq!(std::thread::current().id(), me);
            l.lock().unwrap().push(i);
        }));
    }
    assert!(log.lock().unwrap().is_empty());
    q.quiesce();
    assert_eq!(*log.lock().unwrap(), (0..10).collect::<Vec<_>>());
    // Without queuing, a blocking task is refused and handed back.
    let back = q.add_blocking_task(Task::new(|| {}), false);
    assert!(back.is_some());
    assert!(q.add_blocking_task(Task::new(|| {}), true).is_none());
    q.quiesce();
}

/// As the reference's `SingleThreadedWorkQueue`: `await_values` runs
/// queued tasks in order only until the values are available and leaves
/// the rest, ahead of tasks queued meanwhile, for the next wait.
#[test]
fn single_threaded_await_stops_once_available_and_keeps_the_order() {
    let q = Arc::new(SingleThreadedWorkQueue::new());
    let log = Arc::new(std::sync::Mutex::new(Vec::new()));
    let value = AsyncValueRef::<u32>::unconstructed();
    for i in 0..4 {
        let (l, v, q2) = (log.clone(), value.clone(), q.clone());
        q.add_task(Task::new(move || {
            l.lock().unwrap().push(i);
            if i == 1 {
                v.emplace(1);
                let l = l.clone();
                q2.add_task(Task::new(move || l.lock().unwrap().push(10)));
            }
        }));
    }
    q.await_values(&[value.clone().into_untyped()]);
    assert_eq!(*log.lock().unwrap(), [0, 1]);
    q.quiesce();
    assert_eq!(*log.lock().unwrap(), [0, 1, 2, 3, 10]);
}

#[test]
fn await_runs_tasks_until_values_available() {
    for q in queues() {
        let q: Arc<dyn ConcurrentWorkQueue> = Arc::from(q);
        let a = AsyncValueRef::<u32>::unconstructed();
        let b = AsyncValueRef::<u32>::unconstructed();
        let (a2, b2, q2) = (a.clone(), b.clone(), q.clone());
        q.add_task(Task::new(move || {
            a2.emplace(1);
            let b3 = b2.clone();
            q2.add_task(Task::new(move || b3.emplace(2)));
        }));
        q.await_values(&[a.clone().into_untyped(), b.clone().into_untyped()]);
        assert_eq!((a.get(), b.get()), (Ok(&1), Ok(&2)), "{}", q.name());
        q.quiesce();
    }
}

#[test]
fn await_values_set_by_foreign_thread() {
    for q in queues() {
        let v = AsyncValueRef::<u32>::unconstructed();
        let w = v.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            w.emplace(5);
        });
        q.await_values(&[v.clone().into_untyped()]);
        assert_eq!(v.get(), Ok(&5));
        t.join().unwrap();
    }
}

#[test]
fn blocking_tasks_and_refusal() {
    let q = MultiThreadedWorkQueue::new(1, 2);
    let gate = AsyncValueRef::<()>::unconstructed();
    let started = Arc::new(AtomicUsize::new(0));
    for _ in 0..2 {
        let (g, s) = (gate.clone(), started.clone());
        let r = q.add_blocking_task(
            Task::new(move || {
                s.fetch_add(1, Ordering::SeqCst);
                block_until_available(&[g.into_untyped()]);
            }),
            false,
        );
        assert!(r.is_none());
    }
    // Both blocking threads are busy: without queuing the task comes back,
    // with queuing it waits.
    assert!(q.add_blocking_task(Task::new(|| {}), false).is_some());
    let ran = Arc::new(AtomicUsize::new(0));
    let r2 = ran.clone();
    assert!(
        q.add_blocking_task(
            Task::new(move || {
                r2.fetch_add(1, Ordering::SeqCst);
            }),
            true
        )
        .is_none()
    );
    gate.emplace(());
    q.quiesce();
    assert_eq!(
        (started.load(Ordering::SeqCst), ran.load(Ordering::SeqCst)),
        (2, 1)
    );
}

#[test]
fn worker_threads_know_they_are_workers() {
    let q: Arc<dyn ConcurrentWorkQueue> = Arc::from(create_work_queue("mstd:2,2").unwrap());
    let other: Arc<dyn ConcurrentWorkQueue> = Arc::from(create_work_queue("mstd:1,1").unwrap());
    let v = AsyncValueRef::<(bool, bool, bool)>::unconstructed();
    let (w, q2, o2) = (v.clone(), q.clone(), other.clone());
    q.add_task(Task::new(move || {
        w.emplace((q2.is_in_worker_thread(), o2.is_in_worker_thread(), false))
    }));
    q.await_values(&[v.clone().into_untyped()]);
    assert_eq!(v.get(), Ok(&(true, false, false)));
    let b = AsyncValueRef::<bool>::unconstructed();
    let (w, q3) = (b.clone(), q.clone());
    assert!(
        q.add_blocking_task(Task::new(move || w.emplace(q3.is_in_worker_thread())), true)
            .is_none()
    );
    q.await_values(&[b.clone().into_untyped()]);
    assert_eq!(b.get(), Ok(&true));
    q.quiesce();
}

#[test]
fn await_inside_a_worker_helps_instead_of_deadlocking() {
    // One compute thread: the outer task awaits a value produced by a task
    // queued behind it.
    let q: Arc<dyn ConcurrentWorkQueue> = Arc::from(create_work_queue("mstd:1,1").unwrap());
    let done = AsyncValueRef::<u32>::unconstructed();
    let (q2, d2) = (q.clone(), done.clone());
    q.add_task(Task::new(move || {
        let inner = AsyncValueRef::<u32>::unconstructed();
        let i2 = inner.clone();
        q2.add_task(Task::new(move || i2.emplace(41)));
        q2.await_values(&[inner.clone().into_untyped()]);
        d2.emplace(*inner.get().unwrap() + 1);
    }));
    q.await_values(&[done.clone().into_untyped()]);
    assert_eq!(done.get(), Ok(&42));
    q.quiesce();
}

#[test]
fn panicking_task_does_not_kill_the_worker() {
    let q = create_work_queue("mstd:1,1").unwrap();
    q.add_task(Task::new(|| panic!("task panic (expected by the test)")));
    let n = Arc::new(AtomicUsize::new(0));
    let m = n.clone();
    q.add_task(Task::new(move || {
        m.fetch_add(1, Ordering::SeqCst);
    }));
    q.quiesce();
    assert_eq!(n.load(Ordering::SeqCst), 1);
}

#[test]
fn idle_waiters_run_after_all_other_work_and_quiesce_waits_for_them() {
    for q in queues() {
        let q: Arc<dyn ConcurrentWorkQueue> = Arc::from(q);
        let done = Arc::new(AtomicUsize::new(0));
        let seen_by_waiters = Arc::new(std::sync::Mutex::new(Vec::new()));
        for _ in 0..200 {
            let (q2, done2, seen) = (q.clone(), done.clone(), seen_by_waiters.clone());
            q.add_task(Task::new(move || {
                // Registered from inside a task: the waiter sees every
                // other task finished, and the work it adds is waited for.
                let (done3, q3) = (done2.clone(), q2.clone());
                q2.when_idle(Task::new(move || {
                    seen.lock().unwrap().push(done3.load(Ordering::SeqCst));
                    let done4 = done3.clone();
                    q3.add_task(Task::new(move || {
                        done4.fetch_add(1000, Ordering::SeqCst);
                    }));
                }));
                std::thread::sleep(Duration::from_micros(50));
                done2.fetch_add(1, Ordering::SeqCst);
            }));
        }
        q.quiesce();
        let seen = seen_by_waiters.lock().unwrap();
        assert_eq!(seen.len(), 200, "{}", q.name());
        // The first waiter to run saw all 200 tasks done.
        assert!(seen.iter().all(|&d| d >= 200), "{}: {seen:?}", q.name());
        assert_eq!(
            done.load(Ordering::SeqCst),
            200 + 200 * 1000,
            "{}",
            q.name()
        );
    }
}

#[test]
fn idle_waiter_registered_on_an_idle_queue_runs() {
    for q in queues() {
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        q.when_idle(Task::new(move || {
            r.fetch_add(1, Ordering::SeqCst);
        }));
        q.quiesce();
        assert_eq!(ran.load(Ordering::SeqCst), 1, "{}", q.name());
    }
}
