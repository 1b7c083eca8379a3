//! What the model kernels share: the numbers they compute with, tensor
//! elements viewed in place as those numbers, and locking the tensors a
//! kernel reads and writes.

use std::ops::Deref;

use parking_lot::{RwLockReadGuard, RwLockWriteGuard};

use super::HostTensor;
use super::dense::DenseHostTensor;
use super::element::Element;
use crate::runtime::HostBuffer;

// Elements are stored little-endian and viewed in place as numbers.
#[cfg(target_endian = "big")]
compile_error!("the tensor kernels view little-endian tensor elements in place");

/// A number type of the model kernels (`f32`, `f64`, `i32`, `i64`).
/// Integer arithmetic wraps, as the reference's C++ does in practice.
pub(crate) trait Number:
    Element + bytemuck::Pod + PartialOrd + Send + Sync + std::fmt::Debug + 'static
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The least value (negative infinity for floats).
    const LOWEST: Self;
    /// `self + other`.
    fn plus(self, other: Self) -> Self;
    /// `self * other`.
    fn times(self, other: Self) -> Self;
    /// The mean of values whose sum is `self`: `self / count`, `None` for
    /// an integer mean of no values.
    fn mean_of(self, count: usize) -> Option<Self>;
}

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl Number for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const LOWEST: Self = <$t>::NEG_INFINITY;
            #[inline(always)]
            fn plus(self, other: Self) -> Self { self + other }
            #[inline(always)]
            fn times(self, other: Self) -> Self { self * other }
            fn mean_of(self, count: usize) -> Option<Self> { Some(self / count as $t) }
        }
    )*};
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Number for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const LOWEST: Self = <$t>::MIN;
            #[inline(always)]
            fn plus(self, other: Self) -> Self { self.wrapping_add(other) }
            #[inline(always)]
            fn times(self, other: Self) -> Self { self.wrapping_mul(other) }
            fn mean_of(self, count: usize) -> Option<Self> {
                // Counts beyond the type wrap as the reference's cast does.
                let count = count as $t;
                (count != 0).then(|| self.wrapping_div(count))
            }
        }
    )*};
}

floats!(f32, f64);
integers!(i32, i64);

/// Tensor bytes as elements of `T`. A tensor's buffer is aligned to 16
/// bytes and holds whole elements of its dtype, which callers check is
/// `T`, so the view always exists.
pub(crate) fn view<T: bytemuck::Pod>(bytes: &[u8]) -> &[T] {
    bytemuck::cast_slice(bytes)
}

/// As [`view`], to write.
pub(crate) fn view_mut<T: bytemuck::Pod>(bytes: &mut [u8]) -> &mut [T] {
    bytemuck::cast_slice_mut(bytes)
}

/// The dense tensor of `T` an argument holds, or an error naming what it
/// holds instead.
pub(crate) fn dense_of<T: Element>(tensor: &HostTensor) -> Result<&DenseHostTensor, String> {
    let dense = tensor.dense()?;
    if dense.dtype() != T::DTYPE {
        return Err(format!(
            "expected a tensor of {}, got one of {}",
            T::DTYPE.mlir_name(),
            dense.dtype().mlir_name()
        ));
    }
    Ok(dense)
}

/// The dense tensor of `T` and rank `rank` an argument holds.
pub(crate) fn dense_of_rank<'t, T: Element>(
    tensor: &'t HostTensor,
    rank: usize,
    role: &str,
) -> Result<&'t DenseHostTensor, String> {
    let dense = dense_of::<T>(tensor)?;
    let dims = &dense.shape().0;
    if dims.len() != rank {
        return Err(format!(
            "{role} must have rank {rank}, got shape {}",
            super::list(dims)
        ));
    }
    Ok(dense)
}

/// The dimensions of a tensor as `usize` (they fit: the tensor exists).
pub(crate) fn dims(tensor: &DenseHostTensor) -> Vec<usize> {
    tensor.shape().0.iter().map(|&d| d as usize).collect()
}

/// An input's elements: locked in place, or copied first when the input is
/// also the kernel's output.
pub(crate) enum InputBytes<'a> {
    /// Read-locked in the tensor.
    Locked(RwLockReadGuard<'a, HostBuffer>),
    /// A copy (in words, to keep any element type aligned) of `len` bytes.
    Copied(Vec<u64>, usize),
}

impl Deref for InputBytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            InputBytes::Locked(guard) => guard,
            InputBytes::Copied(words, len) => &bytemuck::cast_slice(words)[..*len],
        }
    }
}

/// Locks `inputs` to read and `output` to write. An input that is the
/// output itself is read from a copy taken first, so a kernel given the
/// same tensor twice computes from the old values as the reference's
/// element-wise kernels do.
pub(crate) fn lock_for_update<'a>(
    inputs: &[&'a DenseHostTensor],
    output: &'a DenseHostTensor,
) -> Result<(Vec<InputBytes<'a>>, RwLockWriteGuard<'a, HostBuffer>), &'static str> {
    let mut locked = Vec::with_capacity(inputs.len());
    for input in inputs {
        locked.push(if input.same_as(output) {
            let bytes = output.read()?;
            let mut words = vec![0u64; bytes.len().div_ceil(8)];
            bytemuck::cast_slice_mut::<u64, u8>(&mut words)[..bytes.len()].copy_from_slice(&bytes);
            InputBytes::Copied(words, bytes.len())
        } else {
            InputBytes::Locked(input.read()?)
        });
    }
    let out = output.write()?;
    Ok((locked, out))
}
