//! The in-memory block of an AsyncValue: header + payload in one allocation,
//! its per-type function table, the state word and the reference count.
//!
//! # The state word (`Header::state`, one `AtomicUsize`)
//!
//! ```text
//!  63 ........................... 4 |      3       |    2    |  1  0
//!  head of the waiter list (16-align)| INLINE_READY | CLAIMED |  state
//! ```
//!
//! * `state` (bits 0-1): `UNCONSTRUCTED` 0, `CONSTRUCTED` 1, `CONCRETE` 2,
//!   `ERROR` 3. A value is *available* when `state >= CONCRETE`; both
//!   available states are terminal.
//! * `CLAIMED` (bit 2): set by compare-and-swap by the single writer that
//!   will make the value available (emplace, set_state_concrete, set_error,
//!   forward_to). A second writer finds it set and is refused, so payload
//!   and `link` have exactly one writer. It stays set forever. Values created
//!   available are created claimed.
//! * `INLINE_READY` (bit 3): the inline callback slot (`Header::inline`)
//!   holds a callback. Set with a release CAS by the `and_then` that claimed
//!   the slot, after writing the closure, while the value is unavailable.
//! * waiter list (bits 4-63): head of an intrusive list of further `and_then`
//!   callbacks, null when empty. Pushed with a release CAS by `and_then`
//!   while the value is unavailable.
//!
//! The writer takes `INLINE_READY` and the list together with the transition
//! to an available state, by one acquire-release swap, then runs the inline
//! callback followed by the list. An available word never has waiters
//! (`INLINE_READY` clear, list null): once a CAS of `and_then` fails on an
//! available word, `and_then` runs its callback itself.
//!
//! # The inline slot
//!
//! The first `and_then` whose closure fits in [`waiters::INLINE_WORDS`] words
//! claims the slot by swapping `Header::inline_taken` from false to true. The
//! flag is never cleared: one inline callback per value lifetime. `Relaxed`
//! suffices for the claim, only its atomicity matters (one thread wins); the
//! slot's contents reach the writer through the `INLINE_READY` CAS / swap
//! pair. So the slot costs one more read-modify-write than a heap node (the
//! claim), but no allocation on this thread and no free on the writer's.
//!
//! An `and_then` whose closure does not fit stores `true` into
//! `inline_taken` before pushing its heap node. Hence no callback can take
//! the slot after a heap node was pushed (by the same thread, or one
//! synchronized with it): the inline callback, if any, is the oldest one, and
//! running it first keeps callbacks in the order they were added. (One whose
//! claim raced with a push was concurrent with it: either order is valid.)
//!
//! Orderings: the writer's swap is `Release` so that the payload / `link`
//! writes before it are visible to whoever observes the available state with
//! an `Acquire` load; it is also `Acquire` so that the writer sees the
//! closures and `next` links of the nodes pushed, and the inline slot
//! published, with `Release` CAS.
//!
//! # Destruction
//!
//! A concrete-kind value whose last state is `CONCRETE` (every value
//! created available, and every value set concrete) has no waiters, no
//! error and a constructed payload, so its last reference goes through
//! [`VTable::destroy_concrete`], one call that drops the payload and frees
//! the block. Every other block goes through [`destroy`], which checks for
//! waiters left behind, errors and indirect targets.
//!
//! # Reference count
//!
//! `refcount` starts at 1. Increments are `Relaxed` (a new reference can only
//! be made from an existing one). Decrements are `Release`, and the thread
//! that drops the last reference issues an `Acquire` fence before destroying
//! the value, as `std::sync::Arc` does. If a thread holding a reference
//! observes the count equal to 1 (with an `Acquire` load) it owns the only
//! reference and destroys the value without a read-modify-write.

use std::alloc::Layout;
use std::any::TypeId;
use std::mem::MaybeUninit;
use std::ptr::{self, NonNull};

use super::live;
use super::waiters::{self, InlineSlot, WaiterHeader};
use crate::runtime::diagnostic::Diagnostic;
use crate::runtime::sync::{AtomicBool, AtomicU32, AtomicUsize, Ordering, UnsafeCell, fence};
// Blocks come from the per-thread block cache, or from loom's allocator
// (which checks for leaks) in loom models.
#[cfg(not(loom))]
use super::block::{allocate as alloc, deallocate as dealloc};
#[cfg(loom)]
use crate::runtime::sync::{alloc, dealloc};

pub(crate) const STATE_MASK: usize = 0b0011;
pub(crate) const CLAIMED: usize = 0b0100;
pub(crate) const INLINE_READY: usize = 0b1000;
pub(crate) const WAITERS_MASK: usize = !0b1111;

