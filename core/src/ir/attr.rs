//! Attributes of the host-program IR: everything BEF can encode, plus the
//! builtin forms the parser must hold to report a precise error later (for
//! example a unit attribute, which BEF cannot encode).

use super::affine::{AffineMap, IntegerSet};
use super::location::Location;
use super::types::Type;

/// `name = value` in an attribute dictionary.
pub type NamedAttribute = (String, Attribute);

/// An attribute value of the IR, as MLIR prints and compares it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// `unit`, or a dictionary key without a value.
    Unit,
    /// `true` / `false` (MLIR's `i1` integer attribute printed as a bool).
    Bool(bool),
    /// `42 : i32`, `7 : index`. The value is sign-extended from the type's
    /// width; unsigned values above `i64::MAX` fit because the store is i128.
    Integer {
        /// The value, sign-extended from the type's width.
        value: i128,
        /// An integer type or `index`.
        ty: Type,
    },
    /// `1.5 : f32`, kept as the bit pattern of the type's format so that
    /// printing and re-parsing never changes a bit.
    Float {
        /// The value's bit pattern in the type's format, in the low bits.
        bits: u128,
        /// A float type.
        ty: Type,
    },
    /// `"text"` or `"text" : type`; bytes, since `\xx` escapes may produce
    /// anything.
    String {
        /// The unescaped bytes.
        value: Vec<u8>,
        /// The type after the colon, if one was given.
        ty: Option<Type>,
    },
    /// A type used as an attribute: `value = f32`.
    Type(Type),
    /// `@root::@nested`
    SymbolRef {
        /// The root symbol's name, without `@`.
        root: String,
        /// Nested symbol names, outermost first, without `@`.
        nested: Vec<String>,
    },
    /// `[a, b, c]`
    Array(Vec<Attribute>),
    /// `{a = 1 : i32, b}`; keys sorted and unique.
    Dictionary(Vec<NamedAttribute>),
    /// `dense<...> : tensor<...>`.
    DenseElements(DenseElements),
    /// `array<i32: 1, 2>`: elements of `element`, little-endian.
    DenseArray {
        /// Element type (an integer or float type).
        element: Type,
        /// The elements, each little-endian (`i1` one byte each).
        data: Vec<u8>,
    },
    /// `#corert.shape<1x?x3>` (BEF's shape attribute); `None` is unranked.
    /// Unknown dimensions are `-1`, as BEF stores them.
    Shape(Option<Vec<i64>>),
    /// A location used as an attribute (fused-location metadata and such).
    Location(Box<Location>),
    /// Any other dialect attribute, `#dialect.body` or `#dialect<body>`,
    /// kept verbatim.
    Dialect {
        /// Dialect namespace, without `#`.
        dialect: String,
        /// Everything after the dialect name and its `.`, verbatim.
        body: String,
    },
    /// An integer that `Integer` cannot hold (wider than 128 bits, or an
    /// unsigned 128-bit value above `i128::MAX`): the value's bits,
    /// little-endian 64-bit words, `ceil(width / 64)` of them.
    WideInteger {
        /// The value's bits, least significant word first.
        words: Vec<u64>,
        /// The integer type, which gives the width.
        ty: Type,
    },
    /// `affine_map<(d0) -> (d0)>`
    AffineMap(AffineMap),
    /// `affine_set<(d0) : (d0 >= 0)>`
    IntegerSet(IntegerSet),
    /// `strided<[4, 1], offset: ?>`; dynamic values are `DYNAMIC`.
    StridedLayout {
        /// Offset in elements of the first element.
        offset: i64,
        /// Per dimension, the distance in elements between neighbours.
        strides: Vec<i64>,
    },
    /// `distinct[id]<referenced>`: equal only to itself, never merged with
    /// another distinct attribute of the same content. `id` is the identity.
    Distinct {
        /// Identity of the distinct attribute; equal ids are the same attribute.
        id: u64,
        /// The attribute it wraps.
        referenced: Box<Attribute>,
    },
    /// `dense_resource<handle> : type`, the data living in the module's
    /// `builtin` resource group.
    DenseResource {
        /// The shaped type after the colon.
        ty: Type,
        /// Key of the blob in the `builtin` resource group.
        handle: String,
    },
    /// `dense<["a", "b"]> : tensor<2x!x.y>`; a splat holds one string.
    DenseStrings {
        /// The shaped type after the colon.
        ty: Type,
        /// Whether the one string in `values` stands for every element.
        splat: bool,
        /// The elements' bytes in row-major order.
        values: Vec<Vec<u8>>,
    },
    /// `sparse<indices, values> : type`; both are dense element attributes.
    Sparse {
        /// The shaped type after the colon.
        ty: Type,
        /// Coordinates of the stored elements: dense integers, one row each.
        indices: Box<Attribute>,
        /// The stored elements (dense elements), in the order of `indices`.
        values: Box<Attribute>,
    },
}

