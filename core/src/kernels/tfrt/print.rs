//! `tfrt.print.<type>`: prints one line to the host's output in the
//! reference's format (`int32 = 42`, `f32 = 1.000000`, ...) and returns a
//! chain. Integers print in decimal, i1 as 0/1, f16 as its raw bits, floats
//! as C's `%f`.

use super::constants::Complex;
use crate::exec::{Argument, KernelRegistry};
use crate::kernels::F16;
use crate::runtime::{Chain, HostContext};

/// Formats like C's `printf("%f")`: six decimals, `inf`, `nan`.
pub(crate) fn printf_f(x: f64) -> String {
    if x.is_nan() {
        if x.is_sign_negative() { "-nan" } else { "nan" }.to_string()
    } else {
        format!("{x:.6}")
    }
}

macro_rules! prints {
    ($($name:ident($t:ty), $kernel:literal = |$v:ident| $line:expr;)*) => {
        $(crate::kernel! {
            fn $name(value: Argument<$t>, host: &HostContext) -> Chain {
                let $v = *value;
                host.print(&format!("{}\n", $line));
                Chain
            }
        })*

        pub(super) fn register(registry: &mut KernelRegistry) {
            $(registry.add_kernel($kernel, $name);)*
        }
    };
}

prints! {
    print_i1(bool), "tfrt.print.i1" = |v| format!("int1 = {}", v as i32);
    print_i32(i32), "tfrt.print.i32" = |v| format!("int32 = {v}");
    print_i64(i64), "tfrt.print.i64" = |v| format!("int64 = {v}");
    print_f16(F16), "tfrt.print.f16" = |v| format!("f16 = {}", v.0);
    print_f32(f32), "tfrt.print.f32" = |v| format!("f32 = {}", printf_f(v.into()));
    print_f64(f64), "tfrt.print.f64" = |v| format!("f64 = {}", printf_f(v));
    print_complex64(Complex<f32>), "tfrt.print.complex64" =
        |v| format!("complex64 = {}+{}i", printf_f(v.re.into()), printf_f(v.im.into()));
    print_complex128(Complex<f64>), "tfrt.print.complex128" =
        |v| format!("complex128 = {}+{}i", printf_f(v.re), printf_f(v.im));
}

#[cfg(test)]
mod tests {
    use super::printf_f;

    #[test]
    fn formats_like_printf() {
        assert_eq!(printf_f(1.0), "1.000000");
        assert_eq!(printf_f(-0.5), "-0.500000");
        assert_eq!(printf_f(1e20), "100000000000000000000.000000");
        assert_eq!(printf_f(f64::INFINITY), "inf");
        assert_eq!(printf_f(f64::NEG_INFINITY), "-inf");
        assert_eq!(printf_f(f64::NAN), "nan");
    }
}