pub(crate) const UNCONSTRUCTED: usize = 0;
pub(crate) const CONSTRUCTED: usize = 1;
pub(crate) const CONCRETE: usize = 2;
pub(crate) const ERROR: usize = 3;

/// Tag bit in `link` of a concrete-kind value in the error state: the
/// payload was kept (the value was created with keep-payload-on-error).
pub(crate) const PAYLOAD_KEPT: usize = 0b1;

/// Refcounts above this abort the process (overflow protection, as `Arc`).
const MAX_REFCOUNT: u32 = i32::MAX as u32;

/// Whether `vt` is the table of payload type `T`: a pointer compare when the
/// table is the same promoted constant (the common case), else a type-id
/// compare (constants may be duplicated across codegen units).
#[inline(always)]
pub(crate) fn vtable_is<T: 'static>(vt: &'static VTable) -> bool {
    // Constants may be instantiated once per codegen unit, so the address
    // test can miss; the id compare is one 128-bit comparison.
    std::ptr::eq(vt, &VTables::<T>::CONCRETE) || vt.type_id == TypeId::of::<T>()
}

#[inline(always)]
pub(crate) fn is_available(word: usize) -> bool {
    word & STATE_MASK >= CONCRETE
}

/// What kind of AsyncValue a block is; fixed at creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum AsyncValueKind {
    /// Holds a typed payload in place (may also end in the error state).
    Concrete,
    /// A placeholder that `forward_to` later points at another value.
    Indirect,
    /// Created in the error state; holds only a diagnostic.
    Error,
}

/// Per-type function table, one `'static` instance per payload type (a
/// promoted constant), shared by every value of that type.
pub(crate) struct VTable {
    /// `TypeId::of::<T>()`, stored so a type check is a compare, not a call.
    pub(crate) type_id: TypeId,
    pub(crate) type_name: fn() -> &'static str,
    /// Drops the payload in place. Only called when it is constructed.
    pub(crate) drop_payload: unsafe fn(NonNull<Header>),
    /// Drops the (payload-less) block and frees its memory.
    pub(crate) free: unsafe fn(NonNull<Header>),
    /// Destroys a concrete-kind block in the `CONCRETE` state (see the
    /// module docs): drops the payload, uncounts the value, frees the
    /// block. Only called on concrete-kind blocks.
    pub(crate) destroy_concrete: unsafe fn(NonNull<Header>),
}

/// Payload type of blocks that never hold a payload (error and indirect).
pub(crate) struct NoPayload;
/// Type of an indirect value created without an expected type.
pub(crate) struct UnknownType;
/// Type reported for error-kind values.
pub(crate) struct ErrorType;

pub(crate) struct VTables<T>(std::marker::PhantomData<T>);

impl<T: 'static> VTables<T> {
    /// Table of concrete values holding a `T`.
    pub(crate) const CONCRETE: VTable = VTable {
        type_id: TypeId::of::<T>(),
        type_name: std::any::type_name::<T>,
        drop_payload: drop_payload::<T>,
        free: free::<T>,
        destroy_concrete: destroy_concrete::<T>,
    };
    /// Table of payload-less blocks (indirect or error) that report type `T`.
    pub(crate) const NO_PAYLOAD: VTable = VTable {
        type_id: TypeId::of::<T>(),
        type_name: std::any::type_name::<T>,
        drop_payload: drop_nothing,
        free: free::<NoPayload>,
        // Never called: these blocks are never of the concrete kind. Were
        // it called, the block holds no payload to drop.
        destroy_concrete: destroy_concrete::<NoPayload>,
    };
}

#[repr(C)]
pub(crate) struct Header {
    pub(crate) state: AtomicUsize,
    pub(crate) refcount: AtomicU32,
    pub(crate) kind: AsyncValueKind,
    pub(crate) keep_payload_on_error: bool,
    /// Whether an `and_then` has claimed `inline` (see the module docs).
    pub(crate) inline_taken: AtomicBool,
    /// Whether the value was counted as live when made (`live.rs`), so
    /// that its destruction is uncounted.
    pub(crate) counted: bool,
    pub(crate) vtable: &'static VTable,
    /// Concrete and error kinds: `*mut Diagnostic` (tagged with
    /// `PAYLOAD_KEPT`) once in the error state, else 0. Indirect kind: the
    /// resolved target's `*const Header` once available, else 0. Written
    /// only by the claimed writer before its release swap; read only after
    /// an acquire load observed an available state (or with exclusive access
    /// during destruction).
    pub(crate) link: UnsafeCell<usize>,
    /// The inline callback slot (see the module docs).
    pub(crate) inline: InlineSlot,
}

#[repr(C)]
pub(crate) struct Inner<T> {
    header: Header,
    payload: UnsafeCell<MaybeUninit<T>>,
}

