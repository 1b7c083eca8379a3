//! IR attributes ↔ BEF attributes, with the reference encoder's rules for
//! what BEF can hold (`BefAttrEmitter::GetBefAttributeType`).

use crate::format::{ArrayElement, Attribute as BefAttribute, DType, DenseAttr};
use crate::ir::{Attribute, DenseElements, FloatKind, Signedness, Type};

/// Expanded dense payloads larger than this are refused: BEF stores every
/// element of a splat, and a tiny `dense<0> : tensor<99999999999xi8>` must
/// not allocate without bound.
pub const MAX_DENSE_BYTES: u64 = 1 << 26;

/// Splats of one module may expand to this many bytes in all. A splat is a
/// few bytes of text whatever it expands to, so this allowance is not
/// proportional to the input: it is kept to half the fixed 64 MiB that
/// translation may use beyond 64 times its input's size.
pub const MAX_SPLAT_BYTES: u64 = 1 << 25;

/// The BEF data type of a scalar or tensor element type.
pub fn dtype_of(ty: &Type) -> Option<DType> {
    Some(match ty {
        Type::Integer { width, signedness } => match (signedness, width) {
            (Signedness::Unsigned, 8) => DType::UI8,
            (Signedness::Unsigned, 16) => DType::UI16,
            (Signedness::Unsigned, 32) => DType::UI32,
            (Signedness::Unsigned, 64) => DType::UI64,
            (Signedness::Unsigned, _) => return None,
            (_, 1) => DType::I1,
            (_, 8) => DType::I8,
            (_, 16) => DType::I16,
            (_, 32) => DType::I32,
            (_, 64) => DType::I64,
            _ => return None,
        },
        Type::Float(FloatKind::BF16) => DType::BF16,
        Type::Float(FloatKind::F16) => DType::F16,
        Type::Float(FloatKind::F32) => DType::F32,
        Type::Float(FloatKind::F64) => DType::F64,
        Type::Complex(element) => match **element {
            Type::Float(FloatKind::F32) => DType::Complex64,
            Type::Float(FloatKind::F64) => DType::Complex128,
            _ => return None,
        },
        Type::Dialect { dialect, body } if &**dialect == "corert" => match &**body {
            "string" => DType::String,
            "resource" => DType::Resource,
            "variant" => DType::Variant,
            "quint8" => DType::QUI8,
            "quint16" => DType::QUI16,
            "qint8" => DType::QI8,
            "qint16" => DType::QI16,
            "qint32" => DType::QI32,
            _ => return None,
        },
        _ => return None,
    })
}

/// The MLIR type a BEF data type stands for.
pub fn type_of(dtype: DType) -> Option<Type> {
    Some(match dtype {
        DType::UI8 => Type::ui(8),
        DType::UI16 => Type::ui(16),
        DType::UI32 => Type::ui(32),
        DType::UI64 => Type::ui(64),
        DType::I1 => Type::i(1),
        DType::I8 => Type::i(8),
        DType::I16 => Type::i(16),
        DType::I32 => Type::i(32),
        DType::I64 => Type::i(64),
        DType::F32 => Type::f32(),
        DType::F64 => Type::f64(),
        DType::F16 => Type::Float(FloatKind::F16),
        DType::BF16 => Type::Float(FloatKind::BF16),
        DType::Complex64 => Type::Complex(Box::new(Type::f32())),
        DType::Complex128 => Type::Complex(Box::new(Type::f64())),
        DType::String => Type::dialect("corert", "string"),
        DType::Resource => Type::dialect("corert", "resource"),
        DType::Variant => Type::dialect("corert", "variant"),
        DType::QUI8 => Type::dialect("corert", "quint8"),
        DType::QUI16 => Type::dialect("corert", "quint16"),
        DType::QI8 => Type::dialect("corert", "qint8"),
        DType::QI16 => Type::dialect("corert", "qint16"),
        DType::QI32 => Type::dialect("corert", "qint32"),
        DType::Invalid | DType::Unsupported => return None,
    })
}

/// Why an attribute cannot be written; the caller names the attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsupported {
    /// BEF has no encoding for this kind of attribute.
    Kind,
    /// Dense elements that would expand to this many bytes.
    TooLarge(u64),
    /// Aggregates nested this many levels deep, more than
    /// [`MAX_NESTING`](crate::format::constants::MAX_NESTING).
    TooDeep(usize),
}

