//! Element types of dense tensors: their dtype, byte form and printing.

use crate::exec::attribute::AttrScalar;
use crate::format::DType;

/// A numeric element of a dense host tensor, stored little-endian.
pub(crate) trait Element: AttrScalar + PartialEq {
    /// The element's dtype.
    const DTYPE: DType;
    /// Writes the value's `SIZE` little-endian bytes into `out`.
    fn write(self, out: &mut [u8]);
    /// The value as the reference prints tensor elements: integers in
    /// decimal, floats as C's `%e`.
    fn format(self) -> String;
    /// Whether the value is zero (not stored by sparse tensors).
    fn is_zero(self) -> bool;
}

macro_rules! integers {
    ($($t:ty => $dtype:ident),*) => {$(
        impl Element for $t {
            const DTYPE: DType = DType::$dtype;
            fn write(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            fn format(self) -> String {
                self.to_string()
            }
            fn is_zero(self) -> bool {
                self == 0
            }
        }
    )*};
}

integers!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => UI8, u16 => UI16,
          u32 => UI32, u64 => UI64);

macro_rules! floats {
    ($($t:ty => $dtype:ident),*) => {$(
        impl Element for $t {
            const DTYPE: DType = DType::$dtype;
            fn write(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            fn format(self) -> String {
                printf_e(f64::from(self))
            }
            fn is_zero(self) -> bool {
                self == 0.0
            }
        }
    )*};
}

floats!(f32 => F32, f64 => F64);

/// Formats like C's `printf("%e")`: `1.000000e+00`, `-2.500000e-03`.
pub(crate) fn printf_e(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    let rust = format!("{x:.6e}");
    let (mantissa, exponent) = rust.split_once('e').unwrap_or((&rust, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
}

/// The dtype a kernel name spells (`i32`, `f32`, `ui8`, ...), among those
/// dense host tensors hold.
pub(crate) fn dtype_named(name: &str) -> Option<DType> {
    DTYPES.iter().copied().find(|d| d.mlir_name() == name)
}

/// The dtypes of dense host tensors.
pub(crate) const DTYPES: [DType; 10] = [
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::UI8,
    DType::UI16,
    DType::UI32,
    DType::UI64,
    DType::F32,
    DType::F64,
];

/// The element at `index` of little-endian `bytes` holding `dtype`
/// elements, formatted for printing.
pub(crate) fn format_element(dtype: DType, bytes: &[u8], index: usize) -> String {
    fn at<T: Element>(bytes: &[u8], index: usize) -> String {
        bytes
            .get(index * T::SIZE..(index + 1) * T::SIZE)
            .map_or_else(|| "?".to_string(), |b| T::from_le(b).format())
    }
    match dtype {
        DType::I8 => at::<i8>(bytes, index),
        DType::I16 => at::<i16>(bytes, index),
        DType::I32 => at::<i32>(bytes, index),
        DType::I64 => at::<i64>(bytes, index),
        DType::UI8 => at::<u8>(bytes, index),
        DType::UI16 => at::<u16>(bytes, index),
        DType::UI32 => at::<u32>(bytes, index),
        DType::UI64 => at::<u64>(bytes, index),
        DType::F32 => at::<f32>(bytes, index),
        DType::F64 => at::<f64>(bytes, index),
        _ => "?".to_string(),
    }
}
