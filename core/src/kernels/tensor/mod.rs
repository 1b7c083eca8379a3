//! Host tensors and shapes: `ts.*` (tensor shapes), `tfrt_dht.*` (dense host
//! tensors; `approx` holds `tensor_allclose`), `tfrt_sht.*` (string host
//! tensors) and `coo.*` (sparse tensors in coordinate format), one module
//! per family; and the kernels models run on them: `btf.*` (reading BTF
//! files), the matrix products (`matmul`, and `matmul_fused`: products
//! with their bias and ReLU, which `bef opt --fuse-matmul-epilogue`
//! writes), and the other tensor kernels of TFRT's MNIST (`mnist`) and
//! ResNet (`resnet`) programs, which share the element views and locking
//! of `numeric`.
//!
//! Every tensor kind is one value type, [`HostTensor`], the runtime type of
//! `!t.tensor`, so that kernels such as `tfrt_dht.print_tensor` take any of
//! them. Kernels whose names carry a dtype and a rank
//! (`tfrt_dht.create_uninitialized_tensor.i32.2`) are registered once per
//! spelling they accept. Sizes come from programs: a tensor is refused,
//! with an error value, before anything is allocated when its element count
//! overflows or its bytes exceed [`MAX_TENSOR_BYTES`].

mod approx;
pub mod btf_kernels;
mod call_values;
mod coo;
mod dense;
mod element;
mod matmul;
mod matmul_fused;
mod mnist;
mod numeric;
pub mod packed_gemm;
mod resnet;
mod shape;
mod short;
mod string;

pub use coo::CooHostTensor;
pub use dense::{DenseHostTensor, IN_USE};
pub use matmul::PARALLEL_WORK;
pub use shape::{FixedRankShape, PartialTensorShape, TensorShape};
pub use string::StringHostTensor;

use crate::exec::KernelRegistry;

/// The most bytes one tensor created by a program may take.
pub const MAX_TENSOR_BYTES: usize = 1 << 28;

/// Ranks spelled in the names of the rank-specific kernels.
const MAX_NAMED_RANK: usize = 4;

/// A host tensor of any kind: the value of `!t.tensor`.
#[derive(Debug)]
pub enum HostTensor {
    /// Dense elements of a numeric dtype.
    Dense(DenseHostTensor),
    /// Strings.
    String(StringHostTensor),
    /// A sparse tensor: coordinates and values of its non-zero elements.
    Coo(CooHostTensor),
}

impl HostTensor {
    /// The tensor as the reference prints it (`tfrt_dht.print_tensor`).
    pub fn describe(&self) -> String {
        match self {
            HostTensor::Dense(t) => t.describe(),
            HostTensor::String(t) => t.describe(),
            HostTensor::Coo(t) => t.describe(),
        }
    }

    /// The dense tensor, or an error naming what the tensor is instead.
    pub fn dense(&self) -> Result<&DenseHostTensor, String> {
        match self {
            HostTensor::Dense(t) => Ok(t),
            other => Err(format!(
                "expected a dense host tensor, got a {}",
                other.kind()
            )),
        }
    }

    /// The sparse tensor, or an error naming what the tensor is instead.
    pub fn coo(&self) -> Result<&CooHostTensor, String> {
        match self {
            HostTensor::Coo(t) => Ok(t),
            other => Err(format!(
                "expected a COO host tensor, got a {}",
                other.kind()
            )),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            HostTensor::Dense(_) => "dense host tensor",
            HostTensor::String(_) => "string host tensor",
            HostTensor::Coo(_) => "COO host tensor",
        }
    }
}

impl std::fmt::Display for HostTensor {
    /// The short form: `f32[100,784] [0.1, 0.0, …]`, `coo f32[3,3] 2
    /// stored [4.0, -1.0]`, `string[2] ["a", "b"]`, a few dozen characters
    /// whatever the tensor's size.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostTensor::Dense(t) => t.fmt(f),
            HostTensor::String(t) => t.fmt(f),
            HostTensor::Coo(t) => t.fmt(f),
        }
    }
}

macro_rules! available_results {
    ($($t:ty),*) => {$(
        impl crate::exec::IntoResult for $t {
            fn into_value(self) -> crate::runtime::AsyncValue {
                crate::runtime::AsyncValue::available(self)
            }
        }
    )*};
}

available_results!(HostTensor, TensorShape, PartialTensorShape, FixedRankShape);

macro_rules! type_names {
    ($($t:ty => $name:literal),*) => {$(
        impl crate::exec::TypeName for $t {
            const NAME: &'static str = $name;
        }
    )*};
}

// Every host tensor is one `!t.tensor`; the dtype and shape are the
// kernel's to check.
type_names!(
    HostTensor => "!t.tensor",
    TensorShape => "!ts.shape",
    PartialTensorShape => "!ts.partial_shape",
    FixedRankShape => "!ts.fixed_rank_shape"
);

/// `[1, 57, 92]`, as the reference prints shapes and lists.
pub(crate) fn list<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let mut out = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&item.to_string());
    }
    out.push(']');
    out
}

/// Registers the `ts.*`, `tfrt_dht.*`, `tfrt_sht.*` and `coo.*` kernels,
/// and the model kernels: `btf.*`, `eigen.matmul.*` and the `tfrt_test.*`
/// tensor kernels of TFRT's MNIST and ResNet programs.
pub fn register(registry: &mut KernelRegistry) {
    shape::register(registry);
    dense::register(registry);
    string::register(registry);
    coo::register(registry);
    approx::register(registry);
    btf_kernels::register(registry);
    matmul::register(registry);
    matmul_fused::register(registry);
    mnist::register(registry);
    resnet::register(registry);
    call_values::register(registry);
}

#[cfg(test)]
mod model_tests;
#[cfg(test)]
mod tests;
