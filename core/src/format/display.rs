//! Attributes printed in MLIR's attribute syntax, for listings and errors.

use std::fmt::{self, Display, Formatter, Write};

use super::attr::{Attribute, DenseAttr};
use super::dtype::DType;

/// Writes `bytes` as an MLIR string literal (`\XX` escapes for bytes that
/// are not printable ASCII).
pub fn write_string_literal(f: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    f.write_char('"')?;
    for &b in bytes {
        match b {
            b'"' | b'\\' => write!(f, "\\{}", b as char)?,
            0x20..=0x7e => f.write_char(b as char)?,
            _ => write!(f, "\\{b:02X}")?,
        }
    }
    f.write_char('"')
}

fn write_list<T>(
    f: &mut Formatter<'_>,
    items: &[T],
    mut item: impl FnMut(&mut Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    f.write_char('[')?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        item(f, x)?;
    }
    f.write_char(']')
}

/// A dimension list `2x?x3` (`?` for unknown sizes).
pub fn dims(shape: &[i64]) -> String {
    shape
        .iter()
        .map(|&d| if d < 0 { "?".to_owned() } else { d.to_string() })
        .collect::<Vec<_>>()
        .join("x")
}

impl Display for Attribute {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Attribute::I1(v) => write!(f, "{v}"),
            Attribute::I8(v) => write!(f, "{v} : i8"),
            Attribute::I16(v) => write!(f, "{v} : i16"),
            Attribute::I32(v) => write!(f, "{v} : i32"),
            Attribute::I64(v) => write!(f, "{v} : i64"),
            Attribute::UI8(v) => write!(f, "{v} : ui8"),
            Attribute::UI16(v) => write!(f, "{v} : ui16"),
            Attribute::UI32(v) => write!(f, "{v} : ui32"),
            Attribute::UI64(v) => write!(f, "{v} : ui64"),
            Attribute::F16(bits) => write!(f, "0x{bits:04X} : f16"),
            Attribute::BF16(bits) => write!(f, "0x{bits:04X} : bf16"),
            Attribute::F32(bits) => write!(f, "{:?} : f32", f32::from_bits(*bits)),
            Attribute::F64(bits) => write!(f, "{:?} : f64", f64::from_bits(*bits)),
            Attribute::String(bytes) => write_string_literal(f, bytes),
            Attribute::Type(dtype) => f.write_str(dtype.mlir_name()),
            Attribute::Func(name) => {
                f.write_char('@')?;
                write_string_literal(f, name)
            }
            Attribute::Shape(None) => f.write_str("#corert.shape<*>"),
            Attribute::Shape(Some(shape)) => write!(f, "#corert.shape<{}>", dims(shape)),
            Attribute::Dense(dense) => write_dense(f, dense),
            Attribute::Array { values, .. } => write_list(f, values, |f, v| write!(f, "{v}")),
            Attribute::Aggregate(values) => write_list(f, values, |f, v| write!(f, "{v}")),
            Attribute::CompilationUnit(unit) => {
                write!(f, "@{}", String::from_utf8_lossy(&unit.root))?;
                for nested in &unit.nested {
                    write!(f, "::@{}", String::from_utf8_lossy(nested))?;
                }
                write!(
                    f,
                    " /* compilation unit {}, {} bytes */",
                    unit.id,
                    unit.serialized.len()
                )
            }
        }
    }
}

fn element(dtype: DType, b: &[u8]) -> String {
    let u = |n: usize| {
        let mut raw = [0u8; 8];
        raw[..n].copy_from_slice(&b[..n]);
        u64::from_le_bytes(raw)
    };
    match dtype {
        DType::I1 => (b[0] != 0).to_string(),
        DType::I8 => (b[0] as i8).to_string(),
        DType::I16 => (u(2) as u16 as i16).to_string(),
        DType::I32 => (u(4) as u32 as i32).to_string(),
        DType::I64 => (u(8) as i64).to_string(),
        DType::UI8 | DType::UI16 | DType::UI32 | DType::UI64 => u(b.len()).to_string(),
        DType::F16 | DType::BF16 => format!("0x{:04X}", u(2)),
        DType::F32 => format!("{:?}", f32::from_bits(u(4) as u32)),
        DType::F64 => format!("{:?}", f64::from_bits(u(8))),
        DType::Complex64 => {
            let (re, im) = (
                f32::from_bits(u(4) as u32),
                f32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            );
            format!("({re:?}, {im:?})")
        }
        DType::Complex128 => {
            let im = f64::from_le_bytes(b[8..16].try_into().unwrap_or_default());
            format!("({:?}, {im:?})", f64::from_bits(u(8)))
        }
        _ => "?".to_owned(),
    }
}

fn write_dense(f: &mut Formatter<'_>, dense: &DenseAttr) -> fmt::Result {
    let size = dense.dtype.host_size().unwrap_or(1);
    let values: Vec<String> = dense
        .data
        .chunks_exact(size)
        .map(|b| element(dense.dtype, b))
        .collect();
    f.write_str("dense<")?;
    if dense.shape.is_empty() {
        f.write_str(values.first().map_or("", String::as_str))?;
    } else {
        write_nested(f, &dense.shape, &values)?;
    }
    let shape = dims(&dense.shape);
    let sep = if shape.is_empty() { "" } else { "x" };
    write!(f, "> : tensor<{shape}{sep}{}>", dense.dtype.mlir_name())
}

fn write_nested(f: &mut Formatter<'_>, shape: &[i64], values: &[String]) -> fmt::Result {
    let Some((&outer, inner)) = shape.split_first() else {
        return f.write_str(values.first().map_or("", String::as_str));
    };
    let stride = inner.iter().map(|&d| d.max(0) as usize).product::<usize>();
    f.write_char('[')?;
    for i in 0..outer.max(0) as usize {
        if i > 0 {
            f.write_str(", ")?;
        }
        let chunk = values.get(i * stride..(i + 1) * stride).unwrap_or_default();
        write_nested(f, inner, chunk)?;
    }
    f.write_char(']')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dtype::ArrayElement;

    #[test]
    fn prints_like_mlir() {
        let array = Attribute::Array {
            element: ArrayElement::Scalar(DType::I32),
            values: vec![Attribute::I32(1), Attribute::I32(2)],
        };
        assert_eq!(array.to_string(), "[1 : i32, 2 : i32]");
        let dense = Attribute::Dense(DenseAttr {
            dtype: DType::I32,
            shape: vec![2, 2],
            data: [1i32, 2, 3, 4]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
        });
        assert_eq!(
            dense.to_string(),
            "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"
        );
        assert_eq!(
            Attribute::Shape(Some(vec![1, -1, 3])).to_string(),
            "#corert.shape<1x?x3>"
        );
        assert_eq!(Attribute::string("a\"\n").to_string(), r#""a\"\0A""#);
        assert_eq!(Attribute::f32(1.0).to_string(), "1.0 : f32");
    }
}
