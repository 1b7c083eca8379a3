//! `HostContext`: what a kernel reaches besides its arguments: the work
//! queue, the allocator, cancellation, shared per-context objects and the
//! diagnostics sink.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::allocator::{HostAllocator, MallocAllocator};
use super::async_value::{AsyncValue, AsyncValueRef};
use super::chain::Chain;
use super::diagnostic::{Diagnostic, ErrorCode};
use super::task::Task;
use super::work_queue::{ConcurrentWorkQueue, WorkQueueError, create_work_queue};

/// An object shared by everything running in one host context, created on
/// first use by [`HostContext::shared_context`].
pub trait SharedContext: Send + Sync + 'static {
    /// Creates the object for `host`, once per context.
    fn create(host: &HostContext) -> Self;
}

type Sink = Box<dyn Fn(&Diagnostic) + Send + Sync>;
type OutputSink = Box<dyn Fn(&str) + Send + Sync>;
type Entry = Arc<OnceLock<Arc<dyn Any + Send + Sync>>>;

/// The default of [`HostContext::max_call_depth`]: room for a correct
/// recursion 100,000 levels deep (a `tfrt.if` and a `tfrt.call` per level,
/// 200,000 nested calls) with 10% to spare, while runaway recursion stops
/// within 512 MiB (about 2 KiB of stack and heap per nested call in a
/// release build; measured in `docs/performance.md`).
pub const DEFAULT_MAX_CALL_DEPTH: usize = 220_000;

/// The host runtime context.
pub struct HostContext {
    work_queue: Box<dyn ConcurrentWorkQueue>,
    allocator: Arc<dyn HostAllocator>,
    /// Fast check for the executor's per-kernel test.
    cancelled: AtomicBool,
    cancel: Mutex<Option<AsyncValue>>,
    shared: Mutex<HashMap<TypeId, Entry>>,
    sink: Sink,
    output: OutputSink,
    max_call_depth: usize,
}

impl HostContext {
    /// A context over a work queue and an allocator, reporting diagnostics
    /// to standard error.
    pub fn new(
        work_queue: Box<dyn ConcurrentWorkQueue>,
        allocator: Box<dyn HostAllocator>,
    ) -> Self {
        HostContext {
            work_queue,
            allocator: Arc::from(allocator),
            cancelled: AtomicBool::new(false),
            cancel: Mutex::new(None),
            shared: Mutex::new(HashMap::new()),
            sink: Box::new(|d| eprintln!("error: {d}")),
            output: Box::new(write_stdout),
            max_call_depth: DEFAULT_MAX_CALL_DEPTH,
        }
    }

    /// A context with the work queue `name` (see
    /// [`WorkQueueSpec::parse`](super::WorkQueueSpec::parse)) and malloc.
    pub fn with_work_queue_name(name: &str) -> Result<Self, WorkQueueError> {
        Ok(Self::new(
            create_work_queue(name)?,
            Box::new(MallocAllocator),
        ))
    }

    /// Replaces the diagnostics sink.
    pub fn with_diagnostic_sink(
        mut self,
        sink: impl Fn(&Diagnostic) + Send + Sync + 'static,
    ) -> Self {
        self.sink = Box::new(sink);
        self
    }

    /// Replaces where kernel prints go (standard output by default), e.g.
    /// to capture them in tests.
    pub fn with_output_sink(mut self, sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.output = Box::new(sink);
        self
    }

    /// Sets how deeply function calls may nest on one thread (see
    /// [`max_call_depth`](Self::max_call_depth)).
    pub fn with_max_call_depth(mut self, depth: usize) -> Self {
        self.max_call_depth = depth;
        self
    }

    /// How deeply function calls (`tfrt.call`, `tfrt.if`, loops, any
    /// kernel that runs a function) may nest on one thread before the
    /// innermost call fails with `RESOURCE_EXHAUSTED`: the bound on
    /// runaway recursion. Deep calls below it continue on heap-allocated
    /// stack segments, so the limit, not the thread's stack, decides.
    pub fn max_call_depth(&self) -> usize {
        self.max_call_depth
    }

    /// Writes `text` (whole lines, newline included) to the output sink.
    /// Kernel prints use this so their order is the order kernels run.
    pub fn print(&self, text: &str) {
        (self.output)(text)
    }

    /// The work queue that runs the context's tasks.
    pub fn work_queue(&self) -> &dyn ConcurrentWorkQueue {
        &*self.work_queue
    }

