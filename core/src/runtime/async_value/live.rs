//! The global live-AsyncValue counter that leak checks read.
//!
//! Counting is off unless something asks for it: debug builds (as TFRT,
//! which counts live values only there), a runner with the leak-check
//! allocator, an attached observer (a profiler samples the count), or a
//! call of [`track_live_async_values`]. Switching on is for good. A value
//! records at creation whether it was counted, and only a counted value
//! is uncounted when destroyed, so values made before the switch never
//! make the sum drift. Uncounted, making and dropping a value touches no
//! thread-local state for the count: that halved the cost of an available
//! value made, read and dropped (`docs/performance.md`).
//!
//! Creating and destroying values is on the hottest path of the runtime, so
//! the counter is sharded per thread: each thread owns one cache-line-sized
//! shard that only it writes (a relaxed load and store, no read-modify-write).
//! A value created on one thread and destroyed on another adds +1 to one
//! shard and -1 to another; only the sum is meaningful. Shards register in a
//! global list; when a thread exits its shard is folded into `RETIRED` under
//! the same lock that [`live_async_values`] takes, so the sum never jumps.
//!
//! Under `cfg(loom)` a single global atomic is used instead (loom threads are
//! coroutines on one OS thread, and loom models should not explore this
//! counter's interleavings).

#[cfg(not(loom))]
mod imp {
    use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
    use std::sync::{Arc, Mutex, MutexGuard};

    #[repr(align(64))]
    struct Shard(AtomicIsize);

    static TRACKING: AtomicBool = AtomicBool::new(cfg!(debug_assertions));
    static RETIRED: AtomicIsize = AtomicIsize::new(0);

    /// Whether values made now are counted. `Relaxed`: a value made just
    /// as counting starts may go either way, and records which way it went.
    #[inline(always)]
    pub(crate) fn tracking() -> bool {
        TRACKING.load(Ordering::Relaxed)
    }

    pub(crate) fn start_tracking() {
        TRACKING.store(true, Ordering::Relaxed);
    }

    /// Turns counting off again, for a test of values made uncounted.
    #[cfg(test)]
    pub(crate) fn stop_tracking() {
        TRACKING.store(false, Ordering::Relaxed);
    }
    static SHARDS: Mutex<Vec<Arc<Shard>>> = Mutex::new(Vec::new());

    fn shards() -> MutexGuard<'static, Vec<Arc<Shard>>> {
        SHARDS.lock().unwrap_or_else(|e| e.into_inner())
    }

    struct LocalShard(Arc<Shard>);

    impl LocalShard {
        fn register() -> Self {
            let shard = Arc::new(Shard(AtomicIsize::new(0)));
            shards().push(shard.clone());
            LocalShard(shard)
        }
    }

    impl Drop for LocalShard {
        fn drop(&mut self) {
            let mut list = shards();
            RETIRED.fetch_add(self.0.0.load(Ordering::Relaxed), Ordering::Relaxed);
            list.retain(|s| !Arc::ptr_eq(s, &self.0));
        }
    }

    thread_local! {
        static LOCAL: LocalShard = LocalShard::register();
    }

    #[inline(always)]
    pub(crate) fn add(delta: isize) {
        // Only this thread writes its shard, so load+store cannot lose an
        // update; readers in other threads see some recent value.
        let done = LOCAL.try_with(|l| {
            let c = &l.0.0;
            c.store(c.load(Ordering::Relaxed) + delta, Ordering::Relaxed);
        });
        if done.is_err() {
            // Thread-local storage already torn down (a value dropped by
            // another thread-local's destructor): count it globally.
            RETIRED.fetch_add(delta, Ordering::Relaxed);
        }
    }

    pub(crate) fn total() -> isize {
        let list = shards();
        let mut sum = RETIRED.load(Ordering::Relaxed);
        for s in list.iter() {
            sum += s.0.load(Ordering::Relaxed);
        }
        sum
    }
}

#[cfg(loom)]
mod imp {
    use std::sync::atomic::{AtomicIsize, Ordering};

    static COUNT: AtomicIsize = AtomicIsize::new(0);

    /// Loom models always count (their tests compare the count).
    pub(crate) fn tracking() -> bool {
        true
    }

    pub(crate) fn start_tracking() {}

    pub(crate) fn add(delta: isize) {
        COUNT.fetch_add(delta, Ordering::Relaxed);
    }

    pub(crate) fn total() -> isize {
        COUNT.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
pub(crate) use imp::stop_tracking;
pub(crate) use imp::{add, tracking};

/// Starts counting live AsyncValues, for [`live_async_values`]. Values
/// made before the call are not counted. Counting stays on.
pub fn track_live_async_values() {
    imp::start_tracking();
}

/// Whether AsyncValues made now are counted (see
/// [`track_live_async_values`]; always in debug builds).
pub fn live_async_values_tracked() -> bool {
    imp::tracking()
}

/// Number of counted AsyncValues currently alive in the process (made
/// since counting started and not yet destroyed), summed over all threads;
/// 0 while counting is off.
///
/// Exact once the threads that created or dropped values have been joined or
/// otherwise synchronized with the caller; a snapshot while they run.
pub fn live_async_values() -> usize {
    imp::total().max(0) as usize
}
