//! The op signatures of the TFRT dialects this crate knows, in one table:
//! the operand, result and attribute types their definitions fix. The
//! text parser and printer read it for the custom forms whose types go
//! unwritten (`fixed_signature`); the verifier checks every op against it
//! (`signature`).

use super::{Attribute, FloatKind, Type};

/// The scalar type a kernel name's suffix spells (`tfrt.add.i32`).
pub(crate) fn scalar_type(suffix: &str) -> Option<Type> {
    Some(match suffix {
        "i1" => Type::i(1),
        "i32" => Type::i(32),
        "i64" => Type::i(64),
        "ui32" => Type::ui(32),
        "ui64" => Type::ui(64),
        "f16" => Type::Float(FloatKind::F16),
        "bf16" => Type::Float(FloatKind::BF16),
        "f32" => Type::f32(),
        "f64" => Type::f64(),
        _ => return None,
    })
}

/// Whether `s` can be a dtype suffix of a kernel name.
pub(crate) fn is_dtype(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// `!t.tensor`.
pub(crate) fn tensor_type() -> Type {
    Type::dialect("t", "tensor")
}

/// Operand and result types of the `operands attr-dict` ops of the tensor
/// shape, sparse tensor and test dialects whose definitions fix them.
pub(crate) fn fixed_signature(keyword: &str) -> Option<(Vec<Type>, Vec<Type>)> {
    let chain = Type::chain();
    let shape = Type::dialect("ts", "shape");
    let partial = Type::dialect("ts", "partial_shape");
    let tensor = tensor_type();
    let i1 = Type::i(1);
    let rank = |r: &str| matches!(r, "0" | "1" | "2" | "3");
    let fixed_rank = |r: &str| Type::dialect("ts", &format!("fixed_rank_shape.{r}"));
    Some(match keyword {
        "ts.print_shape" => (vec![shape, chain.clone()], vec![chain]),
        "ts.equal_shape" => (vec![shape.clone(), shape], vec![i1]),
        "ts.get_dimension" => (vec![shape, Type::i(32)], vec![Type::i(64)]),
        "ts.get_num_elements" => (vec![shape], vec![Type::i(64)]),
        "ts.print_partial_shape" => (vec![partial, chain.clone()], vec![chain]),
        "ts.to_shape" => (vec![partial], vec![shape]),
        "ts.to_partial_shape" => (vec![shape], vec![partial]),
        "ts.build_unranked_partial_shape" => (vec![], vec![partial]),
        "coo.print_tensor" => (vec![tensor, chain.clone()], vec![chain]),
        "tfrt_dht.get_tensor_shape" => (vec![tensor], vec![shape]),
        "tfrt_test.count3.i32" | "tfrt_test.count3.i64" => {
            let ty = scalar_type(&keyword["tfrt_test.count3.".len()..])?;
            (vec![ty.clone()], vec![ty.clone(), ty.clone(), ty])
        }
        _ => {
            if let Some(r) = keyword.strip_prefix("ts.as_fixed_rank_shape.") {
                return rank(r).then(|| (vec![shape], vec![fixed_rank(r)]));
            }
            if let Some(r) = keyword.strip_prefix("ts.print_fixed_rank_shape.") {
                return rank(r).then(|| (vec![fixed_rank(r), chain.clone()], vec![chain]));
            }
            if let Some(d) = keyword.strip_prefix("tfrt_dht.tensor_equal.") {
                return is_dtype(d)
                    .then(|| (vec![tensor.clone(), tensor, chain.clone()], vec![i1, chain]));
            }
            let rest = keyword.strip_prefix("coo.")?;
            let (op, typed) = rest.split_once('.')?;
            let (dtype, r) = typed.split_once('.')?;
            if !matches!(dtype, "i32" | "f32") || !rank(r) {
                return None;
            }
            match op {
                "convert_coo_to_dht" | "convert_dht_to_coo" => {
                    (vec![tensor.clone(), chain.clone()], vec![tensor, chain])
                }
                "tensor_equal" => (vec![tensor.clone(), tensor, chain.clone()], vec![i1, chain]),
                _ => return None,
            }
        }
    })
}

/// What an op's definition fixes, as the verifier checks it.
pub(crate) struct Signature {
    pub(crate) operands: Operands,
    /// `None`: any type.
    pub(crate) results: Vec<Option<Type>>,
    pub(crate) attributes: Vec<(&'static str, AttrKind)>,
}

/// The operands an op takes.
pub(crate) enum Operands {
    /// Exactly these.
    Exactly(Vec<Type>),
    /// These, then any number of any type.
    AtLeast(Vec<Type>),
}

/// An attribute an op's definition requires.
pub(crate) enum AttrKind {
    /// An integer or float attribute of this type.
    Typed(Type),
    /// `I64ArrayAttr`.
    I64Array,
}

impl AttrKind {
    /// Whether `value` is such an attribute.
    pub(crate) fn accepts(&self, value: &Attribute) -> bool {
        match (self, value) {
            (AttrKind::Typed(want), Attribute::Integer { ty, .. })
            | (AttrKind::Typed(want), Attribute::Float { ty, .. }) => ty == want,
            (AttrKind::Typed(want), Attribute::Bool(_)) => *want == Type::i(1),
            (AttrKind::I64Array, Attribute::Array(items)) => items
                .iter()
                .all(|i| matches!(i, Attribute::Integer { ty, .. } if *ty == Type::i(64))),
            _ => false,
        }
    }
}

pub(crate) fn signature(name: &str) -> Option<Signature> {
    let chain = Type::chain();
    let fixed = |operands: Vec<Type>, results: Vec<Type>| Signature {
        operands: Operands::Exactly(operands),
        results: results.into_iter().map(Some).collect(),
        attributes: Vec::new(),
    };
    match name {
        "tfrt.new.chain" => return Some(fixed(vec![], vec![chain])),
        "tfrt.merge.chains" => {
            return Some(Signature {
                operands: Operands::AtLeast(vec![]),
                results: vec![Some(chain)],
                attributes: Vec::new(),
            });
        }
        // The reference declares an i32 result; this crate's kernel returns
        // its first argument whatever its type, and programs use it on
        // chains, so the type is left free.
        "tfrt_test.test_cost" => {
            return Some(Signature {
                operands: Operands::AtLeast(vec![]),
                results: vec![None],
                attributes: vec![
                    ("_tfrt_cost", AttrKind::Typed(Type::i(64))),
                    ("id", AttrKind::Typed(Type::i(64))),
                ],
            });
        }
        "ts.build_shape" => {
            return Some(Signature {
                operands: Operands::Exactly(vec![]),
                results: vec![Some(Type::dialect("ts", "shape"))],
                attributes: vec![("value", AttrKind::I64Array)],
            });
        }
        _ => {}
    }
    if let Some((operands, results)) = fixed_signature(name) {
        return Some(fixed(operands, results));
    }
    // Ops that build a shape or a tensor from an `I64ArrayAttr`.
    let built = if name == "ts.build_partial_shape" {
        Some(("value", Type::dialect("ts", "partial_shape")))
    } else if name.starts_with("tfrt_dht.create_uninitialized_tensor.") {
        Some(("shape", Type::dialect("t", "tensor")))
    } else {
        None
    };
    if let Some((attribute, result)) = built {
        return Some(Signature {
            operands: Operands::Exactly(vec![]),
            results: vec![Some(result)],
            attributes: vec![(attribute, AttrKind::I64Array)],
        });
    }
    let (op, suffix) = name.strip_prefix("tfrt.")?.split_once('.')?;
    let ty = scalar_type(suffix)?;
    let is = |names: &[&str]| names.contains(&suffix);
    Some(match op {
        "constant" | "constant_s" => Signature {
            operands: Operands::Exactly(vec![]),
            results: vec![Some(ty.clone())],
            attributes: vec![("value", AttrKind::Typed(ty))],
        },
        "add" if is(&["i32", "i64", "f32", "f64"]) => fixed(vec![ty.clone(), ty.clone()], vec![ty]),
        "mul" | "mul_s" if is(&["i32", "i64"]) => fixed(vec![ty.clone(), ty.clone()], vec![ty]),
        "and" if is(&["i1"]) => fixed(vec![ty.clone(), ty.clone()], vec![ty]),
        "equal" if is(&["i32", "i64"]) => fixed(vec![ty.clone(), ty], vec![Type::i(1)]),
        "div" if is(&["i32", "i64"]) => fixed(vec![ty.clone(), ty.clone()], vec![ty.clone(), ty]),
        "print" if is(&["i1", "i32", "i64", "f32", "f64"]) => {
            fixed(vec![ty, chain.clone()], vec![chain])
        }
        _ => return None,
    })
}
