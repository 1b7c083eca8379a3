//! The value model: what a caller passes to a function and gets back,
//! before it is flattened to the runtime's values.

use std::collections::BTreeMap;
use std::fmt;

/// Element types of scalars and buffers, with their codes in the raw
/// signature (`t` field) and their names in JSON reflection records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElementType {
    /// Boolean: one byte, 0 or 1. The raw signature records it as sint8.
    I1,
    /// Signed 8-bit integer.
    I8,
    /// Signed 16-bit integer.
    I16,
    /// Signed 32-bit integer.
    I32,
    /// Signed 64-bit integer.
    I64,
    /// Unsigned 8-bit integer.
    U8,
    /// Unsigned 16-bit integer.
    U16,
    /// Unsigned 32-bit integer.
    U32,
    /// Unsigned 64-bit integer.
    U64,
    /// IEEE half precision.
    F16,
    /// Google bfloat16.
    BF16,
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
}

impl ElementType {
    /// Every element type.
    pub const ALL: [ElementType; 13] = [
        ElementType::I1,
        ElementType::I8,
        ElementType::I16,
        ElementType::I32,
        ElementType::I64,
        ElementType::U8,
        ElementType::U16,
        ElementType::U32,
        ElementType::U64,
        ElementType::F16,
        ElementType::BF16,
        ElementType::F32,
        ElementType::F64,
    ];

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            ElementType::I1 | ElementType::I8 | ElementType::U8 => 1,
            ElementType::I16 | ElementType::U16 | ElementType::F16 | ElementType::BF16 => 2,
            ElementType::I32 | ElementType::U32 | ElementType::F32 => 4,
            ElementType::I64 | ElementType::U64 | ElementType::F64 => 8,
        }
    }

    /// The MLIR spelling (`i32`, `ui8`, `bf16`); also the JSON reflection
    /// name of the signed and float types.
    pub fn mlir_name(self) -> &'static str {
        match self {
            ElementType::I1 => "i1",
            ElementType::I8 => "i8",
            ElementType::I16 => "i16",
            ElementType::I32 => "i32",
            ElementType::I64 => "i64",
            ElementType::U8 => "ui8",
            ElementType::U16 => "ui16",
            ElementType::U32 => "ui32",
            ElementType::U64 => "ui64",
            ElementType::F16 => "f16",
            ElementType::BF16 => "bf16",
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
        }
    }

    /// The type MLIR spells `name` (`si8` is `i8`), if it is one.
    pub fn from_mlir_name(name: &str) -> Option<ElementType> {
        match name {
            "si8" => return Some(ElementType::I8),
            "si16" => return Some(ElementType::I16),
            "si32" => return Some(ElementType::I32),
            "si64" => return Some(ElementType::I64),
            _ => {}
        }
        ElementType::ALL.into_iter().find(|t| t.mlir_name() == name)
    }

    /// The runtime's dtype of the same element type.
    pub fn dtype(self) -> crate::format::DType {
        use crate::format::DType;
        match self {
            ElementType::I1 => DType::I1,
            ElementType::I8 => DType::I8,
            ElementType::I16 => DType::I16,
            ElementType::I32 => DType::I32,
            ElementType::I64 => DType::I64,
            ElementType::U8 => DType::UI8,
            ElementType::U16 => DType::UI16,
            ElementType::U32 => DType::UI32,
            ElementType::U64 => DType::UI64,
            ElementType::F16 => DType::F16,
            ElementType::BF16 => DType::BF16,
            ElementType::F32 => DType::F32,
            ElementType::F64 => DType::F64,
        }
    }

    /// The element type of a runtime dtype, if it has one.
    pub fn from_dtype(dtype: crate::format::DType) -> Option<ElementType> {
        ElementType::ALL.into_iter().find(|t| t.dtype() == dtype)
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mlir_name())
    }
}

/// A packed, row-major n-dimensional array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Its element type.
    pub element: ElementType,
    /// Its dimensions, outermost first (empty: a single element).
    pub shape: Vec<u64>,
    /// Its elements, native byte order, `element.size()` bytes each.
    pub data: Vec<u8>,
}

