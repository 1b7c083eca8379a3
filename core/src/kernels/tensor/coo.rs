//! `coo.*`: sparse tensors in coordinate format. Only non-zero elements
//! are stored: their coordinates (`indices`, one row of `rank` coordinates
//! per element, row-major order) and their values.

use std::sync::Arc;

use super::dense::{DenseHostTensor, named_dtype_and_rank};
use super::element::{Element, format_element};
use super::shape::TensorShape;
use super::{HostTensor, MAX_NAMED_RANK, list};
use crate::exec::{Argument, KernelFrame, KernelRegistry};
use crate::format::DType;
use crate::runtime::Diagnostic;
use crate::runtime::{Chain, HostAllocator};

/// A sparse tensor: the coordinates and values of its non-zero elements.
#[derive(Debug, Clone, PartialEq)]
pub struct CooHostTensor {
    dtype: DType,
    shape: TensorShape,
    /// `rank` coordinates per stored element.
    indices: Vec<i64>,
    /// Little-endian values, one per stored element.
    values: Vec<u8>,
}

impl CooHostTensor {
    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The dimensions.
    pub fn shape(&self) -> &TensorShape {
        &self.shape
    }

    /// The coordinates of the stored elements, `rank` per element.
    pub fn indices(&self) -> &[i64] {
        &self.indices
    }

    /// `CooHostTensor dtype = i32, shape = [2], indices = [1], values = [4]`
    pub fn describe(&self) -> String {
        let size = self.dtype.host_size().unwrap_or(1).max(1);
        let values =
            (0..self.values.len() / size).map(|i| format_element(self.dtype, &self.values, i));
        format!(
            "CooHostTensor dtype = {}, shape = {}, indices = {}, values = {}",
            self.dtype.mlir_name(),
            list(&self.shape.0),
            list(&self.indices),
            list(values)
        )
    }

    /// The sparse form of a dense tensor of `T`. The coordinates of the
    /// element at row-major position `i` are those the reference computes:
    /// `i` is divided by the dimensions from the first on, and the
    /// remainders fill the coordinates from the last on (a square tensor
    /// gets its usual coordinates).
    pub(super) fn from_dense<T: Element>(
        dense: &DenseHostTensor,
    ) -> Result<CooHostTensor, &'static str> {
        let dims = &dense.shape().0;
        let rank = dims.len();
        let data = dense.read()?;
        let mut indices = Vec::new();
        let mut values = Vec::new();
        for (i, element) in data.chunks_exact(T::SIZE).enumerate() {
            if T::from_le(element).is_zero() {
                continue;
            }
            let start = indices.len();
            indices.resize(start + rank, 0);
            // Elements exist, so every dimension is at least 1.
            let mut rest = i as i64;
            for (r, &d) in dims.iter().enumerate() {
                indices[start + rank - 1 - r] = rest % d;
                rest /= d;
            }
            values.extend_from_slice(element);
        }
        Ok(CooHostTensor {
            dtype: T::DTYPE,
            shape: dense.shape().clone(),
            indices,
            values,
        })
    }

    /// The dense form (the inverse of [`CooHostTensor::from_dense`]); fails
    /// on coordinates outside the shape.
    pub(super) fn to_dense<T: Element>(
        &self,
        allocator: Arc<dyn HostAllocator>,
    ) -> Result<DenseHostTensor, String> {
        let dims = &self.shape.0;
        let rank = dims.len();
        let dense = DenseHostTensor::zeros(self.dtype, self.shape.clone(), allocator)?;
        let mut data = dense.write()?;
        let stored = self.values.len() / T::SIZE;
        for (k, value) in self.values.chunks_exact(T::SIZE).enumerate() {
            let coordinates = self
                .indices
                .get(k * rank..(k + 1) * rank)
                .ok_or_else(|| format!("{stored} values but {} coordinates", self.indices.len()))?;
            let mut offset = 0usize;
            for (r, &d) in dims.iter().enumerate().rev() {
                let c = coordinates[rank - 1 - r];
                if c < 0 || c >= d {
                    return Err(format!(
                        "coordinates {} are outside shape {}",
                        list(coordinates),
                        list(dims)
                    ));
                }
                // In range: both fit, as the dense size was checked.
                offset = offset * d as usize + c as usize;
            }
            let at = offset * T::SIZE;
            data[at..at + T::SIZE].copy_from_slice(value);
        }
        drop(data);
        Ok(dense)
    }

    pub(super) fn equal<T: Element>(&self, other: &CooHostTensor) -> bool {
        self.dtype == other.dtype
            && self.shape == other.shape
            && self.indices == other.indices
            && self
                .values
                .chunks_exact(T::SIZE)
                .zip(other.values.chunks_exact(T::SIZE))
                .all(|(a, b)| T::from_le(a) == T::from_le(b))
            && self.values.len() == other.values.len()
    }
}

