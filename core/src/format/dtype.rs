//! Data types (`DType` in the reference) and the one-byte attribute type
//! codes built on them.

/// Element types of scalars, arrays and dense attributes. The discriminant
/// is the byte stored in BEF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[repr(u8)]
pub enum DType {
    /// No dtype; the header dtype of attributes without elements (shapes).
    Invalid = 0,
    /// 8-bit unsigned integer.
    UI8 = 1,
    /// 16-bit unsigned integer.
    UI16 = 2,
    /// 32-bit unsigned integer.
    UI32 = 3,
    /// 64-bit unsigned integer.
    UI64 = 4,
    /// Boolean, one byte per element.
    I1 = 5,
    /// 8-bit signed integer.
    I8 = 6,
    /// 16-bit signed integer.
    I16 = 7,
    /// 32-bit signed integer.
    I32 = 8,
    /// 64-bit signed integer.
    I64 = 9,
    /// IEEE single precision float.
    F32 = 10,
    /// IEEE double precision float.
    F64 = 11,
    /// Complex number of two `f32`s.
    Complex64 = 12,
    /// Complex number of two `f64`s.
    Complex128 = 13,
    /// IEEE half precision float.
    F16 = 14,
    /// bfloat16.
    BF16 = 15,
    /// TensorFlow string.
    String = 16,
    /// TensorFlow resource handle.
    Resource = 17,
    /// TensorFlow variant.
    Variant = 18,
    /// Quantized 8-bit unsigned integer.
    QUI8 = 19,
    /// Quantized 16-bit unsigned integer.
    QUI16 = 20,
    /// Quantized 8-bit signed integer.
    QI8 = 21,
    /// Quantized 16-bit signed integer.
    QI16 = 22,
    /// Quantized 32-bit signed integer.
    QI32 = 23,
    /// A type BEF has no code for.
    Unsupported = 24,
}

impl DType {
    /// Every dtype, in code order.
    pub const ALL: [DType; 25] = [
        DType::Invalid,
        DType::UI8,
        DType::UI16,
        DType::UI32,
        DType::UI64,
        DType::I1,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::F32,
        DType::F64,
        DType::Complex64,
        DType::Complex128,
        DType::F16,
        DType::BF16,
        DType::String,
        DType::Resource,
        DType::Variant,
        DType::QUI8,
        DType::QUI16,
        DType::QI8,
        DType::QI16,
        DType::QI32,
        DType::Unsupported,
    ];

    /// The dtype with byte `code`, if any.
    pub fn from_u8(code: u8) -> Option<DType> {
        DType::ALL.get(usize::from(code)).copied()
    }

    /// The MLIR spelling of the type.
    pub fn mlir_name(self) -> &'static str {
        match self {
            DType::Invalid => "<invalid>",
            DType::UI8 => "ui8",
            DType::UI16 => "ui16",
            DType::UI32 => "ui32",
            DType::UI64 => "ui64",
            DType::I1 => "i1",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::Complex64 => "complex<f32>",
            DType::Complex128 => "complex<f64>",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::String => "!corert.string",
            DType::Resource => "!corert.resource",
            DType::Variant => "!corert.variant",
            DType::QUI8 => "!corert.quint8",
            DType::QUI16 => "!corert.quint16",
            DType::QI8 => "!corert.qint8",
            DType::QI16 => "!corert.qint16",
            DType::QI32 => "!corert.qint32",
            DType::Unsupported => "<unsupported>",
        }
    }

    /// Bytes per element in host memory, for the fixed-width types.
    pub fn host_size(self) -> Option<usize> {
        Some(match self {
            DType::UI8 | DType::I1 | DType::I8 | DType::QUI8 | DType::QI8 => 1,
            DType::UI16 | DType::I16 | DType::F16 | DType::BF16 | DType::QUI16 | DType::QI16 => 2,
            DType::UI32 | DType::I32 | DType::F32 | DType::QI32 => 4,
            DType::UI64 | DType::I64 | DType::F64 | DType::Complex64 => 8,
            DType::Complex128 => 16,
            _ => return None,
        })
    }

    /// Alignment in host memory (complex numbers align like their parts).
    pub fn host_alignment(self) -> Option<usize> {
        match self {
            DType::Complex64 => Some(4),
            DType::Complex128 => Some(8),
            other => other.host_size(),
        }
    }

    /// Types the reference encoder accepts as dense-elements element types.
    pub fn is_dense_element(self) -> bool {
        ScalarKind::from_dtype(self).is_some()
            || matches!(self, DType::Complex64 | DType::Complex128)
    }
}

/// The one-byte attribute type code (`BEFAttributeType`): a `DType` for
/// scalars, one of the codes below, or `0x80 | element` for arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrType(pub u8);

