//! `AsyncValue`: a reference-counted, lock-free future/promise holding its
//! payload in place (see `header.rs` for the memory layout and state bits).
//!
//! * [`AsyncValue`] is the type-erased counted handle; [`AsyncValueRef<T>`]
//!   the typed one (a zero-cost wrapper). Both are one pointer wide.
//! * Reading is always checked: [`AsyncValue::get`] compares the payload's
//!   type id and reports unavailability, errors and type mismatches as a
//!   [`GetError`], in release builds too.
//! * Writing (emplace / set_state_concrete / set_error / forward_to) is done
//!   once: the first writer claims the value, later writers are refused
//!   (`try_*`) or panic (the plain forms).
//! * Callbacks added with [`AsyncValue::and_then`] run on the thread that
//!   makes the value available, in the order they were added, or at once on
//!   the caller's thread if the value is already available.

#[cfg(not(loom))]
mod block;
mod header;
mod live;
#[cfg(test)]
mod tests;
mod waiters;

use std::any::TypeId;
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::ptr::NonNull;

pub use self::header::AsyncValueKind;
use self::header::{
    CLAIMED, CONCRETE, CONSTRUCTED, ERROR, Header, INLINE_READY, Init, NoPayload, PAYLOAD_KEPT,
    STATE_MASK, UNCONSTRUCTED, UnknownType, VTable, VTables, WAITERS_MASK, is_available, vtable_is,
};
pub use self::live::{live_async_values, live_async_values_tracked, track_live_async_values};
use super::diagnostic::{Diagnostic, ErrorCode};
use super::stack_room::with_stack_room;
use super::sync::Ordering;

/// The state of an AsyncValue. `Concrete` and `Error` are terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AsyncState {
    /// No payload yet.
    Unconstructed,
    /// Payload constructed but not yet published.
    Constructed,
    /// Available with a payload.
    Concrete,
    /// Available with an error.
    Error,
}

impl AsyncState {
    fn from_bits(bits: usize) -> Self {
        match bits & STATE_MASK {
            UNCONSTRUCTED => AsyncState::Unconstructed,
            CONSTRUCTED => AsyncState::Constructed,
            CONCRETE => AsyncState::Concrete,
            _ => AsyncState::Error,
        }
    }

    /// True for `Concrete` and `Error`.
    pub fn is_available(self) -> bool {
        matches!(self, AsyncState::Concrete | AsyncState::Error)
    }
}

/// Why a read of an AsyncValue failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GetError<'a> {
    /// The value is not available yet.
    Unavailable,
    /// The value is an error.
    Error(&'a Diagnostic),
    /// The payload has another type than the one asked for.
    TypeMismatch {
        /// The type the reader asked for.
        expected: &'static str,
        /// The type of the payload.
        actual: &'static str,
    },
}

impl fmt::Display for GetError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GetError::Unavailable => f.write_str("async value is not available"),
            GetError::Error(d) => write!(f, "async value is an error: {d}"),
            GetError::TypeMismatch { expected, actual } => {
                write!(
                    f,
                    "async value type mismatch: expected '{expected}', found '{actual}'"
                )
            }
        }
    }
}

impl std::error::Error for GetError<'_> {}

/// Why a write to an AsyncValue was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetError {
    /// The value is already available, or another writer is setting it.
    #[error("async value is already available or being set by another writer")]
    AlreadySet,
    /// There is no constructed payload to make available.
    #[error("async value has no constructed payload to make concrete")]
    NotConstructed,
    /// Only an indirect value can be forwarded to another.
    #[error("only indirect async values can be forwarded")]
    NotIndirect,
    /// The payload offered has another type than the value holds.
    #[error("cannot emplace a '{actual}' into an async value of type '{expected}'")]
    TypeMismatch {
        /// The value's payload type.
        expected: &'static str,
        /// The type offered.
        actual: &'static str,
    },
}

/// A refused write, giving the argument back.
#[derive(Debug)]
pub struct Rejected<T> {
    /// The argument of the refused write.
    pub value: T,
    /// Why the write was refused.
    pub reason: SetError,
}

/// A type-erased, reference-counted handle to an AsyncValue.
#[repr(transparent)]
pub struct AsyncValue {
    ptr: NonNull<Header>,
}

// SAFETY: every payload is `Send + Sync` (enforced by the constructors),
// callbacks are `Send`, and all shared mutable state is synchronized through
// the state word and the reference count.
unsafe impl Send for AsyncValue {}
// SAFETY: see above; `&AsyncValue` only permits synchronized operations.
unsafe impl Sync for AsyncValue {}

