//! `tfrt_test.*` kernels used by the reference test suites.

use crate::exec::KernelRegistry;

pub fn register(_registry: &mut KernelRegistry) {}