impl Buffer {
    /// A buffer of `shape` holding `data`, or why the bytes do not fit the
    /// shape.
    pub fn new(element: ElementType, shape: Vec<u64>, data: Vec<u8>) -> Result<Buffer, String> {
        let expected = byte_size(element, &shape)
            .ok_or_else(|| format!("a buffer of shape {} is too large", dims_text(&shape)))?;
        if data.len() as u64 != expected {
            return Err(format!(
                "a {element} buffer of shape {} needs {expected} bytes, not {}",
                dims_text(&shape),
                data.len()
            ));
        }
        Ok(Buffer {
            element,
            shape,
            data,
        })
    }

    /// Its number of elements.
    pub fn num_elements(&self) -> u64 {
        self.shape.iter().product()
    }
}

/// The bytes `shape` needs of `element`s, unless that overflows.
pub fn byte_size(element: ElementType, shape: &[u64]) -> Option<u64> {
    shape
        .iter()
        .try_fold(element.size() as u64, |acc, &d| acc.checked_mul(d))
}

/// `2x3`, or `scalar` for rank 0.
pub(crate) fn dims_text(shape: &[u64]) -> String {
    if shape.is_empty() {
        return "[]".to_string();
    }
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    format!("[{}]", dims.join("x"))
}

/// A value given to or returned by a typed call.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An `i1`.
    I1(bool),
    /// An `i8`.
    I8(i8),
    /// An `i16`.
    I16(i16),
    /// An `i32`.
    I32(i32),
    /// An `i64`.
    I64(i64),
    /// A `ui8`.
    U8(u8),
    /// A `ui16`.
    U16(u16),
    /// A `ui32`.
    U32(u32),
    /// A `ui64`.
    U64(u64),
    /// An `f16`, as its bits.
    F16(u16),
    /// A `bf16`, as its bits.
    BF16(u16),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// An n-dimensional array.
    Buffer(Buffer),
    /// A byte string.
    String(Vec<u8>),
    /// An opaque reference of the runtime type named (`!tfrt.chain`).
    Ref(String),
    /// A null reference: a slot of a structure that no argument fills.
    Null,
    /// A fixed-length sequence, each position with its own type.
    Tuple(Vec<Value>),
    /// A sequence whose elements share one type.
    List(Vec<Value>),
    /// Named slots, in sorted key order.
    Struct(BTreeMap<String, Value>),
}

impl Value {
    /// The element type of a scalar value.
    pub fn scalar_type(&self) -> Option<ElementType> {
        Some(match self {
            Value::I1(_) => ElementType::I1,
            Value::I8(_) => ElementType::I8,
            Value::I16(_) => ElementType::I16,
            Value::I32(_) => ElementType::I32,
            Value::I64(_) => ElementType::I64,
            Value::U8(_) => ElementType::U8,
            Value::U16(_) => ElementType::U16,
            Value::U32(_) => ElementType::U32,
            Value::U64(_) => ElementType::U64,
            Value::F16(_) => ElementType::F16,
            Value::BF16(_) => ElementType::BF16,
            Value::F32(_) => ElementType::F32,
            Value::F64(_) => ElementType::F64,
            _ => return None,
        })
    }

    /// What kind of value this is, for messages (`i32`, `Buffer<f32[2x3]>`,
    /// `tuple of 2`).
    pub fn describe(&self) -> String {
        match self {
            Value::Buffer(b) => format!("Buffer<{}{}>", b.element, dims_text(&b.shape)),
            Value::String(s) => format!("string of {} bytes", s.len()),
            Value::Ref(type_name) => format!("reference {type_name}"),
            Value::Null => "null".to_string(),
            Value::Tuple(v) => format!("tuple of {}", v.len()),
            Value::List(v) => format!("list of {}", v.len()),
            Value::Struct(m) => format!("struct of {}", m.len()),
            scalar => scalar
                .scalar_type()
                .map(|t| t.to_string())
                .unwrap_or_default(),
        }
    }
}
