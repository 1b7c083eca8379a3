//! 16-bit float values. The reference runtime keeps f16 (and bf16) values
//! as their raw bit pattern and prints f16 as that unsigned integer, so we
//! do the same; conversions to `f32` are provided for kernels that compute.

/// An IEEE 754 binary16 value, stored as its bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F16(pub u16);

/// A bfloat16 value (the upper half of an `f32`), stored as its bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bf16(pub u16);

impl Bf16 {
    /// The value as an `f32` (exact: bfloat16 is a truncated `f32`).
    pub fn to_f32(self) -> f32 {
        f32::from_bits(u32::from(self.0) << 16)
    }
}

impl F16 {
    /// The value as an `f32` (exact: every `f16` is an `f32`).
    pub fn to_f32(self) -> f32 {
        let bits = u32::from(self.0);
        let sign = (bits & 0x8000) << 16;
        let exponent = (bits >> 10) & 0x1f;
        let mantissa = bits & 0x3ff;
        let magnitude = match (exponent, mantissa) {
            (0, 0) => 0,
            // Subnormal: value = mantissa * 2^-24, exact in f32.
            (0, m) => (m as f32 * f32::powi(2.0, -24)).to_bits(),
            (0x1f, m) => 0x7f80_0000 | (m << 13),
            (e, m) => ((e + 127 - 15) << 23) | (m << 13),
        };
        f32::from_bits(sign | magnitude)
    }
}

impl crate::exec::IntoResult for F16 {
    fn into_value(self) -> crate::runtime::AsyncValue {
        crate::runtime::AsyncValue::available(self)
    }
}

impl crate::exec::IntoResult for Bf16 {
    fn into_value(self) -> crate::runtime::AsyncValue {
        crate::runtime::AsyncValue::available(self)
    }
}

impl crate::exec::TypeName for F16 {
    const NAME: &'static str = "f16";
}

impl crate::exec::TypeName for Bf16 {
    const NAME: &'static str = "bf16";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_to_f32() {
        assert_eq!(F16(0x3c00).to_f32(), 1.0);
        assert_eq!(F16(0xc000).to_f32(), -2.0);
        assert_eq!(F16(0x0001).to_f32(), f32::powi(2.0, -24));
        assert_eq!(F16(0x7c00).to_f32(), f32::INFINITY);
        assert!(F16(0x7e00).to_f32().is_nan());
        assert_eq!(Bf16(0x3f80).to_f32(), 1.0);
        assert_eq!(Bf16(0x4049).to_f32(), 3.140625);
    }
}
