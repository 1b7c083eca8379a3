//! `tfrt_test.*` kernels used by the reference test suites.

mod async_kernels;
mod atomic;

use crate::exec::KernelRegistry;

pub fn register(registry: &mut KernelRegistry) {
    async_kernels::register(registry);
    atomic::register(registry);
}
