//! `and_then` callbacks, stored without trait objects: each closure sits in
//! place next to a type-erased `call` function pointer.
//!
//! * The *inline slot* ([`InlineSlot`]), embedded in every value's header,
//!   holds the first callback if its closure fits in [`INLINE_WORDS`] words.
//!   The common single-waiter case thus allocates nothing, and the thread
//!   that runs the callback frees nothing.
//! * Further (or larger) callbacks get one heap node each ([`new_node`]).
//!   Nodes form a singly linked list whose head lives in the low-tag word of
//!   `Header::state`; `and_then` pushes with compare-and-swap, the thread
//!   that makes the value available takes the whole list with one swap.
//!
//! The inline callback, when present, is always the oldest one (see
//! `header.rs`), so callbacks run as: inline slot, then the list oldest first.

use std::mem::MaybeUninit;
use std::ptr;

use crate::runtime::sync::UnsafeCell;

/// Words of closure state that fit in a value's inline slot: enough for a
/// closure capturing two pointers (say, an `Arc` and an `AsyncValue`).
pub(crate) const INLINE_WORDS: usize = 2;

type InlineData = MaybeUninit<[usize; INLINE_WORDS]>;

/// Consumes the closure in an inline slot: runs it when the flag is true,
/// otherwise only drops it.
type InlineCallFn = unsafe fn(&InlineSlot, bool);

/// Consumes a heap node: runs its closure when the flag is true, otherwise
/// only drops it; frees the node either way.
type NodeCallFn = unsafe fn(*mut WaiterHeader, bool);

/// The callback slot embedded in a value's header. Written only by the
/// thread that claimed it (`Header::inline_taken`), before its release CAS
/// sets `INLINE_READY`; read only by the thread whose acquire swap took
/// `INLINE_READY`, by the claiming thread itself, or by the thread
/// destroying the value.
#[repr(C)]
pub(crate) struct InlineSlot {
    call: UnsafeCell<MaybeUninit<InlineCallFn>>,
    data: UnsafeCell<InlineData>,
}

impl InlineSlot {
    /// An empty slot (nothing is written: both fields are uninitialized).
    #[inline(always)]
    pub(crate) fn new() -> Self {
        InlineSlot {
            call: UnsafeCell::new(MaybeUninit::uninit()),
            data: UnsafeCell::new(MaybeUninit::uninit()),
        }
    }
}

/// Whether a closure of type `F` fits in the inline slot (a constant).
#[inline(always)]
pub(crate) const fn fits_inline<F>() -> bool {
    size_of::<F>() <= size_of::<InlineData>() && align_of::<F>() <= align_of::<InlineData>()
}

/// Moves `f` into the inline slot.
///
/// SAFETY: `fits_inline::<F>()`; the caller claimed `slot` (it is the only
/// thread that will ever write it) and has not published it yet.
#[inline(always)]
pub(crate) unsafe fn init_inline<F: FnOnce() + Send + 'static>(slot: &InlineSlot, f: F) {
    debug_assert!(fits_inline::<F>());
    // SAFETY: exclusive per the contract; `InlineData` is large and aligned
    // enough for `F` (`fits_inline`).
    unsafe {
        slot.data.with_mut(|p| p.cast::<F>().write(f));
        slot.call
            .with_mut(|p| *p = MaybeUninit::new(call_inline::<F> as InlineCallFn));
    }
}

/// `call` of an inline slot holding an `F`.
///
/// SAFETY: `slot` holds an `F` written by `init_inline::<F>`; the caller
/// owns it and consumes it once.
unsafe fn call_inline<F: FnOnce()>(slot: &InlineSlot, run: bool) {
    // SAFETY: move the closure out; the slot is never read again (it is
    // claimed for good and consumed once).
    let f = unsafe { slot.data.with_mut(|p| p.cast::<F>().read()) };
    if run {
        f();
    }
}

/// Consumes the closure in the inline slot, running it if `run`.
///
/// SAFETY: the slot was initialized by `init_inline` and the caller owns it:
/// it is the claiming thread, or it synchronized with the release CAS that
/// published the slot (acquire swap, or exclusive access in destruction).
/// Consumed once.
#[inline(always)]
pub(crate) unsafe fn consume_inline(slot: &InlineSlot, run: bool) {
    // SAFETY: `call` was written with the closure, per the contract.
    unsafe {
        let call = slot.call.with(|p| (*p).assume_init());
        call(slot, run)
    }
}

