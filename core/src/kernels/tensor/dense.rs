//! `tfrt_dht.*`: dense host tensors. A tensor's elements can be written
//! after it is created (`fill_tensor_with_constant`,
//! `set_tensor_with_constant_values`), ordered by the chains the program
//! threads through those kernels, so they sit behind a lock.

use std::sync::{Arc, Mutex, MutexGuard};

use super::element::{DTYPES, Element, dtype_named, format_element};
use super::shape::TensorShape;
use super::{HostTensor, MAX_NAMED_RANK, MAX_TENSOR_BYTES, list, run};
use crate::exec::{Argument, ArrayAttribute, Attribute, FromFrame, KernelFrame, KernelRegistry};
use crate::format::DType;
use crate::runtime::{Chain, HostAllocator, HostBuffer, HostContext};

/// The error value of a tensor its allocator refuses.
const CANNOT_ALLOCATE: &str = "Cannot allocate tensor";

/// Elements printed before `, ...` stands for the rest.
const PRINT_LIMIT: usize = 16;

/// A dense tensor of numeric elements in row-major order.
#[derive(Debug)]
pub struct DenseHostTensor {
    dtype: DType,
    shape: TensorShape,
    /// From the host allocator, returned to it when the tensor drops.
    data: Mutex<HostBuffer>,
}

impl DenseHostTensor {
    /// A tensor of zeros in a buffer from `allocator` (the reference
    /// leaves new tensors uninitialized; zeros make runs reproducible).
    /// Fails, before allocating, on a dtype without a host size or a size
    /// over [`MAX_TENSOR_BYTES`], and with `Cannot allocate tensor` when
    /// the allocator refuses.
    pub fn zeros(
        dtype: DType,
        shape: TensorShape,
        allocator: Arc<dyn HostAllocator>,
    ) -> Result<DenseHostTensor, String> {
        let bytes = byte_size(dtype, &shape)?;
        let buffer = HostBuffer::zeroed(allocator, bytes).ok_or(CANNOT_ALLOCATE)?;
        Ok(DenseHostTensor {
            dtype,
            shape,
            data: Mutex::new(buffer),
        })
    }

