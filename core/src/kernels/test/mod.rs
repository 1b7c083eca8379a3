//! `tfrt_test.*` kernels (and the `vt.*` value-tracking kernels and the
//! `tfrt_tutorial.*` ones) used by the reference test suites.

mod async_kernels;
mod atomic;
mod benchmark;
mod debug_info;
mod misc;
mod native;
mod resource;
mod simple;
mod strings;
mod sync_kernels;
mod tutorial;
mod value_tracking;

#[cfg(test)]
mod benchmark_tests;
#[cfg(test)]
mod native_tests;
#[cfg(test)]
mod sync_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod value_tracking_tests;

pub use async_kernels::MAX_SLEEP_MICROS;
pub use benchmark::{MAX_BENCHMARK_RUNS, MAX_BENCHMARK_SECONDS};
pub use strings::MAX_STRING_BYTES;

use crate::exec::KernelRegistry;

/// Registers every `tfrt_test.*`, `tfrt_tutorial.*` and `vt.*` kernel in
/// `registry`.
pub fn register(registry: &mut KernelRegistry) {
    async_kernels::register(registry);
    atomic::register(registry);
    benchmark::register(registry);
    debug_info::register(registry);
    misc::register(registry);
    native::register(registry);
    resource::register(registry);
    simple::register(registry);
    strings::register(registry);
    sync_kernels::register(registry);
    tutorial::register(registry);
    value_tracking::register(registry);
}
