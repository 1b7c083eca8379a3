//! Tests of the host tensor kernels.