impl AttrType {
    /// A type attribute; its value is a dtype byte.
    pub const TYPE: AttrType = AttrType(25);
    /// A function name attribute.
    pub const FUNC: AttrType = AttrType(26);
    /// A `#corert.shape` attribute.
    pub const SHAPE: AttrType = AttrType(27);
    /// A dense elements attribute.
    pub const DENSE: AttrType = AttrType(28);
    /// A symbol reference with its compilation unit.
    pub const SYMBOL_REF: AttrType = AttrType(29);
    /// A list of attributes of mixed or nested types.
    pub const AGGREGATE: AttrType = AttrType(30);
    /// Set in the code of an array type; the low bits are the element's code.
    pub const ARRAY_BIT: u8 = 0x80;
    /// `[]` is typed as an empty i32 array.
    pub const EMPTY_ARRAY: AttrType = AttrType(0x80 | DType::I32 as u8);

    /// The code of a scalar of `dtype`.
    pub fn scalar(dtype: DType) -> AttrType {
        AttrType(dtype as u8)
    }

    /// The code of an array of `element`s.
    pub fn array_of(element: ArrayElement) -> AttrType {
        AttrType(Self::ARRAY_BIT | element.code())
    }

    /// Whether this is an array type code.
    pub fn is_array(self) -> bool {
        self.0 & Self::ARRAY_BIT != 0
    }

    /// The element kind of an array type.
    pub fn array_element(self) -> Option<ArrayElement> {
        if self.is_array() {
            ArrayElement::from_code(self.0 & !Self::ARRAY_BIT)
        } else {
            None
        }
    }

    /// A readable name: `i32`, `string`, `type`, `i64_array`, ...
    pub fn name(self) -> String {
        if let Some(element) = self.array_element() {
            return format!("{}_array", element.name());
        }
        match self {
            AttrType::TYPE => "type".into(),
            AttrType::FUNC => "func".into(),
            AttrType::SHAPE => "shape".into(),
            AttrType::DENSE => "dense".into(),
            AttrType::SYMBOL_REF => "symbol_ref".into(),
            AttrType::AGGREGATE => "aggregate".into(),
            AttrType(code) => match DType::from_u8(code) {
                Some(DType::String) => "string".into(),
                Some(dtype) if ScalarKind::from_dtype(dtype).is_some() => dtype.mlir_name().into(),
                _ => format!("unknown({code})"),
            },
        }
    }
}

/// Scalars that can be attributes: the integer and float dtypes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScalarKind(DType);

impl ScalarKind {
    /// `dtype` as a scalar kind, if it is an integer or float type.
    pub fn from_dtype(dtype: DType) -> Option<ScalarKind> {
        matches!(
            dtype,
            DType::UI8
                | DType::UI16
                | DType::UI32
                | DType::UI64
                | DType::I1
                | DType::I8
                | DType::I16
                | DType::I32
                | DType::I64
                | DType::F16
                | DType::BF16
                | DType::F32
                | DType::F64
        )
        .then_some(ScalarKind(dtype))
    }

    /// The scalar's dtype.
    pub fn dtype(self) -> DType {
        self.0
    }
}

/// The element kind of an array attribute: a scalar dtype or `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrayElement {
    /// Elements of a scalar dtype (integer or float).
    Scalar(DType),
    /// Elements that are types, one dtype byte each.
    Type,
}

impl ArrayElement {
    /// The element kind of the array type code with `ARRAY_BIT` cleared.
    pub fn from_code(code: u8) -> Option<ArrayElement> {
        if code == AttrType::TYPE.0 {
            return Some(ArrayElement::Type);
        }
        let dtype = DType::from_u8(code)?;
        ScalarKind::from_dtype(dtype).map(|_| ArrayElement::Scalar(dtype))
    }

    /// The element kind's byte in an array type code.
    pub fn code(self) -> u8 {
        match self {
            ArrayElement::Scalar(dtype) => dtype as u8,
            ArrayElement::Type => AttrType::TYPE.0,
        }
    }

    /// Bytes per element in an array.
    pub fn size(self) -> usize {
        match self {
            ArrayElement::Scalar(dtype) => dtype.host_size().unwrap_or(1),
            ArrayElement::Type => 1,
        }
    }

    /// Alignment of the elements in an array.
    pub fn alignment(self) -> usize {
        match self {
            ArrayElement::Scalar(dtype) => dtype.host_alignment().unwrap_or(1),
            ArrayElement::Type => 1,
        }
    }

    /// The MLIR spelling of the element type (`type` for types).
    pub fn name(self) -> &'static str {
        match self {
            ArrayElement::Scalar(dtype) => dtype.mlir_name(),
            ArrayElement::Type => "type",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_fact_sheet() {
        assert_eq!(DType::Unsupported as u8, 24);
        assert_eq!(AttrType::EMPTY_ARRAY.0, 136);
        assert_eq!(AttrType::array_of(ArrayElement::Type).0, 153);
        assert_eq!(AttrType::array_of(ArrayElement::Scalar(DType::BF16)).0, 143);
        for dtype in DType::ALL {
            assert_eq!(DType::from_u8(dtype as u8), Some(dtype));
        }
        assert_eq!(AttrType(137).name(), "i64_array");
        assert_eq!(AttrType(16).name(), "string");
    }
}
