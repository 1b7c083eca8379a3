//! The packed forms of right-hand operands kept between products.
//!
//! An entry is keyed by the tensor ([`TensorIdentity`]), its write count
//! ([`DenseHostTensor::writes`]) when packed, and its shape; a packed form
//! is handed out only while the tensor has taken no write lock since, so
//! weights written by any kernel are packed again. A tensor is packed the
//! second time it is seen unchanged: a product whose B changes every call
//! (or is used once) never pays for the copy.
//!
//! Bounded: at most [`CACHE_BYTES`] of packed data and [`MAX_ENTRIES`]
//! entries, the least recently used evicted first; a B over a quarter of
//! the bound is never packed. Entries of dropped tensors are removed on
//! the next lookup.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;

use super::{PackedRhs, packed_bytes};
use crate::kernels::tensor::dense::{DenseHostTensor, TensorIdentity};

/// Packed bytes the cache holds at most (64 MiB).
pub const CACHE_BYTES: usize = 64 << 20;

/// Whether products reuse packed weights ([`reuse_packed_weights`]).
static REUSE: AtomicBool = AtomicBool::new(true);

/// Turns the reuse of packed weights on (the default) or off: off, every
/// f32 product goes through the `gemm` crate, as on CPUs without AVX-512
/// (for comparing the two in one process).
pub fn reuse_packed_weights(enabled: bool) {
    REUSE.store(enabled, Ordering::Relaxed);
}

/// Tensors the cache tracks at most, packed or seen once.
const MAX_ENTRIES: usize = 64;

struct Entry {
    tensor: TensorIdentity,
    /// The tensor's write count when seen.
    writes: u64,
    k: usize,
    n: usize,
    /// `None` after the first sighting, until the second packs it.
    packed: Option<Arc<PackedRhs>>,
    /// The lookup that last used the entry, for eviction.
    last_use: u64,
}

struct Cache {
    entries: Vec<Entry>,
    bytes: usize,
    clock: u64,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache {
    entries: Vec::new(),
    bytes: 0,
    clock: 0,
});

impl Cache {
    fn remove(&mut self, index: usize) {
        let entry = self.entries.swap_remove(index);
        if let Some(packed) = entry.packed {
            self.bytes -= packed.bytes();
        }
    }

    /// Removes the least recently used entry, preferring packed ones when
    /// `packed_only`; false when there is none.
    fn evict(&mut self, packed_only: bool) -> bool {
        let oldest = (self.entries.iter().enumerate())
            .filter(|(_, e)| !packed_only || e.packed.is_some())
            .min_by_key(|(_, e)| e.last_use)
            .map(|(i, _)| i);
        oldest.map(|i| self.remove(i)).is_some()
    }
}

/// B (k x n) packed, when the cache holds it or this is the second time B
/// is seen unchanged (it is packed now); `None` the first time, when B is
/// too large to keep, or when this CPU lacks the packed kernel.
///
/// `data` must be `b`'s elements, read-locked by the caller for the call
/// (so its write count cannot change meanwhile).
pub(crate) fn packed_for(
    b: &DenseHostTensor,
    data: &[f32],
    k: usize,
    n: usize,
) -> Option<Arc<PackedRhs>> {
    if !REUSE.load(Ordering::Relaxed)
        || !super::supported()
        || packed_bytes(k, n)? > CACHE_BYTES / 4
    {
        return None;
    }
    let writes = b.writes();
    {
        let mut cache = CACHE.lock();
        cache.clock += 1;
        let now = cache.clock;
        let mut index = 0;
        while index < cache.entries.len() {
            if cache.entries[index].tensor.is_alive() {
                index += 1;
            } else {
                cache.remove(index);
            }
        }
        match (cache.entries.iter_mut()).position(|e| e.tensor.is(b)) {
            Some(i)
                if cache.entries[i].writes == writes
                    && (k, n) == (cache.entries[i].k, cache.entries[i].n) =>
            {
                let entry = &mut cache.entries[i];
                entry.last_use = now;
                if let Some(packed) = &entry.packed {
                    return Some(packed.clone());
                }
            }
            found => {
                if let Some(i) = found {
                    cache.remove(i);
                }
                if cache.entries.len() >= MAX_ENTRIES {
                    cache.evict(false);
                }
                cache.entries.push(Entry {
                    tensor: b.identity(),
                    writes,
                    k,
                    n,
                    packed: None,
                    last_use: now,
                });
                return None;
            }
        }
    }
    // Packed outside the lock: other products go on meanwhile.
    let packed = Arc::new(PackedRhs::new(data, k, n)?);
    let mut cache = CACHE.lock();
    while cache.bytes + packed.bytes() > CACHE_BYTES && cache.evict(true) {}
    // Another product may have packed or replaced the entry meanwhile.
    let stale = |e: &Entry| e.tensor.is(b);
    if let Some(i) = cache.entries.iter().position(stale) {
        cache.remove(i);
    }
    if cache.entries.len() >= MAX_ENTRIES {
        cache.evict(false);
    }
    cache.bytes += packed.bytes();
    let now = cache.clock;
    cache.entries.push(Entry {
        tensor: b.identity(),
        writes,
        k,
        n,
        packed: Some(packed.clone()),
        last_use: now,
    });
    Some(packed)
}

/// The packed bytes the cache holds now (at most [`CACHE_BYTES`]).
pub fn cached_bytes() -> usize {
    CACHE.lock().bytes
}