/// Dense elements stored the way MLIR's bytecode stores them: one
/// little-endian element after another in row-major order (complex numbers
/// as real then imaginary part), `i1` as one byte per element, and a single
/// element for a splat.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DenseElements {
    /// The shaped type after the colon (a tensor or vector type).
    pub ty: Type,
    /// Whether `data` holds one element that stands for every element.
    pub splat: bool,
    /// The elements' bytes (see the type docs).
    pub data: Vec<u8>,
}

impl Attribute {
    /// `value : i32`.
    pub fn i32(value: i32) -> Attribute {
        Attribute::Integer {
            value: value.into(),
            ty: Type::i(32),
        }
    }

    /// `value : i64`.
    pub fn i64(value: i64) -> Attribute {
        Attribute::Integer {
            value: value.into(),
            ty: Type::i(64),
        }
    }

    /// `value : f32`.
    pub fn f32(value: f32) -> Attribute {
        Attribute::Float {
            bits: value.to_bits().into(),
            ty: Type::f32(),
        }
    }

    /// `value : f64`.
    pub fn f64(value: f64) -> Attribute {
        Attribute::Float {
            bits: value.to_bits().into(),
            ty: Type::f64(),
        }
    }

    /// An untyped string attribute.
    pub fn string(value: &str) -> Attribute {
        Attribute::String {
            value: value.as_bytes().to_vec(),
            ty: None,
        }
    }

    /// `@name`
    pub fn symbol(name: &str) -> Attribute {
        Attribute::SymbolRef {
            root: name.to_string(),
            nested: Vec::new(),
        }
    }

    /// The referenced name of a flat symbol reference (`@f`), else `None`.
    pub fn as_flat_symbol(&self) -> Option<&str> {
        match self {
            Attribute::SymbolRef { root, nested } if nested.is_empty() => Some(root),
            _ => None,
        }
    }

    /// The value of an `Integer` attribute, else `None`.
    pub fn as_integer(&self) -> Option<i128> {
        match self {
            Attribute::Integer { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The bytes of a `String` attribute, else `None`.
    pub fn as_str(&self) -> Option<&[u8]> {
        match self {
            Attribute::String { value, .. } => Some(value),
            _ => None,
        }
    }
}

/// Looks `name` up in a sorted attribute dictionary.
pub fn find_attribute<'a>(attributes: &'a [NamedAttribute], name: &str) -> Option<&'a Attribute> {
    attributes
        .binary_search_by(|(key, _)| key.as_str().cmp(name))
        .ok()
        .map(|i| &attributes[i].1)
}

/// Inserts or replaces `name`, keeping the dictionary sorted.
pub fn set_attribute(attributes: &mut Vec<NamedAttribute>, name: &str, value: Attribute) {
    match attributes.binary_search_by(|(key, _)| key.as_str().cmp(name)) {
        Ok(i) => attributes[i].1 = value,
        Err(i) => attributes.insert(i, (name.to_string(), value)),
    }
}

impl DenseElements {
    /// MLIR stores dense elements whose values are all equal as a splat
    /// (and prints them as one value); this brings expanded data into that
    /// form. `element_size` is the byte size of one element.
    pub fn make_splat_if_uniform(&mut self, element_size: usize) {
        if self.splat || element_size == 0 || self.data.len() < element_size {
            return;
        }
        let first = &self.data[..element_size];
        if self.data.chunks(element_size).all(|chunk| chunk == first) {
            self.data.truncate(element_size);
            self.splat = true;
        }
    }
}
