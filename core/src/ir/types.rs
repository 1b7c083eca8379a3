//! Types of the host-program IR: MLIR's builtin types and opaque dialect
//! types. Their `Display`, MLIR's printed form (also the spelling BEF
//! stores in its Types section), is the text printer's: `text::type_display`.

use std::sync::Arc;

use super::attr::Attribute;

/// MLIR's marker for a dynamic dimension (`?`), `ShapedType::kDynamic`.
pub const DYNAMIC: i64 = i64::MIN;

/// A type of the IR, as MLIR spells and compares it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `i32`, `si8`, `ui64`, `i1`; width 0 is legal in MLIR.
    Integer {
        /// Bits; 0 is allowed.
        width: u32,
        /// Whether the type is signless (`i`), signed (`si`) or unsigned (`ui`).
        signedness: Signedness,
    },
    /// `index`: a target-sized integer for sizes and subscripts.
    Index,
    /// A floating-point type such as `f32`.
    Float(FloatKind),
    /// `complex<f32>`
    Complex(Box<Type>),
    /// `none`
    None,
    /// `tensor<2x?xf32>`; `shape: None` is `tensor<*xf32>`. Dynamic
    /// dimensions are `DYNAMIC`.
    Tensor {
        /// Dimension sizes, outermost first (`DYNAMIC` for `?`); `None` when unranked.
        shape: Option<Vec<i64>>,
        /// Element type.
        element: Box<Type>,
        /// `tensor<4xf32, "enc">`: the encoding attribute of a ranked tensor.
        encoding: Option<Box<Attribute>>,
    },
    /// `vector<4xf32>`, `vector<[4]x8xf32>`
    Vector {
        /// Dimension sizes, outermost first.
        shape: Vec<i64>,
        /// Element type.
        element: Box<Type>,
        /// Which dimensions are scalable; empty when none is.
        scalable: Vec<bool>,
    },
    /// `memref<4x?xf32, strided<[?, 1]>, 3>`; `shape: None` is unranked.
    /// `layout: None` is the identity layout.
    MemRef {
        /// Dimension sizes, outermost first (`DYNAMIC` for `?`).
        shape: Option<Vec<i64>>,
        /// Element type.
        element: Box<Type>,
        /// The layout attribute, such as `strided<...>` or an affine map.
        layout: Option<Box<Attribute>>,
        /// The memory space attribute; `None` for the default space.
        memory_space: Option<Box<Attribute>>,
    },
    /// `token`
    Token,
    /// `(i32, f32) -> i1`
    Function {
        /// Argument types.
        inputs: Vec<Type>,
        /// Result types.
        results: Vec<Type>,
    },
    /// `tuple<i32, f32>`
    Tuple(Vec<Type>),
    /// An opaque dialect type `!dialect.body` (`!tfrt.chain`) or
    /// `!dialect<body>`; `body` is kept verbatim, including any `<...>`.
    Dialect {
        /// Dialect namespace, without `!`.
        dialect: Arc<str>,
        /// Everything after the dialect name and its `.`, verbatim.
        body: Arc<str>,
    },
}

/// The signedness semantics of an integer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `iN`: signedness decided by each operation.
    Signless,
    /// `siN`.
    Signed,
    /// `uiN`.
    Unsigned,
}

