//! Intrusive waiter nodes: one heap block per `and_then` callback holding the
//! closure in place and a type-erased `call` function pointer (no trait
//! object). Nodes form a singly linked list whose head lives in the low-tag
//! word of `Header::state`; `and_then` pushes with compare-and-swap, the
//! thread that makes the value available takes the whole list with one swap.

use std::ptr;

use crate::runtime::sync::UnsafeCell;

/// Common prefix of every waiter node. Aligned to 8 so that a node address
/// leaves the three low bits of the state word free for tags.
#[repr(C, align(8))]
pub(crate) struct WaiterHeader {
    /// Next (older) node. Written by the pushing thread before its release
    /// CAS; read by the thread that took the list after its acquire swap.
    next: UnsafeCell<*mut WaiterHeader>,
    /// Consumes the node: runs the closure when `run` is true, otherwise
    /// only drops it; frees the node either way.
    call: unsafe fn(*mut WaiterHeader, bool),
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

/// Allocates a node owning `f`. The returned pointer is 8-aligned.
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

/// Runs every node of a list taken from a state word, oldest first (the
/// order in which `and_then` was called). If a callback panics, the nodes
/// after it are dropped without running and the panic propagates.
///
/// SAFETY: `head` is the head of a list taken with an acquire swap; the
/// caller owns it exclusively.
pub(crate) unsafe fn run_list(head: *mut WaiterHeader) {
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
/// SAFETY: as for [`run_list`].
pub(crate) unsafe fn drop_list(head: *mut WaiterHeader) {
    drop(Remaining(head));
}
