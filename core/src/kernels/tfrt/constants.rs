//! `tfrt.constant.<type>` (and the sync spelling `tfrt.constant_s.<type>`):
//! a value from the `value` attribute.

use crate::exec::{Attribute, KernelRegistry};
use crate::kernels::{Bf16, F16};

macro_rules! constants {
    ($($suffix:literal => $name:ident: $attr:ty => $value:ty = |$v:ident| $convert:expr;)*) => {
        $(crate::kernel! {
            fn $name(value: Attribute<$attr>) -> $value {
                let $v = *value;
                $convert
            }
        })*

        pub(super) fn register(registry: &mut crate::exec::KernelRegistry) {
            $(
                registry.add_kernel(concat!("tfrt.constant.", $suffix), $name);
                registry.add_kernel(concat!("tfrt.constant_s.", $suffix), $name);
            )*
            register_complex(registry);
        }
    };
}

constants! {
    // i1 attributes are one byte; any non-zero byte is true.
    "i1" => constant_i1: u8 => bool = |v| v != 0;
    "i32" => constant_i32: i32 => i32 = |v| v;
    "i64" => constant_i64: i64 => i64 = |v| v;
    "ui32" => constant_ui32: u32 => u32 = |v| v;
    "ui64" => constant_ui64: u64 => u64 = |v| v;
    "f16" => constant_f16: u16 => F16 = |v| F16(v);
    "bf16" => constant_bf16: u16 => Bf16 = |v| Bf16(v);
    "f32" => constant_f32: f32 => f32 = |v| v;
    "f64" => constant_f64: f64 => f64 = |v| v;
}

/// A complex number (`tfrt.constant.complex64` / `complex128`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Complex<T> {
    pub re: T,
    pub im: T,
}

impl crate::exec::TypeName for Complex<f32> {
    const NAME: &'static str = "complex<f32>";
}

impl crate::exec::TypeName for Complex<f64> {
    const NAME: &'static str = "complex<f64>";
}

impl<T: Send + Sync + 'static> crate::exec::IntoResult for Complex<T>
where
    Complex<T>: crate::exec::TypeName,
{
    fn into_value(self) -> crate::runtime::AsyncValue {
        crate::runtime::AsyncValue::available(self)
    }
}

// Attributes are sorted by name in BEF, so `imaginary` comes before `real`.
crate::kernel! {
    fn constant_complex64(im: Attribute<f32>, re: Attribute<f32>) -> Complex<f32> {
        Complex { re: *re, im: *im }
    }
}
crate::kernel! {
    fn constant_complex128(im: Attribute<f64>, re: Attribute<f64>) -> Complex<f64> {
        Complex { re: *re, im: *im }
    }
}

fn register_complex(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt.constant.complex64", constant_complex64);
    registry.add_kernel("tfrt.constant.complex128", constant_complex128);
}