/// Initial contents of a new block.
pub(crate) struct Init {
    pub(crate) kind: AsyncValueKind,
    pub(crate) state: usize,
    pub(crate) keep_payload_on_error: bool,
    pub(crate) link: usize,
}

/// Allocates and initializes a block with refcount 1. Inlined so that a
/// constant `init` (every constructor's) folds into the header writes.
#[inline]
pub(crate) fn allocate<T>(
    vtable: &'static VTable,
    init: Init,
    payload: Option<T>,
) -> NonNull<Header> {
    let layout = Layout::new::<Inner<T>>();
    // SAFETY: `Inner<T>` contains a `Header`, so the layout is not zero-sized.
    let raw = unsafe { alloc(layout) }.cast::<Inner<T>>();
    let Some(block) = NonNull::new(raw) else {
        std::alloc::handle_alloc_error(layout)
    };
    let payload = match payload {
        Some(v) => MaybeUninit::new(v),
        None => MaybeUninit::uninit(),
    };
    let counted = live::tracking();
    // SAFETY: `block` is freshly allocated with the layout of `Inner<T>`.
    unsafe {
        ptr::write(
            block.as_ptr(),
            Inner {
                header: Header {
                    state: AtomicUsize::new(init.state),
                    refcount: AtomicU32::new(1),
                    kind: init.kind,
                    keep_payload_on_error: init.keep_payload_on_error,
                    inline_taken: AtomicBool::new(false),
                    counted,
                    vtable,
                    link: UnsafeCell::new(init.link),
                    inline: InlineSlot::new(),
                },
                payload: UnsafeCell::new(payload),
            },
        );
    }
    if counted {
        live::add(1);
    }
    block.cast::<Header>()
}

/// The payload cell of a block whose payload type is `T`.
///
/// SAFETY: `h` is a live block allocated as `Inner<T>`.
#[inline(always)]
pub(crate) unsafe fn payload<'a, T>(h: NonNull<Header>) -> &'a UnsafeCell<MaybeUninit<T>> {
    // SAFETY: `Inner<T>` is `repr(C)` with the header first, so the block
    // pointer is a valid `*const Inner<T>`.
    unsafe { &(*h.cast::<Inner<T>>().as_ptr()).payload }
}

unsafe fn drop_payload<T>(h: NonNull<Header>) {
    // SAFETY: called with exclusive access on a block of `T` whose payload is
    // constructed (checked by the caller from the state).
    unsafe { payload::<T>(h).with_mut(|p| ptr::drop_in_place((*p).as_mut_ptr())) }
}

unsafe fn drop_nothing(_: NonNull<Header>) {}

#[inline]
unsafe fn destroy_concrete<T>(h: NonNull<Header>) {
    // SAFETY: exclusive access to a block of `T` (the caller's contract).
    let counted = unsafe { h.as_ref() }.counted;
    // SAFETY: in the `CONCRETE` state the payload is constructed and was
    // never dropped.
    unsafe { drop_payload::<T>(h) };
    if counted {
        live::add(-1);
    }
    // SAFETY: the payload is dropped; free the block.
    unsafe { free::<T>(h) };
}

unsafe fn free<T>(h: NonNull<Header>) {
    let block = h.cast::<Inner<T>>().as_ptr();
    // SAFETY: exclusive access; drops the header fields and the payload cell
    // (not the payload: `MaybeUninit`), then frees with the allocation layout.
    unsafe {
        ptr::drop_in_place(block);
        dealloc(block.cast::<u8>(), Layout::new::<Inner<T>>());
    }
}

/// Adds a reference.
///
/// SAFETY: `h` is live and the caller holds a reference to it (or runs
/// inside a callback of it, see `forward_to`).
#[inline]
pub(crate) unsafe fn add_ref(h: NonNull<Header>) {
    // SAFETY: the block is live per the contract.
    let old = unsafe { h.as_ref() }
        .refcount
        .fetch_add(1, Ordering::Relaxed);
    if old > MAX_REFCOUNT {
        std::process::abort();
    }
}

/// Adds `n` references.
///
/// SAFETY: as [`add_ref`].
#[inline]
pub(crate) unsafe fn add_refs(h: NonNull<Header>, n: u32) {
    // SAFETY: the block is live per the contract.
    let old = unsafe { h.as_ref() }
        .refcount
        .fetch_add(n, Ordering::Relaxed);
    if old.saturating_add(n) > MAX_REFCOUNT {
        std::process::abort();
    }
}

/// Drops a reference, destroying the block when it was the last.
///
/// SAFETY: the caller owns one reference to the live block `h`.
#[inline]
pub(crate) unsafe fn drop_ref(h: NonNull<Header>) {
    // SAFETY: forwarded contract.
    if unsafe { release_ref(h) } {
        // SAFETY: the last reference is gone and its writes acquired.
        unsafe { destroy_last(h) }
    }
}