/// Checks the dtype and rank the kernel's name spells against a tensor's.
fn check_named(frame: &KernelFrame<'_>, dtype: DType, shape: &TensorShape) -> Result<(), String> {
    let (named_dtype, rank) = named_dtype_and_rank(frame)?;
    if named_dtype != dtype || shape.0.len() != rank {
        return Err(format!(
            "'{}' expects a {}-d tensor of {}, got a {}-d tensor of {}",
            frame.kernel_name(),
            rank,
            named_dtype.mlir_name(),
            shape.0.len(),
            dtype.mlir_name()
        ));
    }
    Ok(())
}

crate::kernel! {
    /// `coo.convert_dht_to_coo.T.N %dense, %chain -> (tensor, chain)`
    fn convert_dht_to_coo<T: Element>(
        tensor: Argument<HostTensor>,
        _chain: Argument<Chain>,
        frame: &KernelFrame,
    ) -> Result<(HostTensor, Chain), Diagnostic> {
        let dense = tensor.dense()?;
        check_named(frame, dense.dtype(), dense.shape())?;
        Ok((
            HostTensor::Coo(CooHostTensor::from_dense::<T>(dense)?),
            Chain,
        ))
    }
}

crate::kernel! {
    /// `coo.convert_coo_to_dht.T.N %sparse, %chain -> (tensor, chain)`
    fn convert_coo_to_dht<T: Element>(
        tensor: Argument<HostTensor>,
        _chain: Argument<Chain>,
        frame: &KernelFrame,
    ) -> Result<(HostTensor, Chain), Diagnostic> {
        let coo = tensor.coo()?;
        check_named(frame, coo.dtype, &coo.shape)?;
        Ok((
            HostTensor::Dense(coo.to_dense::<T>(frame.host().shared_allocator())?),
            Chain,
        ))
    }
}

crate::kernel! {
    /// `coo.tensor_equal.T.N %a, %b, %chain -> (i1, chain)`
    fn tensor_equal<T: Element>(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        _chain: Argument<Chain>,
        frame: &KernelFrame,
    ) -> Result<(bool, Chain), Diagnostic> {
        let (a, b) = (a.coo()?, b.coo()?);
        check_named(frame, a.dtype, &a.shape)?;
        Ok((a.equal::<T>(b), Chain))
    }
}

macro_rules! typed_kernels {
    ($registry:ident, $($t:ty),*) => {$(
        let name = <$t as Element>::DTYPE.mlir_name();
        for rank in 0..=MAX_NAMED_RANK {
            $registry.add_kernel(
                &format!("coo.convert_dht_to_coo.{name}.{rank}"),
                convert_dht_to_coo::<$t>(),
            );
            $registry.add_kernel(
                &format!("coo.convert_coo_to_dht.{name}.{rank}"),
                convert_coo_to_dht::<$t>(),
            );
            $registry.add_kernel(&format!("coo.tensor_equal.{name}.{rank}"), tensor_equal::<$t>());
        }
    )*};
}

pub(super) fn register(registry: &mut KernelRegistry) {
    typed_kernels!(registry, i32, i64, f32, f64);
}
