//! `Chain`: a payload-less value that orders side effects. A kernel that
//! must run after another takes the chain the other produced.

use super::async_value::AsyncValueRef;

/// The unit payload of chain values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chain;

/// A new available chain.
#[inline]
pub fn ready_chain() -> AsyncValueRef<Chain> {
    AsyncValueRef::available(Chain)
}

/// A new unavailable chain, made available with `emplace(Chain)`.
pub fn unavailable_chain() -> AsyncValueRef<Chain> {
    AsyncValueRef::unconstructed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_order_side_effects() {
        use std::sync::{Arc, Mutex};
        let log = Arc::new(Mutex::new(Vec::new()));
        let first = unavailable_chain();
        let l = log.clone();
        first.and_then(move || l.lock().unwrap().push("second"));
        log.lock().unwrap().push("first");
        first.emplace(Chain);
        assert_eq!(*log.lock().unwrap(), ["first", "second"]);
        assert_eq!(ready_chain().get(), Ok(&Chain));
    }
}