/// Converts an attribute that is not a function reference. `Err` means
/// "BEF files cannot encode" it.
pub fn to_bef(attr: &Attribute) -> Result<BefAttribute, Unsupported> {
    let converted = convert(attr)?;
    let depth = converted.nesting_depth();
    if depth > crate::format::constants::MAX_NESTING {
        return Err(Unsupported::TooDeep(depth));
    }
    Ok(converted)
}

fn convert(attr: &Attribute) -> Result<BefAttribute, Unsupported> {
    Ok(match attr {
        Attribute::Bool(value) => BefAttribute::I1(*value),
        Attribute::Integer { value, ty } => integer(*value, ty)?,
        Attribute::Float { bits, ty } => match ty {
            Type::Float(FloatKind::F16) => BefAttribute::F16(*bits as u16),
            Type::Float(FloatKind::BF16) => BefAttribute::BF16(*bits as u16),
            Type::Float(FloatKind::F32) => BefAttribute::F32(*bits as u32),
            Type::Float(FloatKind::F64) => BefAttribute::F64(*bits as u64),
            _ => return Err(Unsupported::Kind),
        },
        Attribute::String { value, .. } => BefAttribute::String(value.clone()),
        Attribute::Type(ty) => match dtype_of(ty) {
            // Unsigned i1 has no data type; the reference would crash.
            Some(dtype) => BefAttribute::Type(dtype),
            None => return Err(Unsupported::Kind),
        },
        Attribute::Shape(dims) => BefAttribute::Shape(dims.clone()),
        Attribute::DenseElements(dense) => BefAttribute::Dense(dense_to_bef(dense)?),
        Attribute::Array(elements) => array(elements)?,
        _ => return Err(Unsupported::Kind),
    })
}

fn integer(value: i128, ty: &Type) -> Result<BefAttribute, Unsupported> {
    // The reference takes the value's low bits (`getLimitedValue` then a
    // cast), so a wrapped value encodes as its truncation.
    let bits = value as u64;
    Ok(match dtype_of(ty) {
        Some(DType::I1) => BefAttribute::I1(bits & 1 == 1),
        Some(DType::I8) => BefAttribute::I8(bits as i8),
        Some(DType::I16) => BefAttribute::I16(bits as i16),
        Some(DType::I32) => BefAttribute::I32(bits as i32),
        Some(DType::I64) => BefAttribute::I64(bits as i64),
        Some(DType::UI8) => BefAttribute::UI8(bits as u8),
        Some(DType::UI16) => BefAttribute::UI16(bits as u16),
        Some(DType::UI32) => BefAttribute::UI32(bits as u32),
        Some(DType::UI64) => BefAttribute::UI64(bits),
        _ => return Err(Unsupported::Kind),
    })
}

/// The bytes a dense splat expands to in BEF (every element stored), or
/// `None` when `dense` is not a splat or has no static shape.
pub fn splat_bytes(dense: &DenseElements) -> Option<u64> {
    let Type::Tensor {
        shape: Some(shape),
        element,
        ..
    } = &dense.ty
    else {
        return None;
    };
    if !dense.splat {
        return None;
    }
    let size = dtype_of(element)?.host_size()? as u64;
    shape.iter().try_fold(size, |total, &dim| {
        total.checked_mul(u64::try_from(dim).ok()?)
    })
}

fn dense_to_bef(dense: &DenseElements) -> Result<DenseAttr, Unsupported> {
    let Type::Tensor {
        shape: Some(shape),
        element,
        encoding: None,
    } = &dense.ty
    else {
        return Err(Unsupported::Kind);
    };
    let dtype = dtype_of(element).ok_or(Unsupported::Kind)?;
    if matches!(dtype, DType::String | DType::Resource | DType::Variant)
        || matches!(
            dtype,
            DType::QUI8 | DType::QUI16 | DType::QI8 | DType::QI16 | DType::QI32
        )
    {
        return Err(Unsupported::Kind);
    }
    let size = dtype.host_size().ok_or(Unsupported::Kind)? as u64;
    let mut count: u64 = 1;
    for &dim in shape {
        let dim = u64::try_from(dim).map_err(|_| Unsupported::Kind)?;
        count = count
            .checked_mul(dim)
            .ok_or(Unsupported::TooLarge(u64::MAX))?;
    }
    let total = count
        .checked_mul(size)
        .ok_or(Unsupported::TooLarge(u64::MAX))?;
    if total > MAX_DENSE_BYTES {
        return Err(Unsupported::TooLarge(total));
    }
    let data = if dense.splat {
        if dense.data.len() as u64 != size {
            return Err(Unsupported::Kind);
        }
        dense.data.repeat(count as usize)
    } else {
        if dense.data.len() as u64 != total {
            return Err(Unsupported::Kind);
        }
        dense.data.clone()
    };
    Ok(DenseAttr {
        dtype,
        shape: shape.clone(),
        data,
    })
}

