//! Types of the host-program IR: MLIR's builtin types and opaque dialect
//! types. `Display` writes MLIR's printed form, which is also the spelling
//! BEF stores in its Types section.

use std::fmt;
use std::sync::Arc;

use super::attr::Attribute;

/// MLIR's marker for a dynamic dimension (`?`), `ShapedType::kDynamic`.
pub const DYNAMIC: i64 = i64::MIN;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `i32`, `si8`, `ui64`, `i1`; width 0 is legal in MLIR.
    Integer {
        width: u32,
        signedness: Signedness,
    },
    Index,
    Float(FloatKind),
    /// `complex<f32>`
    Complex(Box<Type>),
    /// `none`
    None,
    /// `tensor<2x?xf32>`; `shape: None` is `tensor<*xf32>`. Dynamic
    /// dimensions are `DYNAMIC`.
    Tensor {
        shape: Option<Vec<i64>>,
        element: Box<Type>,
        /// `tensor<4xf32, "enc">`: the encoding attribute of a ranked tensor.
        encoding: Option<Box<Attribute>>,
    },
    /// `vector<4xf32>`, `vector<[4]x8xf32>`
    Vector {
        shape: Vec<i64>,
        element: Box<Type>,
        /// Which dimensions are scalable; empty when none is.
        scalable: Vec<bool>,
    },
    /// `memref<4x?xf32, strided<[?, 1]>, 3>`; `shape: None` is unranked.
    /// `layout: None` is the identity layout.
    MemRef {
        shape: Option<Vec<i64>>,
        element: Box<Type>,
        layout: Option<Box<Attribute>>,
        memory_space: Option<Box<Attribute>>,
    },
    /// `token`
    Token,
    /// `(i32, f32) -> i1`
    Function {
        inputs: Vec<Type>,
        results: Vec<Type>,
    },
    /// `tuple<i32, f32>`
    Tuple(Vec<Type>),
    /// An opaque dialect type `!dialect.body` (`!tfrt.chain`) or
    /// `!dialect<body>`; `body` is kept verbatim, including any `<...>`.
    Dialect {
        dialect: Arc<str>,
        body: Arc<str>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatKind {
    BF16,
    F16,
    TF32,
    F32,
    F64,
    F80,
    F128,
    F8E5M2,
    F8E4M3,
    F8E4M3FN,
    F8E5M2FNUZ,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E3M4,
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E8M0FNU,
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

    pub fn i(width: u32) -> Type {
        Type::Integer {
            width,
            signedness: Signedness::Signless,
        }
    }

    pub fn ui(width: u32) -> Type {
        Type::Integer {
            width,
            signedness: Signedness::Unsigned,
        }
    }

    pub fn f32() -> Type {
        Type::Float(FloatKind::F32)
    }

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

    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Integer { .. })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Integer { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                write!(f, "{prefix}{width}")
            }
            Type::Index => f.write_str("index"),
            Type::Float(kind) => f.write_str(kind.name()),
            Type::Complex(element) => write!(f, "complex<{element}>"),
            Type::None => f.write_str("none"),
            Type::Tensor {
                shape,
                element,
                encoding,
            } => {
                f.write_str("tensor<")?;
                match shape {
                    None => f.write_str("*x")?,
                    Some(dims) => write_dims(f, dims)?,
                }
                write!(f, "{element}")?;
                if let Some(encoding) = encoding {
                    write!(f, ", {}", crate::text::print_attribute(encoding))?;
                }
                f.write_str(">")
            }
            Type::Vector {
                shape,
                element,
                scalable,
            } => {
                f.write_str("vector<")?;
                for (i, &dim) in shape.iter().enumerate() {
                    if scalable.get(i).copied().unwrap_or(false) {
                        write!(f, "[{dim}]x")?;
                    } else {
                        write!(f, "{dim}x")?;
                    }
                }
                write!(f, "{element}>")
            }
            Type::MemRef {
                shape,
                element,
                layout,
                memory_space,
            } => {
                f.write_str("memref<")?;
                match shape {
                    None => f.write_str("*x")?,
                    Some(dims) => write_dims(f, dims)?,
                }
                write!(f, "{element}")?;
                for attr in [layout, memory_space].into_iter().flatten() {
                    write!(f, ", {}", crate::text::print_attribute_elided(attr))?;
                }
                f.write_str(">")
            }
            Type::Token => f.write_str("token"),
            Type::Function { inputs, results } => {
                f.write_str("(")?;
                write_list(f, inputs)?;
                f.write_str(") -> ")?;
                // A single non-function result goes without parentheses.
                match results.as_slice() {
                    [single] if !matches!(single, Type::Function { .. }) => write!(f, "{single}"),
                    _ => {
                        f.write_str("(")?;
                        write_list(f, results)?;
                        f.write_str(")")
                    }
                }
            }
            Type::Tuple(elements) => {
                f.write_str("tuple<")?;
                write_list(f, elements)?;
                f.write_str(">")
            }
            Type::Dialect { dialect, body } => {
                if body.starts_with('<') {
                    write!(f, "!{dialect}{body}")
                } else {
                    write!(f, "!{dialect}.{body}")
                }
            }
        }
    }
}

/// `2x?x` — every dimension followed by `x`.
fn write_dims(f: &mut fmt::Formatter<'_>, dims: &[i64]) -> fmt::Result {
    for &dim in dims {
        if dim == DYNAMIC {
            f.write_str("?x")?;
        } else {
            write!(f, "{dim}x")?;
        }
    }
    Ok(())
}

pub(crate) fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
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
