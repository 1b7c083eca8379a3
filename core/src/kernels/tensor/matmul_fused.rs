//! The fused matrix-product kernels that `bef opt --fuse-matmul-epilogue`
//! writes, for T in f32, i32 and i64:
//!
//! - `tfrt_test.matmul_bias.T (%alpha, %a, %b, %beta, %bias, %shape,
//!   %chain...) -> (!t.tensor, !tfrt.chain)` does the work of
//!   `%c = tfrt_test.broadcast.T.2 %bias, %shape` followed by
//!   `tfrt_test.matmul.T.2 %alpha, %a, %b, %beta, %c`: C of `shape`, every
//!   row the bias, then `C = alpha A B + beta C`;
//! - `tfrt_test.matmul_bias_relu.T`, the same operands and results, adds
//!   the `tfrt_test.relu_inplace.T %c` that followed.
//!
//! The results are C and the chain the last fused kernel completed. Each
//! block of the product (`matmul.rs` splits it across the workers as the
//! plain kernel does) gets its bias rows, its product and its ReLU in
//! turn while it is in cache, with the same arithmetic as the unfused
//! kernels, so C holds the same bits. Bad operands get the unfused
//! kernels' messages, checked in their order: a broadcast error makes both
//! results that error; a product error leaves C the broadcast bias and
//! makes the chain the error, as `matmul`'s chain would have been.

use super::HostTensor;
use super::matmul::{MatmulScalar, Operands, product_inputs, product_shape, run_product};
use super::mnist::{broadcast_operands, broadcast_rows};
use super::numeric::{view, view_mut};
use super::shape::TensorShape;
use crate::exec::{Argument, KernelFrame, KernelRegistry, Out};
use crate::runtime::{Chain, Diagnostic};

/// The operands both fused kernels take, read from the frame.
struct FusedOperands<'f, T> {
    alpha: Argument<'f, T>,
    a: Argument<'f, HostTensor>,
    b: Argument<'f, HostTensor>,
    beta: Argument<'f, T>,
    bias: Argument<'f, HostTensor>,
    target: Argument<'f, TensorShape>,
}

/// The broadcast, the product and (with `relu`) the ReLU, fused.
fn fused<T: MatmulScalar>(
    frame: &KernelFrame<'_>,
    operands: FusedOperands<'_, T>,
    c_out: &Out<'_, HostTensor>,
    done: &Out<'_, Chain>,
    relu: bool,
) -> Result<(), Diagnostic> {
    let FusedOperands {
        alpha,
        a,
        b,
        beta,
        bias,
        target,
    } = operands;
    // The broadcast's checks, then the product's, as the unfused kernels
    // run them.
    let (bias, c) = broadcast_operands::<T>(frame, &bias, &target, 2)?;
    let checked = product_inputs::<T>(&a, &b)
        .and_then(|(a, b)| product_shape(a, b, &c).map(|shape| (a, b, shape)));
    let (a, b, shape) = match checked {
        Ok(inputs) => inputs,
        Err(message) => {
            // The broadcast succeeded: C is the bias rows, and only the
            // product's chain is the error.
            broadcast_rows::<T>(view(&bias.read()?), view_mut(&mut c.write()?));
            c_out.emplace(HostTensor::Dense(c));
            return Err(message.into());
        }
    };
    let product = Operands {
        shape,
        alpha: *alpha,
        beta: *beta,
        a,
        b,
        c: &c,
        bias: Some(bias),
        relu,
    };
    run_product(frame, product, done)?;
    // C is handed out now, as the broadcast did; whoever reads it waits
    // for the chain (the pass fuses only then), and a block still running
    // holds it write-locked.
    c_out.emplace(HostTensor::Dense(c));
    Ok(())
}

crate::kernel! {
    /// `tfrt_test.matmul_bias.T`: broadcast and product (see the module).
    fn matmul_bias<T: MatmulScalar>(
        alpha: Argument<T>,
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        beta: Argument<T>,
        bias: Argument<HostTensor>,
        target: Argument<TensorShape>,
        c_out: Out<HostTensor>,
        done: Out<Chain>,
        frame: &KernelFrame,
    ) -> Result<(), Diagnostic> {
        let operands = FusedOperands { alpha, a, b, beta, bias, target };
        fused(frame, operands, &c_out, &done, false)
    }
}

crate::kernel! {
    /// `tfrt_test.matmul_bias_relu.T`: broadcast, product and ReLU (see
    /// the module).
    fn matmul_bias_relu<T: MatmulScalar>(
        alpha: Argument<T>,
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        beta: Argument<T>,
        bias: Argument<HostTensor>,
        target: Argument<TensorShape>,
        c_out: Out<HostTensor>,
        done: Out<Chain>,
        frame: &KernelFrame,
    ) -> Result<(), Diagnostic> {
        let operands = FusedOperands { alpha, a, b, beta, bias, target };
        fused(frame, operands, &c_out, &done, true)
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.matmul_bias.f32", matmul_bias::<f32>());
    registry.add_kernel("tfrt_test.matmul_bias.i32", matmul_bias::<i32>());
    registry.add_kernel("tfrt_test.matmul_bias.i64", matmul_bias::<i64>());
    registry.add_kernel("tfrt_test.matmul_bias_relu.f32", matmul_bias_relu::<f32>());
    registry.add_kernel("tfrt_test.matmul_bias_relu.i32", matmul_bias_relu::<i32>());
    registry.add_kernel("tfrt_test.matmul_bias_relu.i64", matmul_bias_relu::<i64>());
}