    /// The allocator kernels use for heap buffers.
    pub fn allocator(&self) -> &dyn HostAllocator {
        &*self.allocator
    }

    /// The allocator, shared: for buffers that return their memory to it
    /// when dropped ([`HostBuffer`](super::HostBuffer)).
    pub fn shared_allocator(&self) -> Arc<dyn HostAllocator> {
        self.allocator.clone()
    }

    /// Allocates room for `n` values of `T` from the context's allocator.
    pub fn allocate<T>(&self, n: usize) -> Option<NonNull<T>> {
        self.allocator().allocate::<T>(n)
    }

    /// Frees memory from [`allocate`](Self::allocate).
    ///
    /// # Safety
    /// As [`HostAllocator::deallocate_bytes`], with the same `T` and `n`.
    pub unsafe fn deallocate<T>(&self, ptr: NonNull<T>, n: usize) {
        // SAFETY: forwarded contract.
        unsafe { self.allocator().deallocate(ptr, n) }
    }

    /// Runs `f` on the work queue.
    pub fn enqueue_work(&self, f: impl FnOnce() + Send + 'static) {
        self.work_queue.add_task(Task::new(f));
    }

    /// Runs blocking `f` on the blocking pool (queued if no thread is
    /// free). Returns false, dropping `f`, if the queue refused it.
    pub fn enqueue_blocking_work(&self, f: impl FnOnce() + Send + 'static) -> bool {
        self.work_queue
            .add_blocking_task(Task::new(f), true)
            .is_none()
    }

    /// Runs blocking `f` on a blocking thread that starts it at once.
    /// Returns false, dropping `f`, if no thread could take it.
    pub fn run_blocking_work(&self, f: impl FnOnce() + Send + 'static) -> bool {
        self.work_queue
            .add_blocking_task(Task::new(f), false)
            .is_none()
    }

    /// Blocks until all `values` are available (see
    /// [`ConcurrentWorkQueue::await_values`]).
    pub fn await_values(&self, values: &[AsyncValue]) {
        self.work_queue.await_values(values)
    }

    /// Blocks until the work queue is idle.
    pub fn quiesce(&self) {
        self.work_queue.quiesce()
    }

    /// Runs `f` once the work queue is idle (see
    /// [`ConcurrentWorkQueue::when_idle`]); safe from the queue's own tasks.
    pub fn when_idle(&self, f: impl FnOnce() + Send + 'static) {
        self.work_queue.when_idle(Task::new(f))
    }

    /// Number of compute threads of the work queue (a hint for splitting work).
    pub fn parallelism_level(&self) -> usize {
        self.work_queue.parallelism_level()
    }

    /// Whether the calling thread is one of the work queue's threads.
    pub fn is_in_worker_thread(&self) -> bool {
        self.work_queue.is_in_worker_thread()
    }

    /// Cancels execution: sets the cancel value to an error with code
    /// `Cancelled`. Only the first call has an effect; returns whether this
    /// call did. Any thread may call it.
    pub fn cancel(&self, message: impl Into<String>) -> bool {
        let mut cancel = self.cancel.lock().unwrap_or_else(|e| e.into_inner());
        if cancel.is_some() {
            return false;
        }
        *cancel = Some(AsyncValue::error(
            Diagnostic::new(message).with_code(ErrorCode::Cancelled),
        ));
        self.cancelled.store(true, Ordering::Release);
        true
    }