/// A raw block pointer that may cross threads inside a callback.
struct SendPtr(NonNull<Header>);
// SAFETY: only used to re-acquire a reference to a block kept alive by the
// thread running the callback (see `try_forward_to`).
unsafe impl Send for SendPtr {}

impl AsyncValue {
    fn from_block(ptr: NonNull<Header>) -> Self {
        AsyncValue { ptr }
    }

    /// Makes a new reference from a raw block pointer.
    ///
    /// SAFETY: `ptr` is live and some reference to it is held for the
    /// duration of the call.
    unsafe fn clone_from_raw(ptr: NonNull<Header>) -> Self {
        // SAFETY: forwarded contract.
        unsafe { header::add_ref(ptr) };
        AsyncValue { ptr }
    }

    #[inline(always)]
    fn header(&self) -> &Header {
        // SAFETY: a handle owns a reference, so the block is live.
        unsafe { self.ptr.as_ref() }
    }

    #[inline]
    fn with_payload<T: Send + Sync + 'static>(init: Init, payload: Option<T>) -> Self {
        let vtable: &'static VTable = &VTables::<T>::CONCRETE;
        Self::from_block(header::allocate(vtable, init, payload))
    }

    /// An available value holding `value`.
    #[inline]
    pub fn available<T: Send + Sync + 'static>(value: T) -> Self {
        let init = Init {
            kind: AsyncValueKind::Concrete,
            state: CONCRETE | CLAIMED,
            keep_payload_on_error: false,
            link: 0,
        };
        Self::with_payload(init, Some(value))
    }

    /// An unavailable value whose payload `value` is already constructed;
    /// [`set_state_concrete`](Self::set_state_concrete) publishes it. If an
    /// error is set instead, the payload is dropped.
    pub fn constructed<T: Send + Sync + 'static>(value: T) -> Self {
        Self::constructed_impl(value, false)
    }

    /// Like [`constructed`](Self::constructed), but an error keeps the
    /// payload alive and readable through [`kept_payload`](Self::kept_payload).
    pub fn constructed_keep_payload_on_error<T: Send + Sync + 'static>(value: T) -> Self {
        Self::constructed_impl(value, true)
    }

    fn constructed_impl<T: Send + Sync + 'static>(value: T, keep: bool) -> Self {
        let init = Init {
            kind: AsyncValueKind::Concrete,
            state: CONSTRUCTED,
            keep_payload_on_error: keep,
            link: 0,
        };
        Self::with_payload(init, Some(value))
    }

    /// An unavailable value with room for a `T`, filled by
    /// [`emplace`](Self::emplace).
    pub fn unconstructed<T: Send + Sync + 'static>() -> Self {
        let init = Init {
            kind: AsyncValueKind::Concrete,
            state: UNCONSTRUCTED,
            keep_payload_on_error: false,
            link: 0,
        };
        Self::with_payload::<T>(init, None)
    }

    /// An available error value.
    pub fn error(diag: impl Into<Diagnostic>) -> Self {
        let diag = Box::new(diag.into());
        let init = Init {
            kind: AsyncValueKind::Error,
            state: ERROR | CLAIMED,
            keep_payload_on_error: false,
            link: Box::into_raw(diag) as usize,
        };
        let vtable: &'static VTable = &VTables::<header::ErrorType>::NO_PAYLOAD;
        Self::from_block(header::allocate::<NoPayload>(vtable, init, None))
    }

    /// An unresolved indirect value of unknown type, to be pointed at
    /// another value with [`forward_to`](Self::forward_to).
    pub fn indirect() -> Self {
        Self::indirect_with_vtable(&VTables::<UnknownType>::NO_PAYLOAD)
    }

    /// An unresolved indirect value that expects a `T`: forwarding it to a
    /// concrete value of another type makes it an error instead.
    pub fn indirect_of<T: Send + Sync + 'static>() -> Self {
        Self::indirect_with_vtable(&VTables::<T>::NO_PAYLOAD)
    }

    fn indirect_with_vtable(vtable: &'static VTable) -> Self {
        let init = Init {
            kind: AsyncValueKind::Indirect,
            state: UNCONSTRUCTED,
            keep_payload_on_error: false,
            link: 0,
        };
        Self::from_block(header::allocate::<NoPayload>(vtable, init, None))
    }

    /// The kind fixed at creation.
    pub fn kind(&self) -> AsyncValueKind {
        self.header().kind
    }

    /// The current state (for a resolved indirect value, its target's).
    #[inline]
    pub fn state(&self) -> AsyncState {
        AsyncState::from_bits(self.header().state.load(Ordering::Acquire))
    }

    /// True once the value is concrete or an error.
    #[inline]
    pub fn is_available(&self) -> bool {
        is_available(self.header().state.load(Ordering::Acquire))
    }

    /// True while the value is neither concrete nor an error.
    pub fn is_unavailable(&self) -> bool {
        !self.is_available()
    }

    /// True when the value is available with a payload.
    pub fn is_concrete(&self) -> bool {
        self.state() == AsyncState::Concrete
    }

    /// True when the value is available with an error.
    pub fn is_error(&self) -> bool {
        self.state() == AsyncState::Error
    }

    /// The block holding the data: the value itself, or the target of a
    /// resolved indirect value. `None` if unavailable. Inlined: every
    /// read goes through it.
    #[inline]
    fn resolved(&self) -> Option<(&Header, usize)> {
        let h = self.header();
        let word = h.state.load(Ordering::Acquire);
        if !is_available(word) {
            return None;
        }
        if h.kind != AsyncValueKind::Indirect {
            return Some((h, word & STATE_MASK));
        }
        // SAFETY: the acquire load saw an available state, so the target
        // pointer written before the release swap is visible and immutable;
        // the indirect value owns a reference to the target, which lives at
        // least as long as `self`.
        let target = h.link.with(|p| unsafe { *p }) as *const Header;
        // SAFETY: as above: the target outlives `self`.
        Some((unsafe { &*target }, word & STATE_MASK))
    }

    /// Whether the payload type is `T` (for an unresolved indirect value,
    /// whether it expects `T`).
    pub fn is_type<T: 'static>(&self) -> bool {
        let h = self.resolved().map_or(self.header(), |(h, _)| h);
        vtable_is::<T>(h.vtable)
    }

    /// The payload type's name (for error values, an internal marker type).
    pub fn type_name(&self) -> &'static str {
        let h = self.resolved().map_or(self.header(), |(h, _)| h);
        (h.vtable.type_name)()
    }

    /// Reads the payload as a `T`.
    #[inline]
    pub fn get<T: 'static>(&self) -> Result<&T, GetError<'_>> {
        match self.resolved() {
            None => Err(GetError::Unavailable),
            Some((h, CONCRETE)) => {
                if !vtable_is::<T>(h.vtable) {
                    return Err(GetError::TypeMismatch {
                        expected: std::any::type_name::<T>(),
                        actual: (h.vtable.type_name)(),
                    });
                }
                // SAFETY: the type ids match, so the block is an `Inner<T>`;
                // the payload was written before the release swap we acquired
                // and is immutable while any reference is alive.
                let cell = unsafe { header::payload::<T>(NonNull::from(h)) };
                // SAFETY: the payload is initialised (see above).
                Ok(cell.with(|p| unsafe { (*p).assume_init_ref() }))
            }
            Some((h, _)) => Err(GetError::Error(Self::diagnostic_of(h))),
        }
    }

    /// The diagnostic of an error-state block.
    fn diagnostic_of(h: &Header) -> &Diagnostic {
        // SAFETY: the caller observed the error state with an acquire load,
        // so the diagnostic pointer (written before the release swap) is set
        // and immutable while the block lives.
        let link = h.link.with(|p| unsafe { *p });
        // SAFETY: the link is the boxed diagnostic (see above), freed only
        // with the block.
        unsafe { &*((link & !PAYLOAD_KEPT) as *const Diagnostic) }
    }

    /// The error, if the value is available as an error.
    pub fn error_diagnostic(&self) -> Option<&Diagnostic> {
        match self.resolved() {
            Some((h, ERROR)) => Some(Self::diagnostic_of(h)),
            _ => None,
        }
    }

    /// The payload of a value that became an error but was created with
    /// [`constructed_keep_payload_on_error`](Self::constructed_keep_payload_on_error).
    pub fn kept_payload<T: 'static>(&self) -> Option<&T> {
        let (h, state) = self.resolved()?;
        if state != ERROR || h.kind != AsyncValueKind::Concrete {
            return None;
        }
        // SAFETY: see `diagnostic_of`.
        let link = h.link.with(|p| unsafe { *p });
        if link & PAYLOAD_KEPT == 0 || !vtable_is::<T>(h.vtable) {
            return None;
        }
        // SAFETY: the payload is kept (never dropped before destruction) and
        // its type is `T`; it was constructed before the release swap.
        let cell = unsafe { header::payload::<T>(NonNull::from(h)) };
        // SAFETY: the kept payload is initialised (see above).
        Some(cell.with(|p| unsafe { (*p).assume_init_ref() }))
    }

    /// Current number of references (a snapshot, for tests and debugging).
    pub fn ref_count(&self) -> u32 {
        self.header().refcount.load(Ordering::Relaxed)
    }

    /// Whether this handle is the only reference to the value: for a
    /// resolved indirect value, also the only reference to its target (the
    /// indirect value holds one), as TFRT's `IsUnique`.
    pub fn is_unique(&self) -> bool {
        if self.ref_count() != 1 {
            return false;
        }
        if self.header().kind != AsyncValueKind::Indirect {
            return true;
        }
        match self.resolved() {
            Some((target, _)) => target.refcount.load(Ordering::Acquire) == 1,
            None => true,
        }
    }

    /// Adds `n` references at once (one atomic operation), each to be
    /// released by a later [`from_raw`](Self::from_raw) + drop. Used by the
    /// executor, whose registers hand one reference to each user.
    #[inline]
    pub fn add_refs(&self, n: u32) {
        if n == 0 {
            return;
        }
        // SAFETY: we hold a reference, so the block is live.
        unsafe { header::add_refs(self.ptr, n) }
    }

    /// Gives up this handle's reference, returning the raw block pointer.
    #[inline]
    pub fn into_raw(self) -> NonNull<()> {
        let ptr = self.ptr.cast();
        std::mem::forget(self);
        ptr
    }

    /// Re-forms a handle from a pointer made by [`into_raw`](Self::into_raw).
    ///
    /// # Safety
    /// `ptr` came from `into_raw` (possibly of another handle to the same
    /// value) and the caller owns one reference that this handle takes over
    /// (one from `into_raw`, or one added by [`add_refs`](Self::add_refs)).
    #[inline]
    pub unsafe fn from_raw(ptr: NonNull<()>) -> Self {
        AsyncValue { ptr: ptr.cast() }
    }

    /// Borrows the value behind a raw pointer without taking a reference.
    ///
    /// # Safety
    /// `ptr` came from `into_raw` and a reference to the value is held
    /// elsewhere for as long as the returned borrow lives.
    #[inline]
    pub unsafe fn borrow_raw(ptr: &NonNull<()>) -> &AsyncValue {
        // SAFETY: `AsyncValue` is a transparent wrapper of a `NonNull`
        // pointer, so a `&NonNull<()>` to a block has the layout of a
        // `&AsyncValue`; liveness is the caller's contract.
        unsafe { &*(ptr as *const NonNull<()>).cast::<AsyncValue>() }
    }

    /// Whether two handles point at the same value.
    pub fn ptr_eq(a: &AsyncValue, b: &AsyncValue) -> bool {
        a.ptr == b.ptr
    }

    /// Runs `f` once the value is available: at once on this thread if it
    /// already is, otherwise on the thread that makes it available.
    /// Callbacks run in the order they were added. If the value is destroyed
    /// while unavailable, its callbacks are dropped without running.
    #[inline]
    pub fn and_then<F: FnOnce() + Send + 'static>(&self, f: F) {
        let h = self.header();
        let cur = h.state.load(Ordering::Acquire);
        if is_available(cur) {
            f();
            return;
        }
        // `fits_inline` is a constant per `F`: one of these branches remains.
        if waiters::fits_inline::<F>() {
            if !h.inline_taken.load(Ordering::Relaxed)
                && !h.inline_taken.swap(true, Ordering::Relaxed)
            {
                // SAFETY: `fits_inline`, and the swap returned false: this
                // thread claimed the slot, once for the value's lifetime, so
                // nobody else writes it; it is not published yet.
                unsafe { waiters::init_inline(&h.inline, f) };
                self.publish_inline(cur);
                return;
            }
        } else if !h.inline_taken.load(Ordering::Relaxed) {
            // No later callback may take the slot (it runs first): FIFO.
            h.inline_taken.store(true, Ordering::Relaxed);
        }
        self.push_node(waiters::new_node(f), cur);
    }

    /// Sets `INLINE_READY` for the slot this thread just filled, or runs the
    /// callback at once if the value became available meanwhile.
    #[inline]
    fn publish_inline(&self, mut cur: usize) {
        let h = self.header();
        loop {
            // Release publishes the slot to the writer's acquire swap.
            // Acquire on failure: if the value became available, the
            // callback must see its data.
            match h.state.compare_exchange_weak(
                cur,
                cur | INLINE_READY,
                Ordering::Release,
                Ordering::Acquire,
            ) {
                Ok(_) => return,
                Err(actual) => {
                    cur = actual;
                    if is_available(cur) {
                        // SAFETY: never published; this thread still owns
                        // the slot it filled.
                        unsafe { waiters::consume_inline(&h.inline, true) };
                        return;
                    }
                }
            }
        }
    }

    /// Pushes a heap node, or runs it at once if the value became available.
    fn push_node(&self, node: *mut waiters::WaiterHeader, mut cur: usize) {
        let h = self.header();
        loop {
            // SAFETY: `node` is ours until the CAS below publishes it.
            unsafe { waiters::set_next(node, (cur & WAITERS_MASK) as *mut _) };
            let new = node as usize | (cur & !WAITERS_MASK);
            // Release publishes the node (closure and `next`) to the writer's
            // acquire swap. Acquire on failure: as in `publish_inline`.
            match h
                .state
                .compare_exchange_weak(cur, new, Ordering::Release, Ordering::Acquire)
            {
                Ok(_) => return,
                Err(actual) => {
                    cur = actual;
                    if is_available(cur) {
                        // SAFETY: never published; we still own the node.
                        unsafe { waiters::run_one(node) };
                        return;
                    }
                }
            }
        }
    }

    /// Claims the single-writer right if the state satisfies `allowed`.
    /// Returns the state bits at the time of the claim.
    fn claim(&self, allowed: impl Fn(usize) -> Result<(), SetError>) -> Result<usize, SetError> {
        let h = self.header();
        let mut cur = h.state.load(Ordering::Relaxed);
        loop {
            if cur & CLAIMED != 0 {
                return Err(SetError::AlreadySet);
            }
            allowed(cur & STATE_MASK)?;
            // Relaxed suffices: only the claim's atomicity matters (state
            // bits change only under a claim, and payload data written by the
            // creator reached us with the handle).
            match h.state.compare_exchange_weak(
                cur,
                cur | CLAIMED,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(cur & STATE_MASK),
                Err(actual) => cur = actual,
            }
        }
    }

    /// Publishes an available state and runs the waiters. Caller holds the claim.
    fn publish(&self, state: usize) {
        let h = self.header();
        let prev = h.state.swap(state | CLAIMED, Ordering::AcqRel);
        debug_assert!(prev & CLAIMED != 0 && !is_available(prev));
        if prev & (INLINE_READY | WAITERS_MASK) == 0 {
            return;
        }
        let inline = (prev & INLINE_READY != 0).then_some(&h.inline);
        let run = || {
            // SAFETY: the swap took the inline callback and the list
            // exclusively (acquire).
            unsafe { waiters::run_all(inline, (prev & WAITERS_MASK) as *mut _) }
        };
        // A waiter may make another value available, whose waiters run
        // nested in this call: deep chains continue on a fresh stack segment.
        with_stack_room(run);
    }

    /// Stores `value` and makes the value concrete, running its waiters. On
    /// an indirect value, forwards it to a new available value. A
    /// constructed payload is replaced.
    pub fn try_emplace<T: Send + Sync + 'static>(&self, value: T) -> Result<(), Rejected<T>> {
        let h = self.header();
        match h.kind {
            AsyncValueKind::Indirect => {
                if self.is_available() || h.state.load(Ordering::Relaxed) & CLAIMED != 0 {
                    return Err(Rejected {
                        value,
                        reason: SetError::AlreadySet,
                    });
                }
                let expected = h.vtable.type_id;
                if expected != TypeId::of::<UnknownType>() && expected != TypeId::of::<T>() {
                    let reason = SetError::TypeMismatch {
                        expected: (h.vtable.type_name)(),
                        actual: std::any::type_name::<T>(),
                    };
                    return Err(Rejected { value, reason });
                }
                self.try_forward_to(AsyncValue::available(value))
                    .map_err(|r| Rejected {
                        value: r
                            .value
                            .take_available_payload::<T>()
                            .expect("fresh unshared value"),
                        reason: r.reason,
                    })
            }
            AsyncValueKind::Error => Err(Rejected {
                value,
                reason: SetError::AlreadySet,
            }),
            AsyncValueKind::Concrete => {
                if !vtable_is::<T>(h.vtable) {
                    let reason = SetError::TypeMismatch {
                        expected: (h.vtable.type_name)(),
                        actual: std::any::type_name::<T>(),
                    };
                    return Err(Rejected { value, reason });
                }
                let prev = match self.claim(|_| Ok(())) {
                    Ok(s) => s,
                    Err(reason) => return Err(Rejected { value, reason }),
                };
                // SAFETY: we hold the claim, the type is `T`, and no reader
                // touches the payload before the state becomes concrete.
                let cell = unsafe { header::payload::<T>(self.ptr) };
                // SAFETY: exclusive access under the claim (see above); the
                // old payload is dropped only if it was constructed.
                cell.with_mut(|p| unsafe {
                    if prev == CONSTRUCTED {
                        (*p).assume_init_drop();
                    }
                    (*p).write(value);
                });
                self.publish(CONCRETE);
                Ok(())
            }
        }
    }

    /// Takes the payload out of a fresh, unshared available value (used to
    /// give a refused value back to the caller).
    fn take_available_payload<T: Send + Sync + 'static>(self) -> Option<T> {
        let h = self.header();
        if h.kind != AsyncValueKind::Concrete
            || !vtable_is::<T>(h.vtable)
            || self.ref_count() != 1
            || !self.is_concrete()
        {
            return None;
        }
        // SAFETY: sole owner of a concrete `T` block: move the payload out,
        // then mark the block unconstructed so destruction does not drop it.
        let cell = unsafe { header::payload::<T>(self.ptr) };
        // SAFETY: the payload is a constructed `T` that nobody else reads
        // (see above); the state change below forgets it.
        let value = cell.with(|p| unsafe { (*p).assume_init_read() });
        h.state.store(UNCONSTRUCTED | CLAIMED, Ordering::Relaxed);
        Some(value)
    }

    /// Like [`try_emplace`](Self::try_emplace), panicking if refused.
    #[track_caller]
    pub fn emplace<T: Send + Sync + 'static>(&self, value: T) {
        if let Err(r) = self.try_emplace(value) {
            panic!("AsyncValue::emplace: {}", r.reason);
        }
    }

    /// Publishes a constructed payload (Constructed → Concrete).
    pub fn try_set_state_concrete(&self) -> Result<(), SetError> {
        if self.header().kind != AsyncValueKind::Concrete {
            return Err(if self.is_available() {
                SetError::AlreadySet
            } else {
                SetError::NotConstructed
            });
        }
        self.claim(|s| match s {
            CONSTRUCTED => Ok(()),
            UNCONSTRUCTED => Err(SetError::NotConstructed),
            _ => Err(SetError::AlreadySet),
        })?;
        self.publish(CONCRETE);
        Ok(())
    }

    /// Like [`try_set_state_concrete`](Self::try_set_state_concrete), panicking if refused.
    #[track_caller]
    pub fn set_state_concrete(&self) {
        if let Err(e) = self.try_set_state_concrete() {
            panic!("AsyncValue::set_state_concrete: {e}");
        }
    }

    /// Makes the value an error, running its waiters. A constructed payload
    /// is dropped unless the value keeps its payload on error. On an
    /// indirect value, forwards it to a new error value.
    pub fn try_set_error(&self, diag: impl Into<Diagnostic>) -> Result<(), Rejected<Diagnostic>> {
        let diag = diag.into();
        let h = self.header();
        match h.kind {
            AsyncValueKind::Error => Err(Rejected {
                value: diag,
                reason: SetError::AlreadySet,
            }),
            AsyncValueKind::Indirect => {
                if h.state.load(Ordering::Relaxed) & CLAIMED != 0 {
                    return Err(Rejected {
                        value: diag,
                        reason: SetError::AlreadySet,
                    });
                }
                self.try_forward_to(AsyncValue::error(diag))
                    .map_err(|r| Rejected {
                        value: r
                            .value
                            .error_diagnostic()
                            .cloned()
                            .unwrap_or_else(|| Diagnostic::new("")),
                        reason: r.reason,
                    })
            }
            AsyncValueKind::Concrete => {
                let prev = match self.claim(|_| Ok(())) {
                    Ok(s) => s,
                    Err(reason) => {
                        return Err(Rejected {
                            value: diag,
                            reason,
                        });
                    }
                };
                let mut tag = 0;
                if prev == CONSTRUCTED {
                    if h.keep_payload_on_error {
                        tag = PAYLOAD_KEPT;
                    } else {
                        // SAFETY: claimed, payload constructed, no reader can
                        // access it before an available state is published.
                        unsafe { (h.vtable.drop_payload)(self.ptr) };
                    }
                }
                let link = Box::into_raw(Box::new(diag)) as usize | tag;
                // SAFETY: claimed: we are the only writer of `link`, and no
                // reader looks at it before the release swap in `publish`.
                h.link.with_mut(|p| unsafe { *p = link });
                self.publish(ERROR);
                Ok(())
            }
        }
    }

    /// Like [`try_set_error`](Self::try_set_error), panicking if refused.
    #[track_caller]
    pub fn set_error(&self, diag: impl Into<Diagnostic>) {
        if let Err(r) = self.try_set_error(diag) {
            panic!("AsyncValue::set_error: {}", r.reason);
        }
    }

    /// Points an unresolved indirect value at `target`. If `target` is
    /// available, this value becomes available now with its state; if not,
    /// it becomes available when `target` does (on that thread). A chain of
    /// indirect values collapses: a resolved indirect value always points at
    /// a concrete or error value. Forwarding a value to itself makes it an
    /// error. Longer cycles are never resolved.
    pub fn try_forward_to(&self, target: AsyncValue) -> Result<(), Rejected<AsyncValue>> {
        if self.header().kind != AsyncValueKind::Indirect {
            return Err(Rejected {
                value: target,
                reason: SetError::NotIndirect,
            });
        }
        if let Err(reason) = self.claim(|_| Ok(())) {
            return Err(Rejected {
                value: target,
                reason,
            });
        }
        if AsyncValue::ptr_eq(self, &target) {
            drop(target);
            let diag = Diagnostic::new("indirect async value forwarded to itself")
                .with_code(ErrorCode::Internal);
            self.resolve(AsyncValue::error(diag));
            return Ok(());
        }
        if target.is_available() {
            self.resolve(target);
            return Ok(());
        }
        let this = self.clone();
        let raw = SendPtr(target.ptr);
        target.and_then(move || {
            let raw = raw;
            // SAFETY: callbacks run either inline in `and_then` (while the
            // caller still holds `target`) or on the thread that makes the
            // target available, which holds a reference to it; so the block
            // is live. We capture no reference so that a target dropped
            // unavailable is freed (dropping this callback) instead of
            // keeping itself alive through its own waiter list.
            let target = unsafe { AsyncValue::clone_from_raw(raw.0) };
            this.resolve(target);
        });
        Ok(())
    }

    /// Like [`try_forward_to`](Self::try_forward_to), panicking if refused.
    #[track_caller]
    pub fn forward_to(&self, target: AsyncValue) {
        if let Err(r) = self.try_forward_to(target) {
            panic!("AsyncValue::forward_to: {}", r.reason);
        }
    }

    /// Completes a claimed indirect value with an available `target`.
    fn resolve(&self, target: AsyncValue) {
        let mut target = target;
        if target.header().kind == AsyncValueKind::Indirect {
            // Collapse: an available indirect value points at a non-indirect one.
            let (inner, _) = target.resolved().expect("available target");
            // SAFETY: `inner` is kept alive by `target`, which we hold.
            let inner = unsafe { AsyncValue::clone_from_raw(NonNull::from(inner)) };
            target = inner;
        }
        let expected = self.header().vtable.type_id;
        let th = target.header();
        if expected != TypeId::of::<UnknownType>()
            && th.kind == AsyncValueKind::Concrete
            && target.is_concrete()
            && th.vtable.type_id != expected
        {
            let diag = Diagnostic::new(format!(
                "indirect async value of type '{}' forwarded to a value of type '{}'",
                (self.header().vtable.type_name)(),
                (th.vtable.type_name)()
            ))
            .with_code(ErrorCode::Internal);
            target = AsyncValue::error(diag);
        }
        let state = target.header().state.load(Ordering::Acquire) & STATE_MASK;
        debug_assert!(state >= CONCRETE);
        let link = target.ptr.as_ptr() as usize;
        std::mem::forget(target);
        // SAFETY: claimed: sole writer of `link`, published by the swap.
        self.header().link.with_mut(|p| unsafe { *p = link });
        self.publish(state);
    }

    /// Checked conversion to a typed handle: succeeds when the payload is a
    /// `T`, the value is an error, or it is an indirect value expecting `T`
    /// or an unknown type.
    pub fn downcast<T: Send + Sync + 'static>(self) -> Result<AsyncValueRef<T>, AsyncValue> {
        let ok = match self.resolved() {
            Some((h, ERROR)) => h.kind != AsyncValueKind::Concrete || vtable_is::<T>(h.vtable),
            Some((h, _)) => vtable_is::<T>(h.vtable),
            None => {
                let id = self.header().vtable.type_id;
                id == TypeId::of::<T>() || id == TypeId::of::<UnknownType>()
            }
        };
        if ok {
            Ok(AsyncValueRef {
                value: ManuallyDrop::new(self),
                _marker: PhantomData,
            })
        } else {
            Err(self)
        }
    }
}

