//! The standard kernel library: `tfrt.*` basic kernels (constants,
//! arithmetic, comparisons, casts, prints, chains, control flow, parallel
//! loops) and the `tfrt_test.*` kernels the reference test suites use.
//!
//! ```
//! let mut registry = bef::exec::KernelRegistry::new();
//! bef::kernels::register_all(&mut registry);
//! assert!(registry.kernel("tfrt.add.i32").is_some());
//! ```
//!
//! Value types: i1 → `bool`, i32/i64 → `i32`/`i64`, ui32/ui64 →
//! `u32`/`u64`, f32/f64 → `f32`/`f64`, f16/bf16 → [`F16`]/[`Bf16`] (raw
//! bits, as the reference keeps them), `!tfrt.chain` → `Chain`,
//! `!tfrt.string` → `String`.

pub mod floats;
pub mod test;
pub mod tfrt;

#[cfg(test)]
mod test_support;

pub use floats::{Bf16, F16};

use crate::exec::KernelRegistry;

/// Registers every kernel and native function of the library.
pub fn register_all(registry: &mut KernelRegistry) {
    register_tfrt(registry);
    register_test(registry);
}

/// Registers the `tfrt.*` kernels.
pub fn register_tfrt(registry: &mut KernelRegistry) {
    tfrt::register(registry);
}

/// Registers the `tfrt_test.*` kernels and the test native functions.
pub fn register_test(registry: &mut KernelRegistry) {
    test::register(registry);
}
