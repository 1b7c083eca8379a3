//! Atomic counters for concurrency tests: `tfrt_test.atomic.create.i32`,
//! `inc.i32`, `add.i32` and `get.i32` (which also returns a chain).

use std::sync::atomic::{AtomicI32, Ordering};

use crate::exec::{Argument, KernelRegistry};
use crate::runtime::{AsyncValue, Chain};

crate::kernel! {
    fn create() -> AsyncValue { AsyncValue::available(AtomicI32::new(0)) }
}

crate::kernel! {
    fn inc(counter: Argument<AtomicI32>) -> Chain {
        counter.fetch_add(1, Ordering::SeqCst);
        Chain
    }
}

crate::kernel! {
    fn add(counter: Argument<AtomicI32>, value: Argument<i32>) -> Chain {
        counter.fetch_add(*value, Ordering::SeqCst);
        Chain
    }
}

crate::kernel! {
    fn get(counter: Argument<AtomicI32>) -> (i32, Chain) {
        (counter.load(Ordering::SeqCst), Chain)
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.atomic.create.i32", create);
    registry.add_kernel("tfrt_test.atomic.inc.i32", inc);
    registry.add_kernel("tfrt_test.atomic.add.i32", add);
    registry.add_kernel("tfrt_test.atomic.get.i32", get);
}