/// [`drop_ref`] for a handle that expects a `T`: the last reference to a
/// value made available as a `T` drops the payload and frees the block
/// without the call through the vtable (any other block takes the general
/// path).
///
/// SAFETY: as [`drop_ref`].
#[inline]
pub(crate) unsafe fn drop_ref_typed<T: 'static>(h: NonNull<Header>) {
    // SAFETY: forwarded contract.
    if !unsafe { release_ref(h) } {
        return;
    }
    // SAFETY: no other thread can reach `h` any more.
    let hdr = unsafe { h.as_ref() };
    let word = hdr.state.load(Ordering::Relaxed);
    if word == CONCRETE | CLAIMED
        && hdr.kind == AsyncValueKind::Concrete
        && ptr::eq(hdr.vtable, &VTables::<T>::CONCRETE)
    {
        // SAFETY: exclusive access to a concrete-kind block of `T` (its
        // vtable is `T`'s) in the `CONCRETE` state.
        unsafe { destroy_concrete::<T>(h) }
    } else {
        // SAFETY: the last reference is gone and its writes acquired.
        unsafe { destroy_last(h) }
    }
}

/// Gives up one reference; `true` when it was the last, with every former
/// holder's writes acquired.
///
/// SAFETY: the caller owns one reference to the live block `h`.
#[inline(always)]
unsafe fn release_ref(h: NonNull<Header>) -> bool {
    // SAFETY: live per the contract.
    let hdr = unsafe { h.as_ref() };
    // Acquire: if we are the only holder, the writes of every former holder
    // (each released by its decrement) happen-before the destruction.
    if hdr.refcount.load(Ordering::Acquire) != 1 {
        if hdr.refcount.fetch_sub(1, Ordering::Release) != 1 {
            return false;
        }
        fence(Ordering::Acquire);
    }
    true
}

/// Destroys a block whose last reference is gone.
///
/// SAFETY: no reference to `h` is left and their writes are acquired.
#[inline]
unsafe fn destroy_last(h: NonNull<Header>) {
    // SAFETY: exclusive access (contract).
    let hdr = unsafe { h.as_ref() };
    let word = hdr.state.load(Ordering::Relaxed);
    if word == CONCRETE | CLAIMED && hdr.kind == AsyncValueKind::Concrete {
        // SAFETY: exclusive access to a concrete-kind block in the
        // `CONCRETE` state, whose vtable is its payload type's.
        unsafe { (hdr.vtable.destroy_concrete)(h) }
    } else {
        // SAFETY: exclusive access; `word` is the block's state.
        unsafe { destroy(h, word) }
    }
}

/// SAFETY: the last reference to `h` is gone and its writes are acquired;
/// `word` is its state word.
#[cold]
unsafe fn destroy(h: NonNull<Header>, word: usize) {
    // SAFETY: exclusive access from here on.
    let hdr = unsafe { h.as_ref() };
    // Waiters of a value that dies unavailable can never run; drop them.
    if word & INLINE_READY != 0 {
        // SAFETY: exclusive access; the slot holds a published closure.
        unsafe { waiters::consume_inline(&hdr.inline, false) };
    }
    // SAFETY: exclusive access to the list.
    unsafe { waiters::drop_list((word & WAITERS_MASK) as *mut WaiterHeader) };
    let state = word & STATE_MASK;
    // SAFETY: exclusive access.
    let link = hdr.link.with(|p| unsafe { *p });
    match hdr.kind {
        AsyncValueKind::Concrete => {
            let payload_alive = match state {
                CONSTRUCTED | CONCRETE => true,
                ERROR => link & PAYLOAD_KEPT != 0,
                _ => false,
            };
            if payload_alive {
                // SAFETY: payload constructed and never dropped.
                unsafe { (hdr.vtable.drop_payload)(h) };
            }
            if state == ERROR {
                // SAFETY: `link` holds the boxed diagnostic set by set_error.
                drop(unsafe { Box::from_raw((link & !PAYLOAD_KEPT) as *mut Diagnostic) });
            }
        }
        AsyncValueKind::Error => {
            // SAFETY: error-kind blocks always own a boxed diagnostic.
            drop(unsafe { Box::from_raw(link as *mut Diagnostic) });
        }
        AsyncValueKind::Indirect => {
            if is_available(word) {
                // SAFETY: a resolved indirect owns one reference to its target.
                unsafe { drop_ref(NonNull::new_unchecked(link as *mut Header)) };
            }
        }
    }
    if hdr.counted {
        live::add(-1);
    }
    // SAFETY: the payload (if any) is dropped; free the block.
    unsafe { (hdr.vtable.free)(h) };
}
