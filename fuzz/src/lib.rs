//! Bodies of the cargo-fuzz targets (`fuzz_targets/` holds one thin shell
//! per target). Each body also runs under `cargo test`, over the seeds in
//! `corpus/fuzz/<target>/`, their truncations and mutations, and seeded
//! random inputs, so that a regression shows without a fuzzing run.

pub mod abi;
pub mod async_value;
pub mod bef_file;
pub mod befview;
pub mod btf;
pub mod bytecode;
pub mod coverage;
pub mod exec;
pub mod passes;
pub mod repro;
#[cfg(test)]
mod tests;
pub mod text;
pub mod trace;
pub mod verdict;

/// Counts each thread's bytes, so that a body can bound what one input
/// needs (`trace_read`).
#[global_allocator]
static ALLOCATOR: bef_test_support::counting::Counting = bef_test_support::counting::Counting;

/// The standard kernels, registered once per process.
pub(crate) fn standard_registry() -> &'static bef::exec::KernelRegistry {
    static REGISTRY: std::sync::OnceLock<bef::exec::KernelRegistry> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut registry = bef::exec::KernelRegistry::new();
        bef::kernels::register_all(&mut registry);
        registry
    })
}