    /// A tensor holding a copy of `data`, which must be exactly its size,
    /// in a buffer from `allocator`.
    pub fn from_bytes(
        dtype: DType,
        shape: TensorShape,
        data: &[u8],
        allocator: Arc<dyn HostAllocator>,
    ) -> Result<DenseHostTensor, String> {
        let bytes = byte_size(dtype, &shape)?;
        if data.len() != bytes {
            return Err(format!(
                "{} bytes given for a tensor of {bytes} bytes",
                data.len()
            ));
        }
        let buffer = HostBuffer::copy_from(allocator, data).ok_or(CANNOT_ALLOCATE)?;
        Ok(DenseHostTensor {
            dtype,
            shape,
            data: Mutex::new(buffer),
        })
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The dimensions.
    pub fn shape(&self) -> &TensorShape {
        &self.shape
    }

    /// The number of elements.
    pub fn num_elements(&self) -> usize {
        self.elements().len() / self.dtype.host_size().unwrap_or(1).max(1)
    }

    /// The element bytes, little-endian, row-major.
    pub fn elements(&self) -> MutexGuard<'_, HostBuffer> {
        // A panic while holding the lock leaves bytes, not broken
        // invariants: the data stays usable.
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `DenseHostTensor dtype = i32, shape = [2], values = [1, 2]`
    pub fn describe(&self) -> String {
        let data = self.elements();
        let n = self.num_elements_of(&data);
        let shown: Vec<String> = (0..n.min(PRINT_LIMIT))
            .map(|i| format_element(self.dtype, &data, i))
            .collect();
        let more = if n > PRINT_LIMIT { ", ... " } else { "" };
        format!(
            "DenseHostTensor dtype = {}, shape = {}, values = [{}{more}]",
            self.dtype.mlir_name(),
            list(&self.shape.0),
            shown.join(", ")
        )
    }

    fn num_elements_of(&self, data: &[u8]) -> usize {
        data.len() / self.dtype.host_size().unwrap_or(1).max(1)
    }
}

/// The bytes a tensor of `dtype` and `shape` takes, checked.
pub(crate) fn byte_size(dtype: DType, shape: &TensorShape) -> Result<usize, String> {
    let size = dtype
        .host_size()
        .filter(|_| DTYPES.contains(&dtype))
        .ok_or_else(|| {
            format!(
                "dense host tensors cannot hold {} elements",
                dtype.mlir_name()
            )
        })?;
    shape
        .num_elements()
        .and_then(|n| usize::try_from(n).ok())
        .and_then(|n| n.checked_mul(size))
        .filter(|&bytes| bytes <= MAX_TENSOR_BYTES)
        .ok_or_else(|| {
            format!(
                "a {} tensor of shape {} would take more than the {MAX_TENSOR_BYTES} bytes a tensor may",
                dtype.mlir_name(),
                list(&shape.0)
            )
        })
}

/// The dtype and rank a kernel name ends with (`...tensor.i32.2`).
pub(crate) fn named_dtype_and_rank(frame: &KernelFrame<'_>) -> Result<(DType, usize), String> {
    let name = frame.kernel_name();
    let mut parts = name.rsplit('.');
    let rank = parts.next().and_then(|r| r.parse().ok());
    let dtype = parts.next().and_then(dtype_named);
    match (dtype, rank) {
        (Some(dtype), Some(rank)) => Ok((dtype, rank)),
        _ => Err(format!("'{name}' names no dtype and rank")),
    }
}

crate::kernel! {
    /// `tfrt_dht.create_uninitialized_tensor.T.N [d0 : i64, ...]`
    fn create_uninitialized_tensor(shape: ArrayAttribute<i64>, frame: &KernelFrame)
        -> Result<HostTensor, String>
    {
        let (dtype, rank) = named_dtype_and_rank(frame)?;
        let shape = TensorShape::new(shape.iter().collect())?;
        if shape.0.len() != rank {
            return Err(format!("shape {} does not have rank {rank}", list(&shape.0)));
        }
        DenseHostTensor::zeros(dtype, shape, frame.host().shared_allocator()).map(HostTensor::Dense)
    }
}

/// The dense tensor argument, checked to hold `T`.
fn typed<T: Element>(tensor: &HostTensor) -> Result<&DenseHostTensor, String> {
    let dense = tensor.dense()?;
    if dense.dtype != T::DTYPE {
        return Err(format!(
            "expected a tensor of {}, got one of {}",
            T::DTYPE.mlir_name(),
            dense.dtype.mlir_name()
        ));
    }
    Ok(dense)
}

/// `tfrt_dht.fill_tensor_with_constant.T %t, %chain value : T`
fn fill_tensor_with_constant<T: Element>(frame: &KernelFrame<'_>) {
    run(frame, |frame, cursor| {
        let tensor = Argument::<HostTensor>::from_frame(frame, cursor)?;
        let _chain = Argument::<Chain>::from_frame(frame, cursor)?;
        let value = Attribute::<T>::from_frame(frame, cursor)?;
        let dense = typed::<T>(&tensor)?;
        for element in dense.elements().chunks_exact_mut(T::SIZE) {
            value.0.write(element);
        }
        Ok(Chain)
    });
}

/// `tfrt_dht.set_tensor_with_constant_values.T %t, %chain [v0 : T, ...]`
fn set_tensor_with_constant_values<T: Element>(frame: &KernelFrame<'_>) {
    run(frame, |frame, cursor| {
        let tensor = Argument::<HostTensor>::from_frame(frame, cursor)?;
        let _chain = Argument::<Chain>::from_frame(frame, cursor)?;
        let values = ArrayAttribute::<T>::from_frame(frame, cursor)?;
        let dense = typed::<T>(&tensor)?;
        let mut data = dense.elements();
        let count = data.len() / T::SIZE;
        if values.len() != count {
            return Err(format!(
                "{} values given for a tensor of {count} elements",
                values.len()
            )
            .into());
        }
        for (element, value) in data.chunks_exact_mut(T::SIZE).zip(values.iter()) {
            value.write(element);
        }
        Ok(Chain)
    });
}

/// Whether two dense tensors of `T` have the same shape and elements.
pub(crate) fn dense_equal<T: Element>(a: &DenseHostTensor, b: &DenseHostTensor) -> bool {
    if a.shape != b.shape || a.dtype != b.dtype {
        return false;
    }
    if std::ptr::eq(a, b) {
        return true;
    }
    // Locked in address order: two comparisons of the same tensors in
    // opposite orders cannot wait for each other.
    let (first, second) = if (a as *const DenseHostTensor) < (b as *const DenseHostTensor) {
        (a, b)
    } else {
        (b, a)
    };
    let (x, y) = (first.elements(), second.elements());
    x.chunks_exact(T::SIZE)
        .zip(y.chunks_exact(T::SIZE))
        .all(|(p, q)| T::from_le(p) == T::from_le(q))
}

/// `tfrt_dht.tensor_equal.T %a, %b, %chain -> (i1, chain)`
fn tensor_equal<T: Element>(frame: &KernelFrame<'_>) {
    run(frame, |frame, cursor| {
        let a = Argument::<HostTensor>::from_frame(frame, cursor)?;
        let b = Argument::<HostTensor>::from_frame(frame, cursor)?;
        let _chain = Argument::<Chain>::from_frame(frame, cursor)?;
        let equal = dense_equal::<T>(typed::<T>(&a)?, typed::<T>(&b)?);
        Ok((equal, Chain))
    });
}

crate::kernel! {
    /// `tfrt_dht.print_tensor %t, %chain`: any host tensor.
    fn print_tensor(tensor: Argument<HostTensor>, _chain: Argument<Chain>, host: &HostContext)
        -> Chain
    {
        host.print(&format!("{}\n", tensor.describe()));
        Chain
    }
}

crate::kernel! {
    /// `tfrt_dht.get_tensor_shape %t`
    fn get_tensor_shape(tensor: Argument<HostTensor>) -> Result<TensorShape, String> {
        Ok(match &*tensor {
            HostTensor::Dense(t) => t.shape.clone(),
            HostTensor::String(t) => t.shape().clone(),
            HostTensor::Coo(t) => t.shape().clone(),
        })
    }
}

macro_rules! typed_kernels {
    ($registry:ident, $($t:ty),*) => {$(
        let name = <$t as Element>::DTYPE.mlir_name();
        $registry.add_kernel(
            &format!("tfrt_dht.fill_tensor_with_constant.{name}"),
            fill_tensor_with_constant::<$t>,
        );
        $registry.add_kernel(
            &format!("tfrt_dht.set_tensor_with_constant_values.{name}"),
            set_tensor_with_constant_values::<$t>,
        );
        $registry.add_kernel(&format!("tfrt_dht.tensor_equal.{name}"), tensor_equal::<$t>);
    )*};
}

pub(super) fn register(registry: &mut KernelRegistry) {
    for dtype in DTYPES {
        for rank in 0..=MAX_NAMED_RANK {
            registry.add_kernel(
                &format!(
                    "tfrt_dht.create_uninitialized_tensor.{}.{rank}",
                    dtype.mlir_name()
                ),
                create_uninitialized_tensor,
            );
        }
    }
    typed_kernels!(registry, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
    registry.add_kernel("tfrt_dht.print_tensor", print_tensor);
    registry.add_kernel("tfrt_dht.get_tensor_shape", get_tensor_shape);
}