/// Common prefix of every heap node. Aligned to 16 so that a node address
/// leaves the four low bits of the state word free for tags (malloc returns
/// 16-aligned blocks anyway, so this costs nothing).
#[repr(C, align(16))]
pub(crate) struct WaiterHeader {
    /// Next (older) node. Written by the pushing thread before its release
    /// CAS; read by the thread that took the list after its acquire swap.
    next: UnsafeCell<*mut WaiterHeader>,
    call: NodeCallFn,
}

#[repr(C)]
struct WaiterNode<F> {
    header: WaiterHeader,
    f: F,
}

/// SAFETY contract: `node` was returned by [`new_node::<F>`] and is consumed.
unsafe fn call<F: FnOnce()>(node: *mut WaiterHeader, run: bool) {
    // SAFETY: the node was allocated as a `Box<WaiterNode<F>>` by `new_node`
    // and ownership is transferred to us exactly once.
    let node = unsafe { Box::from_raw(node.cast::<WaiterNode<F>>()) };
    let WaiterNode { f, .. } = *node;
    if run {
        f();
    }
}

/// Allocates a node owning `f`. The returned pointer is 16-aligned.
pub(crate) fn new_node<F: FnOnce() + Send + 'static>(f: F) -> *mut WaiterHeader {
    let node = Box::new(WaiterNode {
        header: WaiterHeader {
            next: UnsafeCell::new(ptr::null_mut()),
            call: call::<F>,
        },
        f,
    });
    Box::into_raw(node).cast::<WaiterHeader>()
}

/// SAFETY: `node` is a live node not yet published to other threads.
#[inline(always)]
pub(crate) unsafe fn set_next(node: *mut WaiterHeader, next: *mut WaiterHeader) {
    // SAFETY: the node is owned by the calling thread (not yet pushed).
    unsafe { (*node).next.with_mut(|p| *p = next) }
}

/// SAFETY: `node` is live and owned (or synchronized-with) by the caller.
unsafe fn next_of(node: *mut WaiterHeader) -> *mut WaiterHeader {
    // SAFETY: the caller took the list with an acquire operation that
    // synchronizes with the release CAS that published this node, so the
    // write of `next` happens-before this read.
    unsafe { (*node).next.with(|p| *p) }
}

/// Runs (consumes) a single node that was never published.
///
/// SAFETY: `node` came from `new_node` and is owned by the caller.
pub(crate) unsafe fn run_one(node: *mut WaiterHeader) {
    // SAFETY: forwarded contract.
    unsafe { ((*node).call)(node, true) }
}

/// Drops the nodes of a list that has not been run, on unwinding or when a
/// value dies unavailable.
struct Remaining(*mut WaiterHeader);

impl Drop for Remaining {
    fn drop(&mut self) {
        let mut p = self.0;
        while !p.is_null() {
            // SAFETY: the list is owned by this guard; each node is consumed once.
            unsafe {
                let next = next_of(p);
                ((*p).call)(p, false);
                p = next;
            }
        }
    }
}

/// Runs the callbacks taken from a state word: the inline slot's (if
/// `inline` is given) first, then every node of the list, oldest first (the
/// order in which `and_then` was called). If a callback panics, the ones
/// after it are dropped without running and the panic propagates.
///
/// SAFETY: `inline`, if given, holds a published closure and `head` is the
/// head of a list, both taken with one acquire swap; the caller owns them.
#[inline]
pub(crate) unsafe fn run_all(inline: Option<&InlineSlot>, head: *mut WaiterHeader) {
    if let Some(slot) = inline {
        // Drops the list if the inline callback panics.
        let rest = Remaining(head);
        // SAFETY: owned per the contract, consumed once.
        unsafe { consume_inline(slot, true) };
        std::mem::forget(rest);
    }
    if head.is_null() {
        return;
    }
    // The list is newest-first; reverse it so callbacks run in FIFO order.
    let mut reversed: *mut WaiterHeader = ptr::null_mut();
    let mut p = head;
    while !p.is_null() {
        // SAFETY: nodes of an owned list; relinking them is exclusive.
        unsafe {
            let next = next_of(p);
            (*p).next.with_mut(|n| *n = reversed);
            reversed = p;
            p = next;
        }
    }
    let mut rest = Remaining(reversed);
    while !rest.0.is_null() {
        let node = rest.0;
        // SAFETY: `node` is owned; advance the guard before consuming it so
        // that a panicking callback does not see it dropped twice.
        unsafe {
            rest.0 = next_of(node);
            ((*node).call)(node, true);
        }
    }
}

/// Drops every node of a list without running the callbacks.
///
/// SAFETY: `head` is the head of a list the caller owns exclusively.
pub(crate) unsafe fn drop_list(head: *mut WaiterHeader) {
    drop(Remaining(head));
}
