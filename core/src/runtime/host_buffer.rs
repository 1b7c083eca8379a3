//! `HostBuffer`: bytes taken from a [`HostAllocator`] and given back to the
//! same allocator when dropped, so that an allocator's budget, leak check
//! and profile see every tensor buffer.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::Arc;

use super::allocator::HostAllocator;

/// A zero-initialized byte buffer owned by its allocator.
///
/// Each buffer asks its allocator for [`HEADER_BYTES`](Self::HEADER_BYTES)
/// more than it holds, as the reference runtime's buffers carry their
/// header in the same allocation: the sizes an allocator sees (and a test
/// allocator reports and budgets) are the reference's.
pub struct HostBuffer {
    allocator: Arc<dyn HostAllocator>,
    /// Start of the allocation (`HEADER_BYTES + len` bytes).
    base: NonNull<u8>,
    len: usize,
}

// SAFETY: the buffer owns its memory exclusively (no other pointer to it
// exists), reads and writes go through `&self`/`&mut self` borrows, and the
// allocator is `Send + Sync`.
unsafe impl Send for HostBuffer {}
// SAFETY: as above; `&HostBuffer` only gives shared `&[u8]` access.
unsafe impl Sync for HostBuffer {}

impl HostBuffer {
    /// Bytes requested besides the contents.
    pub const HEADER_BYTES: usize = 64;

    /// Alignment of the allocation, hence of the contents (the header's
    /// size is a multiple of it).
    pub const ALIGN: usize = 16;

    /// `len` zero bytes from `allocator`, or `None` when it refuses (out of
    /// memory, over budget) or the size overflows.
    pub fn zeroed(allocator: Arc<dyn HostAllocator>, len: usize) -> Option<HostBuffer> {
        let size = Self::HEADER_BYTES.checked_add(len)?;
        let base = allocator.allocate_bytes(size, Self::ALIGN)?;
        // SAFETY: `base` points to `size` writable bytes just allocated.
        unsafe { base.as_ptr().write_bytes(0, size) };
        Some(HostBuffer {
            allocator,
            base,
            len,
        })
    }

    /// A copy of `bytes` in a buffer from `allocator` (see
    /// [`zeroed`](Self::zeroed)).
    pub fn copy_from(allocator: Arc<dyn HostAllocator>, bytes: &[u8]) -> Option<HostBuffer> {
        let mut buffer = Self::zeroed(allocator, bytes.len())?;
        buffer.copy_from_slice(bytes);
        Some(buffer)
    }

    fn data(&self) -> *mut u8 {
        // SAFETY: the allocation is `HEADER_BYTES + len` bytes, so the
        // offset stays inside it.
        unsafe { self.base.as_ptr().add(Self::HEADER_BYTES) }
    }
}

impl Deref for HostBuffer {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        // SAFETY: `data()` starts `len` initialized bytes (zeroed at
        // creation) owned by this buffer, borrowed shared with `self`.
        unsafe { std::slice::from_raw_parts(self.data(), self.len) }
    }
}

impl DerefMut for HostBuffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.data(), self.len) }
    }
}

impl Drop for HostBuffer {
    fn drop(&mut self) {
        // SAFETY: `base` came from `allocate_bytes` of this same allocator
        // with this size and alignment, and is not used after this.
        unsafe {
            self.allocator
                .deallocate_bytes(self.base, Self::HEADER_BYTES + self.len, Self::ALIGN)
        }
    }
}

impl PartialEq for HostBuffer {
    fn eq(&self, other: &HostBuffer) -> bool {
        **self == **other
    }
}

impl fmt::Debug for HostBuffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostBuffer")
            .field("len", &self.len)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::allocator::{FixedSizeAllocator, LeakCheckAllocator};

    #[test]
    fn buffers_return_to_their_allocator() {
        let leak = Arc::new(LeakCheckAllocator::default());
        let mut b = HostBuffer::copy_from(leak.clone(), &[1, 2, 3]).unwrap();
        assert_eq!(&b[..], &[1, 2, 3]);
        b[0] = 9;
        assert_eq!(leak.stats().live_bytes, HostBuffer::HEADER_BYTES + 3);
        let z = HostBuffer::zeroed(leak.clone(), 0).unwrap();
        assert!(z.is_empty());
        drop((b, z));
        assert_eq!(leak.check(), Ok(()));
    }

    #[test]
    fn refused_and_overflowing_sizes_are_none() {
        let fixed: Arc<dyn HostAllocator> = Arc::new(FixedSizeAllocator::default());
        let a = HostBuffer::zeroed(fixed.clone(), 128).unwrap();
        assert!(HostBuffer::zeroed(fixed.clone(), 1024).is_none());
        assert!(HostBuffer::zeroed(fixed.clone(), usize::MAX).is_none());
        drop(a);
        assert!(HostBuffer::zeroed(fixed, 900).is_some());
    }
}
