//! Synchronization shim: std atomics and cells in normal builds, their
//! `loom` model-checked counterparts under `cfg(loom)` (as tokio's
//! `src/loom/`), plus loom's leak-checked raw allocation for AsyncValue
//! blocks (normal builds use `async_value/block.rs`). Every lock-free
//! structure of the runtime, and the executor's counters
//! (`exec/executor.rs`), imports its primitives from here, never from `std`
//! directly, so that `RUSTFLAGS="--cfg loom" cargo test --release --test
//! loom` checks the real code rather than a copy.

#[cfg(not(loom))]
mod imp {
    pub(crate) use std::sync::atomic::{
        AtomicBool, AtomicIsize, AtomicPtr, AtomicU32, AtomicUsize, fence,
    };

    /// `UnsafeCell` with loom's closure-based API. In normal builds the
    /// closures are inlined and the wrapper costs nothing.
    #[derive(Debug)]
    #[repr(transparent)]
    pub(crate) struct UnsafeCell<T>(core::cell::UnsafeCell<T>);

    impl<T> UnsafeCell<T> {
        #[inline(always)]
        pub(crate) const fn new(value: T) -> Self {
            Self(core::cell::UnsafeCell::new(value))
        }

        /// Gives `f` a pointer for reading. The caller must ensure no write
        /// to the cell races with the read.
        #[inline(always)]
        pub(crate) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
            f(self.0.get())
        }

        /// Gives `f` a pointer for writing. The caller must ensure exclusive
        /// access for the duration of `f`.
        #[inline(always)]
        pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
            f(self.0.get())
        }
    }
}

#[cfg(loom)]
mod imp {
    pub(crate) use loom::alloc::{alloc, dealloc};
    pub(crate) use loom::cell::UnsafeCell;
    pub(crate) use loom::sync::atomic::{
        AtomicBool, AtomicIsize, AtomicPtr, AtomicU32, AtomicUsize, fence,
    };
}

#[allow(unused_imports)]
pub(crate) use imp::*;
pub(crate) use std::sync::atomic::Ordering;

/// Reads an atomic pointer through `&mut` (nothing else can reach it): a
/// plain load, spelled `get_mut` by std and `with_mut` by loom.
pub(crate) trait ReadMut<T> {
    fn read_mut(&mut self) -> *mut T;
}

#[cfg(not(loom))]
impl<T> ReadMut<T> for AtomicPtr<T> {
    #[inline(always)]
    fn read_mut(&mut self) -> *mut T {
        *self.get_mut()
    }
}

#[cfg(loom)]
impl<T> ReadMut<T> for AtomicPtr<T> {
    fn read_mut(&mut self) -> *mut T {
        self.with_mut(|p| *p)
    }
}

/// The strong reference count of an `Arc`: std's (whose count is a
/// relaxed load: callers that act on it fence), or under `cfg(loom)` also
/// loom's, so that models can drive code that decides on the count.
pub(crate) trait StrongCount {
    fn strong_count(&self) -> usize;
}

impl<T: ?Sized> StrongCount for std::sync::Arc<T> {
    #[inline(always)]
    fn strong_count(&self) -> usize {
        std::sync::Arc::strong_count(self)
    }
}

#[cfg(loom)]
impl<T: ?Sized> StrongCount for loom::sync::Arc<T> {
    fn strong_count(&self) -> usize {
        loom::sync::Arc::strong_count(self)
    }
}