/// Arrays whose elements all have the same fixed-width kind are arrays;
/// anything else (mixed, nested, strings) is an aggregate.
fn array(elements: &[Attribute]) -> Result<BefAttribute, Unsupported> {
    let converted = elements
        .iter()
        .map(convert)
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = converted.first() else {
        return Ok(BefAttribute::Array {
            element: ArrayElement::Scalar(DType::I32),
            values: Vec::new(),
        });
    };
    let kind = fixed_kind(first);
    if let Some(kind) = kind
        && converted.iter().all(|e| fixed_kind(e) == Some(kind))
    {
        return Ok(BefAttribute::Array {
            element: kind,
            values: converted,
        });
    }
    Ok(BefAttribute::Aggregate(converted))
}

fn fixed_kind(attr: &BefAttribute) -> Option<ArrayElement> {
    match attr {
        BefAttribute::Type(_) => Some(ArrayElement::Type),
        other => other
            .scalar_dtype()
            .and_then(|dtype| ArrayElement::from_code(dtype as u8)),
    }
}

/// The IR attribute for a decoded BEF attribute; `None` for kinds the
/// reference encoder never writes (function names, compilation units).
pub fn from_bef(attr: &BefAttribute) -> Option<Attribute> {
    let int = |value: i128, ty: Type| Attribute::Integer { value, ty };
    Some(match attr {
        BefAttribute::I1(v) => Attribute::Bool(*v),
        BefAttribute::I8(v) => int((*v).into(), Type::i(8)),
        BefAttribute::I16(v) => int((*v).into(), Type::i(16)),
        BefAttribute::I32(v) => int((*v).into(), Type::i(32)),
        BefAttribute::I64(v) => int((*v).into(), Type::i(64)),
        BefAttribute::UI8(v) => int((*v).into(), Type::ui(8)),
        BefAttribute::UI16(v) => int((*v).into(), Type::ui(16)),
        BefAttribute::UI32(v) => int((*v).into(), Type::ui(32)),
        BefAttribute::UI64(v) => int((*v).into(), Type::ui(64)),
        BefAttribute::F16(bits) => float((*bits).into(), FloatKind::F16),
        BefAttribute::BF16(bits) => float((*bits).into(), FloatKind::BF16),
        BefAttribute::F32(bits) => float((*bits).into(), FloatKind::F32),
        BefAttribute::F64(bits) => float((*bits).into(), FloatKind::F64),
        BefAttribute::String(value) => Attribute::String {
            value: value.clone(),
            ty: None,
        },
        BefAttribute::Type(dtype) => Attribute::Type(type_of(*dtype)?),
        BefAttribute::Shape(dims) => Attribute::Shape(dims.clone()),
        BefAttribute::Dense(dense) => Attribute::DenseElements(dense_from_bef(dense)?),
        BefAttribute::Array { values, .. } | BefAttribute::Aggregate(values) => {
            Attribute::Array(values.iter().map(from_bef).collect::<Option<_>>()?)
        }
        BefAttribute::Func(_) | BefAttribute::CompilationUnit(_) => return None,
    })
}

fn float(bits: u128, kind: FloatKind) -> Attribute {
    Attribute::Float {
        bits,
        ty: Type::Float(kind),
    }
}

fn dense_from_bef(dense: &DenseAttr) -> Option<DenseElements> {
    let element = type_of(dense.dtype)?;
    let mut elements = DenseElements {
        ty: Type::Tensor {
            shape: Some(dense.shape.clone()),
            element: Box::new(element),
            encoding: None,
        },
        splat: false,
        data: dense.data.clone(),
    };
    let size = dense.dtype.host_size()?;
    elements.make_splat_if_uniform(size);
    Some(elements)
}
