//! Runtime benchmarks, each against a baseline measured in the same run:
//!
//! * `available_value`: make an available AsyncValue, read it, drop it,
//!   versus `Box::new`, read, drop (target ratio <= 1.5).
//! * `cross_thread_set`: an unavailable value gets a continuation
//!   (`and_then`), another thread sets it and runs the continuation, versus
//!   a `tokio::sync::oneshot` whose receiver registered a waker before the
//!   other thread sends (target: at least 2x faster). Values travel to the
//!   setter thread in batches of `BATCH` so the hand-off cost is amortized
//!   equally for both; `handoff_only` measures that shared cost alone.
//! * `million_tasks`: one million empty tasks through `mstd:2` (then
//!   quiesce), versus `spawn` on a two-thread rayon pool (then waiting for
//!   a countdown). Target: at least as fast.
//!
//! `cargo bench -p bef --bench runtime`

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use bef::runtime::{AsyncValueRef, ConcurrentWorkQueue, Task, create_work_queue};
use criterion::{Criterion, criterion_group, criterion_main};

fn available_value(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    let mut g = c.benchmark_group("available_value");
    g.bench_function("async_value_make_read_drop", |b| {
        b.iter(|| {
            let v = black_box(AsyncValueRef::available(black_box(42u64)));
            let x = *v.get().unwrap();
            drop(v);
            x
        })
    });
    g.bench_function("box_make_read_drop", |b| {
        b.iter(|| {
            let v = black_box(Box::new(black_box(42u64)));
            let x = *v;
            drop(v);
            x
        })
    });
    g.finish();
}

const BATCH: usize = 256;

/// Hand-off states of a [`Helper`].
const IDLE: usize = 0;
const SENT: usize = 1;
const DONE: usize = 2;
const QUIT: usize = 3;

/// Waits until `phase` holds one of `want`: spinning for up to 200 us (a
/// batch takes some microseconds: neither side should pay a system call per
/// batch, and the slower side would pay more of them), then yielding for up
/// to 2 ms (in case the other thread shares this core), then sleeping
/// briefly, so that an idle helper does not burn a core while criterion
/// analyses.
fn wait_for(phase: &AtomicUsize, want: &[usize]) -> usize {
    let start = Instant::now();
    let mut tries = 0u32;
    loop {
        let p = phase.load(Ordering::Acquire);
        if want.contains(&p) {
            return p;
        }
        tries = tries.wrapping_add(1);
        if !tries.is_multiple_of(64) {
            std::hint::spin_loop();
            continue;
        }
        let waited = start.elapsed();
        if waited < Duration::from_micros(200) {
            std::hint::spin_loop();
        } else if waited < Duration::from_millis(2) {
            std::thread::yield_now();
        } else {
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}

struct Shared<T> {
    batch: Mutex<Vec<T>>,
    phase: AtomicUsize,
}

/// A thread that applies `f` to every item of each batch it receives, then
/// hands the batch back, so that the items are dropped on the main thread
/// (like the tokio receivers, which stay there).
///
/// The hand-off is the same for both sides and is not what is compared, so
/// it is made as cheap as possible: both threads spin on a phase word while
/// a batch is in flight (then yield, then sleep). It used to be a pair of
/// `mpsc` channels, whose futex sleeps and wake-ups cost about 50 ns per
/// item on each side (half or more of the tokio figure) and whose timing
/// was bimodal (the scheduler sometimes ran both threads on one core, so
/// nothing crossed cores at all). A shared constant cost in both numbers
/// pulls their ratio towards 1 without saying anything about either
/// primitive; `handoff_only` measures what remains of it (about 7-10 ns).
/// Both sides still do the same work per item: create, register a
/// continuation, complete on the other thread, observe the result, drop.
struct Helper<T: Send + 'static> {
    shared: Arc<Shared<T>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl<T: Send + 'static> Helper<T> {
    fn new(f: impl Fn(&mut T) + Send + 'static) -> Self {
        let shared = Arc::new(Shared {
            batch: Mutex::new(Vec::new()),
            phase: AtomicUsize::new(IDLE),
        });
        let s = shared.clone();
        let thread = std::thread::spawn(move || {
            while wait_for(&s.phase, &[SENT, QUIT]) == SENT {
                for item in s.batch.lock().unwrap().iter_mut() {
                    f(item);
                }
                s.phase.store(DONE, Ordering::Release);
            }
        });
        Helper {
            shared,
            thread: Some(thread),
        }
    }

    fn run(&self, batch: Vec<T>) -> Vec<T> {
        *self.shared.batch.lock().unwrap() = batch;
        self.shared.phase.store(SENT, Ordering::Release);
        wait_for(&self.shared.phase, &[DONE]);
        self.shared.phase.store(IDLE, Ordering::Relaxed);
        std::mem::take(&mut *self.shared.batch.lock().unwrap())
    }
}

impl<T: Send + 'static> Drop for Helper<T> {
    fn drop(&mut self) {
        self.shared.phase.store(QUIT, Ordering::Release);
        self.thread.take().unwrap().join().unwrap();
    }
}

static CONTINUATIONS: AtomicUsize = AtomicUsize::new(0);

