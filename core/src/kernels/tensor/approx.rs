//! `tfrt_dht.tensor_allclose[.Nulp].T %a, %b, %chain -> (i1, chain)`:
//! whether two tensors have the same dtype and shape and elements within N
//! units in the last place (2 without a prefix), as the reference's
//! `TensorApproxEqual`: `|x - y| <= epsilon * |x + y| * N`, or
//! `|x - y|` below the least normal number. Integers compare equal.

use super::dense::DenseHostTensor;
use super::element::Element;
use super::numeric::view;
use super::{HostTensor, run};
use crate::exec::{Argument, FromFrame, KernelFrame, KernelRegistry};
use crate::runtime::Chain;

/// Element comparison within `ulp` units in the last place.
pub(crate) trait Close: Element + bytemuck::Pod {
    /// Whether `self` and `other` are close.
    fn close(self, other: Self, ulp: u32) -> bool;
}

macro_rules! float_close {
    ($($t:ty),*) => {$(
        impl Close for $t {
            fn close(self, other: Self, ulp: u32) -> bool {
                let diff = (self - other).abs();
                diff <= <$t>::EPSILON * (self + other).abs() * ulp as $t || diff < <$t>::MIN_POSITIVE
            }
        }
    )*};
}

macro_rules! integer_close {
    ($($t:ty),*) => {$(
        impl Close for $t {
            fn close(self, other: Self, _: u32) -> bool {
                self == other
            }
        }
    )*};
}

float_close!(f32, f64);
integer_close!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Whether `a` and `b` agree within `ulp` (their dtype is `T`).
pub(crate) fn all_close<T: Close>(
    a: &DenseHostTensor,
    b: &DenseHostTensor,
    ulp: u32,
) -> Result<bool, &'static str> {
    if a.dtype() != b.dtype() || a.shape() != b.shape() {
        return Ok(false);
    }
    let (x, y) = (a.read()?, b.read()?);
    Ok(view::<T>(&x)
        .iter()
        .zip(view::<T>(&y))
        .all(|(&p, &q)| p.close(q, ulp)))
}

/// The kernel for `T` and a tolerance of `ULP` units.
fn tensor_allclose<T: Close, const ULP: u32>(frame: &KernelFrame<'_>) {
    run(frame, |frame, cursor| {
        let a = Argument::<HostTensor>::from_frame(frame, cursor)?;
        let b = Argument::<HostTensor>::from_frame(frame, cursor)?;
        let _chain = Argument::<Chain>::from_frame(frame, cursor)?;
        let (a, b) = (
            super::numeric::dense_of::<T>(&a)?,
            super::numeric::dense_of::<T>(&b)?,
        );
        Ok((all_close::<T>(a, b, ULP)?, Chain))
    });
}

macro_rules! register_for {
    ($registry:ident, $($t:ty),*) => {$(
        let name = <$t as Element>::DTYPE.mlir_name();
        let kernels: [(String, crate::exec::KernelFn); 5] = [
            (format!("tfrt_dht.tensor_allclose.{name}"), tensor_allclose::<$t, 2>),
            (format!("tfrt_dht.tensor_allclose.3ulp.{name}"), tensor_allclose::<$t, 3>),
            (format!("tfrt_dht.tensor_allclose.1000ulp.{name}"), tensor_allclose::<$t, 1000>),
            (format!("tfrt_dht.tensor_allclose.2000ulp.{name}"), tensor_allclose::<$t, 2000>),
            (format!("tfrt_dht.tensor_allclose.100000ulp.{name}"), tensor_allclose::<$t, 100000>),
        ];
        for (name, kernel) in kernels {
            $registry.add_kernel(&name, kernel);
        }
    )*};
}

pub(super) fn register(registry: &mut KernelRegistry) {
    register_for!(registry, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
}
