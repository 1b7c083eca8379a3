//! `Task`: a unit of work for a work queue. One heap block holding the
//! closure in place behind a thin pointer and a type-erased `call` function
//! (no trait object), so a task fits in one atomic slot of a deque.

use std::fmt;
use std::ptr::NonNull;

#[repr(C)]
pub(crate) struct TaskHeader {
    /// Consumes the block: runs the closure if `run`, else drops it.
    call: unsafe fn(NonNull<TaskHeader>, bool),
}

#[repr(C)]
struct TaskNode<F> {
    header: TaskHeader,
    f: F,
}

unsafe fn call<F: FnOnce()>(p: NonNull<TaskHeader>, run: bool) {
    // SAFETY: `p` was made by `Task::new::<F>` and is consumed exactly once.
    let node = unsafe { Box::from_raw(p.cast::<TaskNode<F>>().as_ptr()) };
    let TaskNode { f, .. } = *node;
    if run {
        f();
    }
}

/// A boxed `FnOnce() + Send` behind a thin pointer. Dropping a task without
/// running it drops the closure.
pub struct Task(NonNull<TaskHeader>);

// SAFETY: the closure is `Send` (enforced by `Task::new`) and owned uniquely.
unsafe impl Send for Task {}

impl Task {
    /// Wraps a closure.
    #[inline]
    pub fn new<F: FnOnce() + Send + 'static>(f: F) -> Task {
        let node = Box::new(TaskNode {
            header: TaskHeader { call: call::<F> },
            f,
        });
        Task(NonNull::from(Box::leak(node)).cast::<TaskHeader>())
    }

    /// Runs the task, consuming it.
    #[inline]
    pub fn run(self) {
        let p = self.0;
        std::mem::forget(self);
        // SAFETY: we owned the block; `call` consumes it.
        unsafe { (p.as_ref().call)(p, true) }
    }

    /// Gives up ownership as a raw pointer (for lock-free slots).
    pub(crate) fn into_raw(self) -> NonNull<()> {
        let p = self.0;
        std::mem::forget(self);
        p.cast()
    }

    /// SAFETY: `p` came from `into_raw` and is reclaimed once.
    pub(crate) unsafe fn from_raw(p: NonNull<()>) -> Task {
        Task(p.cast())
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        // SAFETY: we own the block; `call` consumes it without running.
        unsafe { (self.0.as_ref().call)(self.0, false) }
    }
}

impl fmt::Debug for Task {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Task")
    }
}

impl<F: FnOnce() + Send + 'static> From<F> for Task {
    fn from(f: F) -> Task {
        Task::new(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn run_and_drop() {
        let n = Arc::new(AtomicUsize::new(0));
        let m = n.clone();
        Task::new(move || {
            m.fetch_add(1, Ordering::SeqCst);
        })
        .run();
        assert_eq!(n.load(Ordering::SeqCst), 1);
        let guard = n.clone();
        let t = Task::new(move || drop(guard));
        assert_eq!(Arc::strong_count(&n), 2);
        drop(t);
        assert_eq!(Arc::strong_count(&n), 1);
        // SAFETY: round trip through the raw form.
        let t = unsafe { Task::from_raw(Task::new(|| {}).into_raw()) };
        t.run();
    }
}
