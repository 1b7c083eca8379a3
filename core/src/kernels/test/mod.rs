//! `tfrt_test.*` kernels used by the reference test suites.

mod async_kernels;
mod atomic;
mod benchmark;
mod native;
mod resource;
mod simple;
mod strings;

#[cfg(test)]
mod benchmark_tests;
#[cfg(test)]
mod native_tests;
#[cfg(test)]
mod tests;

use crate::exec::KernelRegistry;

pub fn register(registry: &mut KernelRegistry) {
    async_kernels::register(registry);
    atomic::register(registry);
    benchmark::register(registry);
    native::register(registry);
    resource::register(registry);
    simple::register(registry);
    strings::register(registry);
}