struct CountingWaker;
impl Wake for CountingWaker {
    fn wake(self: Arc<Self>) {
        CONTINUATIONS.fetch_add(1, Ordering::Relaxed);
    }
    fn wake_by_ref(self: &Arc<Self>) {
        CONTINUATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

fn cross_thread_set(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    let mut g = c.benchmark_group("cross_thread_set");
    g.throughput(criterion::Throughput::Elements(1));
    {
        let helper = Helper::<AsyncValueRef<u64>>::new(|v: &mut AsyncValueRef<u64>| v.emplace(7));
        g.bench_function("async_value_and_then_set", |b| {
            b.iter_custom(|iters| {
                let mut elapsed = Duration::ZERO;
                let mut left = iters as usize;
                while left > 0 {
                    let n = left.min(BATCH);
                    left -= n;
                    let start = Instant::now();
                    let mut batch = Vec::with_capacity(n);
                    for _ in 0..n {
                        let v = AsyncValueRef::<u64>::unconstructed();
                        v.and_then(|| {
                            CONTINUATIONS.fetch_add(1, Ordering::Relaxed);
                        });
                        batch.push(v);
                    }
                    // Observe the result, as the tokio side polls each receiver.
                    let batch = helper.run(batch);
                    for v in &batch {
                        black_box(*v.get().unwrap());
                    }
                    drop(batch);
                    elapsed += start.elapsed();
                }
                elapsed
            })
        });
    }
    {
        let helper = Helper::<Option<tokio::sync::oneshot::Sender<u64>>>::new(
            |tx: &mut Option<tokio::sync::oneshot::Sender<u64>>| {
                let _ = tx.take().unwrap().send(7);
            },
        );
        let waker = Waker::from(Arc::new(CountingWaker));
        g.bench_function("tokio_oneshot_waker_send", |b| {
            b.iter_custom(|iters| {
                let mut cx = Context::from_waker(&waker);
                let mut elapsed = Duration::ZERO;
                let mut left = iters as usize;
                while left > 0 {
                    let n = left.min(BATCH);
                    left -= n;
                    let start = Instant::now();
                    let mut senders = Vec::with_capacity(n);
                    let mut receivers = Vec::with_capacity(n);
                    for _ in 0..n {
                        let (tx, mut rx) = tokio::sync::oneshot::channel::<u64>();
                        // Register the continuation (waker) before the send.
                        assert!(std::pin::Pin::new(&mut rx).poll(&mut cx).is_pending());
                        senders.push(Some(tx));
                        receivers.push(rx);
                    }
                    drop(helper.run(senders));
                    for mut rx in receivers.drain(..) {
                        match std::pin::Pin::new(&mut rx).poll(&mut cx) {
                            Poll::Ready(Ok(v)) => {
                                black_box(v);
                            }
                            other => panic!("not sent: {other:?}"),
                        }
                    }
                    elapsed += start.elapsed();
                }
                elapsed
            })
        });
    }
    {
        // The hand-off alone (no value, no continuation): the floor that both
        // sides above pay, reported so the ratio can be read against it.
        let helper = Helper::<u64>::new(|x: &mut u64| *x += 1);
        g.bench_function("handoff_only", |b| {
            b.iter_custom(|iters| {
                let mut elapsed = Duration::ZERO;
                let mut left = iters as usize;
                while left > 0 {
                    let n = left.min(BATCH);
                    left -= n;
                    let start = Instant::now();
                    let mut batch = Vec::with_capacity(n);
                    for i in 0..n {
                        batch.push(black_box(i as u64));
                    }
                    let batch = helper.run(batch);
                    for x in &batch {
                        black_box(*x);
                    }
                    drop(batch);
                    elapsed += start.elapsed();
                }
                elapsed
            })
        });
    }
    g.finish();
}

use std::future::Future;

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

const TASKS: usize = 1_000_000;

fn million_tasks(c: &mut Criterion) {
    let mut g = c.benchmark_group("million_tasks");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(15));
    {
        let q = create_work_queue("mstd:2").unwrap();
        g.bench_function("mstd2_add_task_quiesce", |b| {
            b.iter(|| {
                for _ in 0..TASKS {
                    q.add_task(Task::new(|| {}));
                }
                q.quiesce();
            })
        });
        let q: &dyn ConcurrentWorkQueue = &*q;
        black_box(q.parallelism_level());
    }
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        // 'static so the tasks capture plain references (no Arc traffic).
        let done: &'static (Mutex<bool>, Condvar) =
            Box::leak(Box::new((Mutex::new(false), Condvar::new())));
        let left: &'static AtomicUsize = Box::leak(Box::new(AtomicUsize::new(0)));
        g.bench_function("rayon_spawn_2_threads", |b| {
            b.iter(|| {
                left.store(TASKS, Ordering::SeqCst);
                *done.0.lock().unwrap() = false;
                for _ in 0..TASKS {
                    pool.spawn(move || {
                        if left.fetch_sub(1, Ordering::AcqRel) == 1 {
                            *done.0.lock().unwrap() = true;
                            done.1.notify_all();
                        }
                    });
                }
                let mut d = done.0.lock().unwrap();
                while !*d {
                    d = done.1.wait(d).unwrap();
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, available_value, cross_thread_set, million_tasks);
criterion_main!(benches);
