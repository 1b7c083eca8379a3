//! Arithmetic: `tfrt.add`, `tfrt.minus`, `tfrt.multiply`, `tfrt.minimum`,
//! `tfrt.div` (integer division returns quotient and remainder) and
//! `tfrt.and.i1`. Integer arithmetic wraps (the reference's overflow is
//! undefined); division by zero is an error, as in the reference.

use crate::exec::{Argument, KernelRegistry};

const DIVIDE_BY_ZERO: &str = "Divide by zero";

macro_rules! binary {
    ($($name:ident($t:ty) = |$a:ident, $b:ident| $body:expr;)*) => {$(
        crate::kernel! {
            fn $name(a: Argument<$t>, b: Argument<$t>) -> $t {
                let ($a, $b) = (*a, *b);
                $body
            }
        }
    )*};
}

binary! {
    add_i32(i32) = |a, b| a.wrapping_add(b);
    add_i64(i64) = |a, b| a.wrapping_add(b);
    add_f32(f32) = |a, b| a + b;
    add_f64(f64) = |a, b| a + b;
    minus_i32(i32) = |a, b| a.wrapping_sub(b);
    minus_i64(i64) = |a, b| a.wrapping_sub(b);
    multiply_f32(f32) = |a, b| a * b;
    multiply_f64(f64) = |a, b| a * b;
    minimum_f32(f32) = |a, b| if b < a { b } else { a };
    minimum_f64(f64) = |a, b| if b < a { b } else { a };
    and_i1(bool) = |a, b| a && b;
}

macro_rules! integer_div {
    ($($name:ident($t:ty);)*) => {$(
        crate::kernel! {
            fn $name(a: Argument<$t>, b: Argument<$t>) -> Result<($t, $t), String> {
                if *b == 0 {
                    return Err(DIVIDE_BY_ZERO.into());
                }
                Ok((a.wrapping_div(*b), a.wrapping_rem(*b)))
            }
        }
    )*};
}

integer_div! {
    div_i32(i32);
    div_i64(i64);
}

macro_rules! float_div {
    ($($name:ident($t:ty);)*) => {$(
        crate::kernel! {
            fn $name(a: Argument<$t>, b: Argument<$t>) -> Result<$t, String> {
                if *b == 0.0 {
                    return Err(DIVIDE_BY_ZERO.into());
                }
                Ok(*a / *b)
            }
        }
    )*};
}

float_div! {
    div_f32(f32);
    div_f64(f64);
}

pub(super) fn register(registry: &mut KernelRegistry) {
    for (name, kernel) in [
        ("tfrt.add.i32", add_i32),
        ("tfrt.add_s.i32", add_i32),
        ("tfrt.add.i64", add_i64),
        ("tfrt.add_s.i64", add_i64),
        ("tfrt.add.f32", add_f32),
        ("tfrt.add.f64", add_f64),
        ("tfrt.minus.i32", minus_i32),
        ("tfrt.minus.i64", minus_i64),
        ("tfrt.multiply.f32", multiply_f32),
        ("tfrt.multiply.f64", multiply_f64),
        ("tfrt.minimum.f32", minimum_f32),
        ("tfrt.minimum.f64", minimum_f64),
        ("tfrt.div.i32", div_i32),
        ("tfrt.div.i64", div_i64),
        ("tfrt.div.f32", div_f32),
        ("tfrt.div.f64", div_f64),
        ("tfrt.and.i1", and_i1),
    ] {
        registry.add_kernel(name, kernel);
    }
}
