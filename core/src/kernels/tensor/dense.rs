//! `tfrt_dht.*`: dense host tensors. A tensor's elements can be written
//! after it is created (`fill_tensor_with_constant`,
//! `set_tensor_with_constant_values`, the model kernels), ordered by the
//! chains the program threads through those kernels, so they sit behind a
//! reader-writer lock. Kernels never wait for it: a tensor another kernel
//! is writing (or one writes while others read) is a program whose chains
//! leave the two unordered, and the kernel that finds it taken fails with
//! [`IN_USE`] rather than block a worker thread. Kernels that hand their
//! work to queued tasks keep the lock in those tasks ([`lease_write`]).
//!
//! Every write lock taken counts ([`writes`]), so that a tool watching a
//! kernel can tell which of its operands it wrote in place.
//!
//! [`lease_write`]: DenseHostTensor::lease_write
//! [`writes`]: DenseHostTensor::writes

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::lock_api::{ArcRwLockReadGuard, ArcRwLockWriteGuard};
use parking_lot::{RawRwLock, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::element::{DTYPES, Element, dtype_named, format_element};
use super::shape::TensorShape;
use super::{HostTensor, MAX_NAMED_RANK, MAX_TENSOR_BYTES, list};
use crate::exec::{Argument, ArrayAttribute, Attribute, KernelFrame, KernelRegistry};
use crate::format::DType;
use crate::runtime::Diagnostic;
use crate::runtime::{Chain, HostAllocator, HostBuffer, HostContext};

/// The error value of a tensor its allocator refuses.
const CANNOT_ALLOCATE: &str = "Cannot allocate tensor";

/// The error of a kernel that finds a tensor taken by another.
pub const IN_USE: &str =
    "the tensor is in use by another kernel: order the kernels that use it with chains";

/// A tensor's elements, read-locked for as long as a task holds it.
pub type ReadLease = ArcRwLockReadGuard<RawRwLock, HostBuffer>;

/// A tensor's elements, write-locked for as long as a task holds it.
pub type WriteLease = ArcRwLockWriteGuard<RawRwLock, HostBuffer>;

/// Elements printed before `, ...` stands for the rest.
const PRINT_LIMIT: usize = 16;

/// A dense tensor of numeric elements in row-major order.
#[derive(Debug)]
pub struct DenseHostTensor {
    dtype: DType,
    shape: TensorShape,
    /// From the host allocator, returned to it when the tensor drops.
    data: Arc<RwLock<HostBuffer>>,
    /// Write locks taken so far ([`writes`](Self::writes)).
    writes: AtomicU64,
}

/// Which tensor a handle was taken from ([`DenseHostTensor::identity`]).
/// It holds the tensor's lock weakly: the elements go when the tensor
/// does, but the lock's allocation stays, so no later tensor can have
/// the same address while the handle lives.
#[derive(Clone, Debug)]
pub(crate) struct TensorIdentity(Weak<RwLock<HostBuffer>>);

impl TensorIdentity {
    /// Whether `tensor` is the tensor this handle was taken from.
    pub(crate) fn is(&self, tensor: &DenseHostTensor) -> bool {
        std::ptr::eq(self.0.as_ptr(), Arc::as_ptr(&tensor.data))
    }

    /// Whether the tensor still exists.
    pub(crate) fn is_alive(&self) -> bool {
        self.0.strong_count() > 0
    }
}

impl std::fmt::Display for DenseHostTensor {
    /// `f32[100,784] [0.1, 0.0, …]`: the elements that fit a few dozen
    /// characters; `(being written)` while a kernel writes them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{} ",
            self.dtype.mlir_name(),
            super::short::dims(&self.shape)
        )?;
        let Ok(data) = self.read() else {
            return f.write_str("(being written)");
        };
        let size = self.dtype.host_size().unwrap_or(0);
        if size == 0 || super::short::element(self.dtype, &data[..0]).is_none() {
            return write!(f, "({} elements)", self.num_elements());
        }
        let elements = data
            .chunks_exact(size)
            .take(super::short::ELEMENT_CHARS / 3)
            .filter_map(|bytes| super::short::element(self.dtype, bytes));
        let more = self.num_elements() > super::short::ELEMENT_CHARS / 3;
        super::short::write_elements(f, elements, more)
    }
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
            data: Arc::new(RwLock::new(buffer)),
            writes: AtomicU64::new(0),
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
            data: Arc::new(RwLock::new(buffer)),
            writes: AtomicU64::new(0),
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
        // The shape's count was checked to fit when the tensor was made.
        self.shape.num_elements().unwrap_or(0) as usize
    }

    /// The element bytes (little-endian, row-major) to read, or [`IN_USE`]
    /// while another kernel writes them.
    pub fn read(&self) -> Result<RwLockReadGuard<'_, HostBuffer>, &'static str> {
        self.data.try_read().ok_or(IN_USE)
    }

    /// The element bytes to write, or [`IN_USE`] while another kernel
    /// reads or writes them.
    pub fn write(&self) -> Result<RwLockWriteGuard<'_, HostBuffer>, &'static str> {
        let guard = self.data.try_write().ok_or(IN_USE)?;
        self.writes.fetch_add(1, Ordering::Relaxed);
        Ok(guard)
    }

    /// As [`read`](Self::read), for a task to keep.
    pub fn lease_read(&self) -> Result<ReadLease, &'static str> {
        self.data.try_read_arc().ok_or(IN_USE)
    }

    /// As [`write`](Self::write), for a task to keep.
    pub fn lease_write(&self) -> Result<WriteLease, &'static str> {
        let lease = self.data.try_write_arc().ok_or(IN_USE)?;
        self.writes.fetch_add(1, Ordering::Relaxed);
        Ok(lease)
    }

    /// How many times the elements were locked to write ([`write`],
    /// [`lease_write`]), counted as each lock is taken: a count that
    /// changed across a kernel says it wrote the tensor in place (and its
    /// writes are done once [`being_written`](Self::being_written) is
    /// false). The elements a tensor is made with are not counted.
    ///
    /// [`write`]: Self::write
    /// [`lease_write`]: Self::lease_write
    pub fn writes(&self) -> u64 {
        self.writes.load(Ordering::Relaxed)
    }

    /// Whether a kernel (or a task it left behind) holds the elements
    /// locked to write now.
    pub fn being_written(&self) -> bool {
        self.data.is_locked_exclusive()
    }

    /// Whether `self` and `other` are the same tensor (share elements).
    pub fn same_as(&self, other: &DenseHostTensor) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
    }

    /// A handle that recognizes this tensor later without keeping its
    /// elements alive.
    pub(crate) fn identity(&self) -> TensorIdentity {
        TensorIdentity(Arc::downgrade(&self.data))
    }

    /// `DenseHostTensor dtype = i32, shape = [2], values = [1, 2]`
    pub fn describe(&self) -> String {
        let Ok(data) = self.read() else {
            return format!(
                "DenseHostTensor dtype = {}, shape = {}, values = <being written>",
                self.dtype.mlir_name(),
                list(&self.shape.0)
            );
        };
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
    /// `tfrt_dht.create_uninitialized_tensor.T.N [d0 : i64, ...]`. As in
    /// the reference, the rank the name spells is not checked against the
    /// shape: TFRT's MNIST program makes a tensor of shape `[2]` with
    /// `create_uninitialized_tensor.f32.2`.
    fn create_uninitialized_tensor(shape: ArrayAttribute<i64>, frame: &KernelFrame)
        -> Result<HostTensor, String>
    {
        let (dtype, _rank) = named_dtype_and_rank(frame)?;
        let shape = TensorShape::new(shape.iter().collect())?;
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

crate::kernel! {
    /// `tfrt_dht.fill_tensor_with_constant.T %t, %chain value : T`
    fn fill_tensor_with_constant<T: Element>(
        tensor: Argument<HostTensor>,
        _chain: Argument<Chain>,
        value: Attribute<T>,
    ) -> Result<Chain, Diagnostic> {
        let dense = typed::<T>(&tensor)?;
        for element in dense.write()?.chunks_exact_mut(T::SIZE) {
            value.0.write(element);
        }
        Ok(Chain)
    }
}

crate::kernel! {
    /// `tfrt_dht.set_tensor_with_constant_values.T %t, %chain [v0 : T, ...]`
    fn set_tensor_with_constant_values<T: Element>(
        tensor: Argument<HostTensor>,
        _chain: Argument<Chain>,
        values: ArrayAttribute<T>,
    ) -> Result<Chain, Diagnostic> {
        let dense = typed::<T>(&tensor)?;
        let mut data = dense.write()?;
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
    }
}

/// Whether two dense tensors of `T` have the same shape and elements
/// ([`IN_USE`] while another kernel writes either).
pub(crate) fn dense_equal<T: Element>(
    a: &DenseHostTensor,
    b: &DenseHostTensor,
) -> Result<bool, &'static str> {
    if a.shape != b.shape || a.dtype != b.dtype {
        return Ok(false);
    }
    let (x, y) = (a.read()?, b.read()?);
    Ok(x.chunks_exact(T::SIZE)
        .zip(y.chunks_exact(T::SIZE))
        .all(|(p, q)| T::from_le(p) == T::from_le(q)))
}

crate::kernel! {
    /// `tfrt_dht.tensor_equal.T %a, %b, %chain -> (i1, chain)`
    fn tensor_equal<T: Element>(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        _chain: Argument<Chain>,
    ) -> Result<(bool, Chain), Diagnostic> {
        let equal = dense_equal::<T>(typed::<T>(&a)?, typed::<T>(&b)?)?;
        Ok((equal, Chain))
    }
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
            fill_tensor_with_constant::<$t>(),
        );
        $registry.add_kernel(
            &format!("tfrt_dht.set_tensor_with_constant_values.{name}"),
            set_tensor_with_constant_values::<$t>(),
        );
        $registry.add_kernel(&format!("tfrt_dht.tensor_equal.{name}"), tensor_equal::<$t>());
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
