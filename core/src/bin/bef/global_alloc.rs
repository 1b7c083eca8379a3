//! The process allocator of the `bef` binary, its benches and profiling
//! drivers: mimalloc, entered through `mi_malloc` wherever the requested
//! alignment is one `mi_malloc` guarantees anyway.
//!
//! The `mimalloc` crate's allocator sends every request through
//! `mi_malloc_aligned`, whose path costs about three times the instructions
//! of `mi_malloc` (callgrind: ~60 against ~20 per allocation); the IR
//! readers and translators allocate millions of small blocks per file.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_option_get, mi_option_set_default, mi_option_t,
    mi_realloc, mi_realloc_aligned, mi_zalloc, mi_zalloc_aligned,
};

/// The alignment `mi_malloc` gives every block at least as large as it
/// (the rule the standard library's `System` allocator applies to malloc).
const MALLOC_ALIGN: usize = 16;

/// Whether `mi_malloc` of `size` bytes is aligned enough for `align`.
#[inline(always)]
fn plain(size: usize, align: usize) -> bool {
    align <= MALLOC_ALIGN && align <= size
}

/// mimalloc as a [`GlobalAlloc`].
pub struct MiMalloc;

// SAFETY: every method forwards to the mimalloc function with the same
// contract, choosing the aligned variant whenever `plain` does not hold;
// blocks from either family are freed by `mi_free`.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        // SAFETY: see the impl.
        unsafe {
            if plain(size, align) {
                mi_malloc(size).cast()
            } else {
                mi_malloc_aligned(size, align).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        // SAFETY: see the impl.
        unsafe {
            if plain(size, align) {
                mi_zalloc(size).cast()
            } else {
                mi_zalloc_aligned(size, align).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator (contract).
        unsafe { mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let align = layout.align();
        // SAFETY: `ptr` came from this allocator with `layout` (contract).
        unsafe {
            if plain(new_size, align) {
                mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi_realloc_aligned(ptr.cast::<c_void>(), new_size, align).cast()
            }
        }
    }
}

/// `mi_option_purge_delay` in the `mi_option_t` enumeration of the bundled
/// mimalloc v2 `mimalloc.h` (libmimalloc-sys names no constant for it).
const PURGE_DELAY: mi_option_t = 15;

/// Keeps the memory the process frees for its own reuse instead of
/// returning it to the OS 10 ms later (mimalloc's default, made for
/// long-lived servers). A translation builds and frees about 25 bytes of
/// IR per byte of text; with purging, the next file faults all of them in
/// again, which costs as much as a third of the translation (measured on
/// repeated 50 MB translations). Called by the `bef` binary and the
/// benchmarks that stand for it, before their work. A delay set in the
/// environment (`MIMALLOC_PURGE_DELAY`) is left as it is.
pub fn keep_freed_memory() {
    // SAFETY: setting an option's default only stores the value (unless
    // the environment set the option); mimalloc reads it when it next
    // considers purging. -1 means never.
    unsafe { mi_option_set_default(PURGE_DELAY, -1) }
}

/// `mi_option_allow_thp` in the `mi_option_t` enumeration of the bundled
/// mimalloc v2 `mimalloc.h`.
const ALLOW_THP: mi_option_t = 37;

/// Turns transparent huge pages off for the process, unless the
/// environment chose (`MIMALLOC_ALLOW_THP`). mimalloc asks for huge pages
/// on its large regions; on a machine whose memory is fragmented, each
/// fault then waits for the kernel to compact a 2 MiB page, and a touched
/// huge page counts whole. Measured on the 45 MB generated program
/// (docs/performance.md): text to bytecode spent 0.07 to 2.1 s in the
/// kernel with them, depending on the machine's state, and 0.4 s
/// without; peak memory fell from 909 to 725 MiB.
// The benches and profiling drivers include this file without calling it.
#[allow(dead_code)]
pub fn avoid_transparent_huge_pages() {
    // SAFETY: setting an option's default only stores the value (unless
    // the environment set the option); reading one has no preconditions.
    let allowed = unsafe {
        mi_option_set_default(ALLOW_THP, 0);
        mi_option_get(ALLOW_THP)
    };
    // mimalloc applies the option to the process when it starts, before
    // `main` could set it, and has asked for huge pages on the regions it
    // reserved since; the process-wide switch covers those regions too.
    #[cfg(target_os = "linux")]
    if allowed == 0 {
        // SAFETY: PR_SET_THP_DISABLE takes no pointers; it sets a flag of
        // this process that the kernel reads at page faults.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = allowed;
}

#[cfg(test)]
// The benches include this file; their harness compiles no test functions.
#[allow(unused_imports)]
mod tests {
    use super::*;

    /// The option index is mimalloc's purge delay: 10 ms by default, never
    /// once kept (unless the environment chose a delay).
    #[test]
    fn freed_memory_is_kept() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        // mimalloc's purge delay in milliseconds (-1: never).
        // SAFETY: reading an option has no preconditions.
        let purge_delay = || unsafe { mi_option_get(PURGE_DELAY) };
        assert_eq!(purge_delay(), 10);
        keep_freed_memory();
        assert_eq!(purge_delay(), -1);
    }

    /// Huge pages are allowed by default and off for the whole process
    /// once avoided (unless the environment chose).
    #[test]
    fn transparent_huge_pages_are_turned_off() {
        if std::env::var_os("MIMALLOC_ALLOW_THP").is_some() {
            return;
        }
        // SAFETY: reading an option has no preconditions.
        let allowed = || unsafe { mi_option_get(ALLOW_THP) };
        assert_eq!(allowed(), 1);
        avoid_transparent_huge_pages();
        assert_eq!(allowed(), 0);
        #[cfg(target_os = "linux")]
        {
            // SAFETY: PR_GET_THP_DISABLE takes no pointers.
            let disabled = unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) };
            assert_eq!(disabled, 1);
        }
    }

    /// Every size and alignment combination the plain and aligned paths
    /// split on: blocks come back aligned and keep their bytes across a
    /// growing and a shrinking reallocation; zeroed blocks are zero.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        let allocator = MiMalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 128, 4096] {
            for size in [1, 3, 8, 15, 16, 17, 64, 100, 4096, 70_000] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: non-zero sizes; each block is used within its
                // current size and freed with its current layout.
                unsafe {
                    let p = allocator.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "alloc {size} align {align}");
                    for i in 0..size {
                        p.add(i).write(i as u8);
                    }
                    let grown = allocator.realloc(p, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "grow {size} align {align}");
                    assert!((0..size).all(|i| grown.add(i).read() == i as u8));
                    let grown_layout = Layout::from_size_align(size * 3, align).unwrap();
                    let shrunk_size = size / 2 + 1;
                    let shrunk = allocator.realloc(grown, grown_layout, shrunk_size);
                    assert_eq!(shrunk as usize % align, 0, "shrink {size} align {align}");
                    assert!((0..shrunk_size).all(|i| shrunk.add(i).read() == i as u8));
                    allocator.dealloc(shrunk, Layout::from_size_align(shrunk_size, align).unwrap());

                    let z = allocator.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0, "zeroed {size} align {align}");
                    assert!((0..size).all(|i| z.add(i).read() == 0));
                    allocator.dealloc(z, layout);
                }
            }
        }
    }
}