impl Clone for AsyncValue {
    #[inline]
    fn clone(&self) -> Self {
        // SAFETY: we hold a reference.
        unsafe { AsyncValue::clone_from_raw(self.ptr) }
    }
}

impl Drop for AsyncValue {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: this handle owns one reference.
        unsafe { header::drop_ref(self.ptr) }
    }
}

impl fmt::Debug for AsyncValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncValue")
            .field("kind", &self.kind())
            .field("state", &self.state())
            .field("type", &self.type_name())
            .field("error", &self.error_diagnostic())
            .finish()
    }
}

/// A typed handle to an AsyncValue expected to hold a `T`. One pointer
/// wide; dereferences to the type-erased [`AsyncValue`]. Reads are still
/// checked, so a handle built over an indirect value that later resolves to
/// another type reports a [`GetError::TypeMismatch`].
#[repr(transparent)]
pub struct AsyncValueRef<T: 'static> {
    /// Dropped by the handle's own `Drop`, which knows the payload type.
    value: ManuallyDrop<AsyncValue>,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Drop for AsyncValueRef<T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: this handle owns one reference, given up here once (the
        // inner handle is never dropped on its own).
        unsafe { header::drop_ref_typed::<T>(self.value.ptr) }
    }
}

impl<T: Send + Sync + 'static> AsyncValueRef<T> {
    fn wrap(value: AsyncValue) -> Self {
        AsyncValueRef {
            value: ManuallyDrop::new(value),
            _marker: PhantomData,
        }
    }

    /// An available value.
    #[inline]
    pub fn available(value: T) -> Self {
        Self::wrap(AsyncValue::available(value))
    }

    /// See [`AsyncValue::constructed`].
    pub fn constructed(value: T) -> Self {
        Self::wrap(AsyncValue::constructed(value))
    }

    /// See [`AsyncValue::constructed_keep_payload_on_error`].
    pub fn constructed_keep_payload_on_error(value: T) -> Self {
        Self::wrap(AsyncValue::constructed_keep_payload_on_error(value))
    }

    /// See [`AsyncValue::unconstructed`].
    pub fn unconstructed() -> Self {
        Self::wrap(AsyncValue::unconstructed::<T>())
    }

    /// An unresolved indirect value expecting a `T`.
    pub fn indirect() -> Self {
        Self::wrap(AsyncValue::indirect_of::<T>())
    }

    /// An error value typed as `T`.
    pub fn error(diag: impl Into<Diagnostic>) -> Self {
        Self::wrap(AsyncValue::error(diag))
    }

    /// Reads the payload (checked, see [`AsyncValue::get`]).
    #[inline]
    pub fn get(&self) -> Result<&T, GetError<'_>> {
        self.value.get::<T>()
    }

    /// See [`AsyncValue::kept_payload`].
    pub fn kept_payload(&self) -> Option<&T> {
        self.value.kept_payload::<T>()
    }

    /// See [`AsyncValue::try_emplace`].
    pub fn try_emplace(&self, value: T) -> Result<(), Rejected<T>> {
        self.value.try_emplace(value)
    }

    /// See [`AsyncValue::emplace`].
    #[track_caller]
    pub fn emplace(&self, value: T) {
        self.value.emplace(value)
    }

    /// The type-erased handle.
    pub fn into_untyped(self) -> AsyncValue {
        AsyncValue::from(self)
    }

    /// The type-erased handle, borrowed.
    pub fn as_untyped(&self) -> &AsyncValue {
        &self.value
    }
}

impl<T> Deref for AsyncValueRef<T> {
    type Target = AsyncValue;
    fn deref(&self) -> &AsyncValue {
        &self.value
    }
}

impl<T> Clone for AsyncValueRef<T> {
    fn clone(&self) -> Self {
        AsyncValueRef {
            value: ManuallyDrop::new(AsyncValue::clone(&self.value)),
            _marker: PhantomData,
        }
    }
}

impl<T> From<AsyncValueRef<T>> for AsyncValue {
    fn from(v: AsyncValueRef<T>) -> AsyncValue {
        let v = ManuallyDrop::new(v);
        // SAFETY: the reference moves to the returned handle; `v` is never
        // dropped, so it is given up once.
        ManuallyDrop::into_inner(unsafe { std::ptr::read(&v.value) })
    }
}

impl<T> fmt::Debug for AsyncValueRef<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}
