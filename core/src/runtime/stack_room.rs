//! Room on the native stack for code that nests without a static bound:
//! function calls nested in kernels, and waiters run inline that make
//! further values available (a chain of forwarded indirect values resolves
//! one level per nested call). When little stack is left, the rest runs on
//! a fresh heap-allocated segment instead of overflowing.

/// Stack that must be left before nesting once more: one level (the
/// executor, a kernel and the next call, or a waiter publishing the next
/// value) stays well within it, even in debug builds.
#[cfg(not(loom))]
const RED_ZONE: usize = 128 * 1024;
/// Size of each stack segment allocated when the red zone is reached.
#[cfg(not(loom))]
const SEGMENT_SIZE: usize = 4 * 1024 * 1024;

/// Runs `f` here, or on a new stack segment if this one runs low.
#[inline]
pub(crate) fn with_stack_room<R>(f: impl FnOnce() -> R) -> R {
    // Loom runs its threads on stacks of its own, which `stacker` cannot
    // measure; its models nest shallowly.
    #[cfg(not(loom))]
    {
        stacker::maybe_grow(RED_ZONE, SEGMENT_SIZE, f)
    }
    #[cfg(loom)]
    {
        f()
    }
}
