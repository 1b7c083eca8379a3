//! `tfrt.*` basic kernels, one module per family.

mod arithmetic;
mod cast;
mod chain;
mod compare;
mod constants;
mod control_flow;
mod parallel;
mod print;

pub(crate) use control_flow::when_all_available;
pub use parallel::{MAX_BLOCKS_QUEUED, MAX_PARALLEL_BLOCKS};

use crate::exec::KernelRegistry;

/// Registers every `tfrt.*` basic kernel in `registry`.
pub fn register(registry: &mut KernelRegistry) {
    constants::register(registry);
    arithmetic::register(registry);
    compare::register(registry);
    cast::register(registry);
    print::register(registry);
    chain::register(registry);
    control_flow::register(registry);
    parallel::register(registry);
}

#[cfg(test)]
mod tests;
