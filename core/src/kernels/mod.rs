//! The standard kernel library: `tfrt.*` basic kernels (constants,
//! arithmetic, comparisons, casts, prints, chains, control flow, parallel
//! loops), the `tfrt_test.*` kernels the reference test suites use, the
//! host tensor kernels (`ts.*`, `tfrt_dht.*`, `tfrt_sht.*`, `coo.*`) and
//! the model kernels on them (`btf.*`, `eigen.matmul.*`, and the tensor
//! kernels of TFRT's MNIST and ResNet programs).
//!
//! ```
//! let mut registry = bef::exec::KernelRegistry::new();
//! bef::kernels::register_all(&mut registry);
//! assert!(registry.kernel("tfrt.add.i32").is_some());
//! ```
//!
//! Limits: kernels that take a size, a count or a duration from the
//! program check it and fail with an error value rather than allocate or
//! block without bound:
//! - `tfrt.parallel_for.i32` and `tfrt.parallel_call.i32` split their range
//!   into at most [`tfrt::MAX_PARALLEL_BLOCKS`] blocks, and keep at most
//!   [`tfrt::MAX_BLOCKS_QUEUED`] of them on the work queue at a time;
//! - `tfrt_test.usleep` and `tfrt_test.blocking.usleep` sleep at most
//!   [`test::MAX_SLEEP_MICROS`];
//! - `tfrt_test.benchmark` and `tfrt_test.sync_benchmark` make at most
//!   [`test::MAX_BENCHMARK_RUNS`] measured runs (and as many warm-up runs)
//!   for at most
//!   [`test::MAX_BENCHMARK_SECONDS`];
//! - `tfrt_test.append_string` makes strings of at most
//!   [`test::MAX_STRING_BYTES`];
//! - `btf.read_dense_tensor.*` allocates a tensor only once its dims and
//!   elements are known to be in the file, and at most
//!   [`tensor::MAX_TENSOR_BYTES`];
//! - a matrix product of at least [`tensor::PARALLEL_WORK`] multiply-adds
//!   is split into one task per worker of the work queue.
//!
//! Loops that allocate nothing per iteration (`tfrt.repeat.i32`,
//! `tfrt.while`) take any count: a long loop is a legitimate program.
//!
//! Value types: i1 → `bool`, i32/i64 → `i32`/`i64`, ui32/ui64 →
//! `u32`/`u64`, f32/f64 → `f32`/`f64`, f16/bf16 → [`F16`]/[`Bf16`] (raw
//! bits, as the reference keeps them), `!tfrt.chain` → `Chain`,
//! `!tfrt.string` → `String`.

pub mod floats;
pub mod tensor;
pub mod test;
pub mod tfrt;

#[cfg(test)]
mod signature_tests;
#[cfg(test)]
mod test_support;

pub use floats::{Bf16, F16};

use crate::exec::KernelRegistry;

/// Registers every kernel and native function of the library.
pub fn register_all(registry: &mut KernelRegistry) {
    register_tfrt(registry);
    register_test(registry);
    register_tensor(registry);
}

/// Registers the host tensor kernels: `ts.*`, `tfrt_dht.*`, `tfrt_sht.*`
/// and `coo.*`.
pub fn register_tensor(registry: &mut KernelRegistry) {
    tensor::register(registry);
}

/// Registers the `tfrt.*` kernels.
pub fn register_tfrt(registry: &mut KernelRegistry) {
    tfrt::register(registry);
}

/// Registers the `tfrt_test.*` kernels and the test native functions.
pub fn register_test(registry: &mut KernelRegistry) {
    test::register(registry);
}
