//! `tfrt_dht.tensor_allclose[.Nulp].T %a, %b, %chain -> (i1, chain)`:
//! whether two tensors have the same dtype and shape and elements within N
//! units in the last place (2 without a prefix), as the reference's
//! `TensorApproxEqual`: `|x - y| <= epsilon * |x + y| * N`, or
//! `|x - y|` below the least normal number. Integers compare equal.

use super::HostTensor;
use super::dense::DenseHostTensor;
use super::element::Element;
use super::numeric::view;
use crate::exec::{Argument, KernelFrame, KernelRegistry};
use crate::runtime::Chain;
use crate::runtime::Diagnostic;

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

/// The tolerances the kernels' names spell (`.3ulp.`), and 2 for none.
const TOLERANCES: [(&str, u32); 5] = [
    ("", 2),
    ("3ulp.", 3),
    ("1000ulp.", 1000),
    ("2000ulp.", 2000),
    ("100000ulp.", 100_000),
];

/// The tolerance in the kernel's name: `tfrt_dht.tensor_allclose.3ulp.f32`
/// is 3 units, `tfrt_dht.tensor_allclose.f32` 2.
fn named_ulp(frame: &KernelFrame<'_>) -> Result<u32, String> {
    let name = frame.kernel_name();
    let spelled = name
        .strip_prefix("tfrt_dht.tensor_allclose.")
        .and_then(|rest| rest.rsplit_once('.'))
        .map_or("", |(ulp, _dtype)| ulp);
    TOLERANCES
        .iter()
        .find(|(prefix, _)| prefix.strip_suffix('.').unwrap_or("") == spelled)
        .map(|&(_, ulp)| ulp)
        .ok_or_else(|| format!("'{name}' names no known tolerance"))
}

crate::kernel! {
    /// The kernel for `T`, with the tolerance the kernel's name spells.
    fn tensor_allclose<T: Close>(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        _chain: Argument<Chain>,
        frame: &KernelFrame,
    ) -> Result<(bool, Chain), Diagnostic> {
        let ulp = named_ulp(frame)?;
        let (a, b) = (
            super::numeric::dense_of::<T>(&a)?,
            super::numeric::dense_of::<T>(&b)?,
        );
        Ok((all_close::<T>(a, b, ulp)?, Chain))
    }
}

macro_rules! register_for {
    ($registry:ident, $($t:ty),*) => {$(
        let name = <$t as Element>::DTYPE.mlir_name();
        for (prefix, _) in TOLERANCES {
            $registry.add_kernel(
                &format!("tfrt_dht.tensor_allclose.{prefix}{name}"),
                tensor_allclose::<$t>(),
            );
        }
    )*};
}

pub(super) fn register(registry: &mut KernelRegistry) {
    register_for!(registry, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
}