/// The floating-point formats of MLIR's builtin types. In the small formats'
/// names, `EnMm` gives the exponent and mantissa bits, `FN` means finite
/// (no infinities), `UZ` an unsigned zero (no negative zero, one NaN), and
/// a final `U` no sign bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatKind {
    /// bfloat16: 8 exponent and 7 mantissa bits.
    BF16,
    /// IEEE half precision.
    F16,
    /// TensorFloat-32: 8 exponent and 10 mantissa bits, stored in 19 bits.
    TF32,
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
    /// x87 80-bit extended precision.
    F80,
    /// IEEE quadruple precision.
    F128,
    /// 8-bit, IEEE-like with infinities and NaNs.
    F8E5M2,
    /// 8-bit, IEEE-like with infinities and NaNs.
    F8E4M3,
    /// 8-bit, finite, NaN only at all ones.
    F8E4M3FN,
    /// 8-bit, finite, unsigned zero, bias 16.
    F8E5M2FNUZ,
    /// 8-bit, finite, unsigned zero, bias 8.
    F8E4M3FNUZ,
    /// 8-bit, finite, unsigned zero, bias 11.
    F8E4M3B11FNUZ,
    /// 8-bit, IEEE-like with infinities and NaNs.
    F8E3M4,
    /// 4-bit OCP microscaling element format: finite, no NaN.
    F4E2M1FN,
    /// 6-bit OCP microscaling element format: finite, no NaN.
    F6E2M3FN,
    /// 6-bit OCP microscaling element format: finite, no NaN.
    F6E3M2FN,
    /// 8-bit power-of-two scale of the OCP microscaling formats: exponent only,
    /// no sign, NaN at all ones.
    F8E8M0FNU,
    /// 8-bit, finite, without a sign bit.
    F8E5M3FNU,
}

impl FloatKind {
    /// The IEEE-style and extended formats whose literals the text front
    /// end reads in every spelling (decimal and hex).
    pub const STANDARD: [FloatKind; 7] = [
        FloatKind::BF16,
        FloatKind::F16,
        FloatKind::TF32,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::F80,
        FloatKind::F128,
    ];

    /// Every format, in declaration order.
    pub const ALL: [FloatKind; 19] = [
        FloatKind::BF16,
        FloatKind::F16,
        FloatKind::TF32,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::F80,
        FloatKind::F128,
        FloatKind::F8E5M2,
        FloatKind::F8E4M3,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2FNUZ,
        FloatKind::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ,
        FloatKind::F8E3M4,
        FloatKind::F4E2M1FN,
        FloatKind::F6E2M3FN,
        FloatKind::F6E3M2FN,
        FloatKind::F8E8M0FNU,
        FloatKind::F8E5M3FNU,
    ];