    /// The cancel value (an error value) once [`cancel`](Self::cancel) was
    /// called. Kernels and the executor check it before starting work; the
    /// common, uncancelled case is one atomic load.
    #[inline]
    pub fn cancel_value(&self) -> Option<AsyncValue> {
        if !self.cancelled.load(Ordering::Acquire) {
            return None;
        }
        self.cancel
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Whether [`cancel`](Self::cancel) was called since the last restart.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    /// Clears a cancellation so the context can run again (the runner does
    /// this between functions, as the reference's `Restart`).
    pub fn restart(&self) {
        let mut cancel = self.cancel.lock().unwrap_or_else(|e| e.into_inner());
        self.cancelled.store(false, Ordering::Release);
        cancel.take();
    }

    /// The context's shared `T`, created by `T::create` on first use. Each
    /// `T` is created once even when requested by many threads at once; a
    /// `create` may request other shared contexts (not its own type).
    pub fn shared_context<T: SharedContext>(&self) -> Arc<T> {
        let entry = {
            let mut map = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(TypeId::of::<T>()).or_default().clone()
        };
        let any = entry.get_or_init(|| Arc::new(T::create(self)) as Arc<dyn Any + Send + Sync>);
        any.clone()
            .downcast::<T>()
            .unwrap_or_else(|_| unreachable!("entries are keyed by their type id"))
    }

    /// Sends a diagnostic to the sink.
    pub fn emit_diagnostic(&self, diag: &Diagnostic) {
        (self.sink)(diag)
    }

    /// Reports `diag` to the sink and returns it as an error value.
    pub fn emit_error(&self, diag: impl Into<Diagnostic>) -> AsyncValue {
        let diag = diag.into();
        self.emit_diagnostic(&diag);
        AsyncValue::error(diag)
    }

    /// A new available chain.
    pub fn ready_chain(&self) -> AsyncValueRef<Chain> {
        AsyncValueRef::available(Chain)
    }
}

/// The default output sink: standard output, flushed after each write so
/// prints interleave correctly with other writers (e.g. the runner).
fn write_stdout(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // A closed stdout is not the program's error to report.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

impl fmt::Debug for HostContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostContext")
            .field("work_queue", &self.work_queue.name())
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::runtime::allocator::LeakCheckAllocator;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CREATED: AtomicUsize = AtomicUsize::new(0);

    struct Counter(AtomicUsize);
    impl SharedContext for Counter {
        fn create(host: &HostContext) -> Self {
            CREATED.fetch_add(1, Ordering::SeqCst);
            // Creating another shared context from `create` is allowed.
            let dep = host.shared_context::<Dep>();
            Counter(AtomicUsize::new(dep.0))
        }
    }
    struct Dep(usize);
    impl SharedContext for Dep {
        fn create(host: &HostContext) -> Self {
            Dep(host.parallelism_level())
        }
    }

    #[test]
    fn shared_context_created_once() {
        let host = Arc::new(HostContext::with_work_queue_name("mstd:2").unwrap());
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let h = host.clone();
                std::thread::spawn(move || {
                    let c = h.shared_context::<Counter>();
                    c.0.fetch_add(1, Ordering::SeqCst);
                    Arc::as_ptr(&c) as usize
                })
            })
            .collect();
        let ptrs: Vec<usize> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert!(ptrs.windows(2).all(|w| w[0] == w[1]));
        assert_eq!(CREATED.load(Ordering::SeqCst), 1);
        assert_eq!(
            host.shared_context::<Counter>().0.load(Ordering::SeqCst),
            2 + 4
        );
    }

    #[test]
    fn cancel_is_set_once() {
        let host = Arc::new(HostContext::with_work_queue_name("s").unwrap());
        assert!(!host.is_cancelled() && host.cancel_value().is_none());
        let wins: usize = (0..4)
            .map(|i| {
                let h = host.clone();
                std::thread::spawn(move || h.cancel(format!("stop {i}")) as usize)
            })
            .map(|t| t.join().unwrap())
            .sum();
        assert_eq!(wins, 1);
        let v = host.cancel_value().unwrap();
        let d = v.error_diagnostic().unwrap();
        assert_eq!(d.code, ErrorCode::Cancelled);
        assert!(d.message.starts_with("stop "));
        assert!(!host.cancel("again"));
    }

    #[test]
    fn diagnostics_sink_and_allocator() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let host = HostContext::new(
            Box::new(crate::runtime::work_queue::SingleThreadedWorkQueue::new()),
            Box::new(LeakCheckAllocator::default()),
        )
        .with_diagnostic_sink(move |d| s.lock().unwrap().push(d.to_string()));
        let e = host.emit_error(Diagnostic::new("bad shape").with_code(ErrorCode::InvalidArgument));
        assert!(e.is_error());
        assert_eq!(*seen.lock().unwrap(), ["INVALID_ARGUMENT: bad shape"]);
        let p = host.allocate::<u32>(8).unwrap();
        // SAFETY: allocated above with the same type and count.
        unsafe { host.deallocate(p, 8) };
        assert!(host.ready_chain().is_concrete());
        let n = Arc::new(AtomicUsize::new(0));
        let m = n.clone();
        host.enqueue_work(move || {
            m.fetch_add(1, Ordering::SeqCst);
        });
        assert!(!host.run_blocking_work(|| {}));
        host.quiesce();
        assert_eq!(n.load(Ordering::SeqCst), 1);
    }
}