    /// The MLIR keyword of the type (`bf16`, `f8E4M3FN`).
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::BF16 => "bf16",
            FloatKind::F16 => "f16",
            FloatKind::TF32 => "tf32",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
            FloatKind::F80 => "f80",
            FloatKind::F128 => "f128",
            FloatKind::F8E5M2 => "f8E5M2",
            FloatKind::F8E4M3 => "f8E4M3",
            FloatKind::F8E4M3FN => "f8E4M3FN",
            FloatKind::F8E5M2FNUZ => "f8E5M2FNUZ",
            FloatKind::F8E4M3FNUZ => "f8E4M3FNUZ",
            FloatKind::F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            FloatKind::F8E3M4 => "f8E3M4",
            FloatKind::F4E2M1FN => "f4E2M1FN",
            FloatKind::F6E2M3FN => "f6E2M3FN",
            FloatKind::F6E3M2FN => "f6E3M2FN",
            FloatKind::F8E8M0FNU => "f8E8M0FNU",
            FloatKind::F8E5M3FNU => "f8E5M3FNU",
        }
    }

    /// The format whose MLIR keyword is `name`.
    pub fn from_name(name: &str) -> Option<FloatKind> {
        FloatKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Bits of the storage format (what a float attribute's `bits` holds).
    pub fn bit_width(self) -> u32 {
        match self {
            FloatKind::BF16 | FloatKind::F16 => 16,
            FloatKind::TF32 => 19,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
            FloatKind::F80 => 80,
            FloatKind::F128 => 128,
            FloatKind::F4E2M1FN => 4,
            FloatKind::F6E2M3FN | FloatKind::F6E3M2FN => 6,
            _ => 8,
        }
    }

    /// (exponent bits, mantissa bits, exponent bias) of the 8-bit and
    /// smaller formats, `None` for the others.
    pub fn minifloat_layout(self) -> Option<(u32, u32, i32)> {
        Some(match self {
            FloatKind::F8E5M2 => (5, 2, 15),
            FloatKind::F8E4M3 | FloatKind::F8E4M3FN => (4, 3, 7),
            FloatKind::F8E5M2FNUZ => (5, 2, 16),
            FloatKind::F8E4M3FNUZ => (4, 3, 8),
            FloatKind::F8E4M3B11FNUZ => (4, 3, 11),
            FloatKind::F8E3M4 => (3, 4, 3),
            FloatKind::F4E2M1FN => (2, 1, 1),
            FloatKind::F6E2M3FN => (2, 3, 1),
            FloatKind::F6E3M2FN => (3, 2, 3),
            FloatKind::F8E8M0FNU => (8, 0, 127),
            FloatKind::F8E5M3FNU => (5, 3, 15),
            _ => return None,
        })
    }
}

impl Type {
    /// `self == other`, with the common case (integers) compared inline:
    /// the parser and the translator compare types once per operand.
    #[inline]
    pub fn same_as(&self, other: &Type) -> bool {
        match (self, other) {
            (
                Type::Integer { width, signedness },
                Type::Integer {
                    width: w,
                    signedness: s,
                },
            ) => width == w && signedness == s,
            _ => self == other,
        }
    }

    /// The signless integer type `i{width}`.
    pub fn i(width: u32) -> Type {
        Type::Integer {
            width,
            signedness: Signedness::Signless,
        }
    }

    /// The unsigned integer type `ui{width}`.
    pub fn ui(width: u32) -> Type {
        Type::Integer {
            width,
            signedness: Signedness::Unsigned,
        }
    }

    /// `f32`.
    pub fn f32() -> Type {
        Type::Float(FloatKind::F32)
    }

    /// `f64`.
    pub fn f64() -> Type {
        Type::Float(FloatKind::F64)
    }

    /// `!dialect.body`
    pub fn dialect(dialect: &str, body: &str) -> Type {
        Type::Dialect {
            dialect: dialect.into(),
            body: body.into(),
        }
    }

    /// `!tfrt.chain`, the type of ordering tokens. One shared allocation:
    /// the parser and the translator ask for it per op and per function.
    pub fn chain() -> Type {
        static CHAIN: std::sync::LazyLock<(Arc<str>, Arc<str>)> =
            std::sync::LazyLock::new(|| ("tfrt".into(), "chain".into()));
        Type::Dialect {
            dialect: CHAIN.0.clone(),
            body: CHAIN.1.clone(),
        }
    }

    /// Whether this is an integer type of any width and signedness (not `index`).
    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Integer { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_mlir() {
        let cases = [
            (Type::i(32), "i32"),
            (Type::ui(64), "ui64"),
            (
                Type::Integer {
                    width: 8,
                    signedness: Signedness::Signed,
                },
                "si8",
            ),
            (Type::chain(), "!tfrt.chain"),
            (Type::dialect("t", "tensor"), "!t.tensor"),
            (Type::dialect("foo", "<\"x\">"), "!foo<\"x\">"),
            (
                Type::Tensor {
                    shape: Some(vec![2, DYNAMIC]),
                    element: Box::new(Type::f32()),
                    encoding: None,
                },
                "tensor<2x?xf32>",
            ),
            (
                Type::Tensor {
                    shape: None,
                    element: Box::new(Type::i(1)),
                    encoding: None,
                },
                "tensor<*xi1>",
            ),
            (
                Type::Tensor {
                    shape: Some(vec![]),
                    element: Box::new(Type::Complex(Box::new(Type::f64()))),
                    encoding: None,
                },
                "tensor<complex<f64>>",
            ),
            (
                Type::Function {
                    inputs: vec![Type::i(32), Type::chain()],
                    results: vec![Type::i(1)],
                },
                "(i32, !tfrt.chain) -> i1",
            ),
            (
                Type::Function {
                    inputs: vec![],
                    results: vec![],
                },
                "() -> ()",
            ),
            (
                Type::Function {
                    inputs: vec![],
                    results: vec![Type::i(1), Type::i(1)],
                },
                "() -> (i1, i1)",
            ),
        ];
        for (ty, text) in cases {
            assert_eq!(ty.to_string(), text);
        }
    }
}
