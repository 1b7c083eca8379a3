//! The builtin dialect's custom type encodings: a varint code, then the
//! type's parameters (fact sheet, "Builtin custom encodings").

use super::encoding::Reader;
use super::entries::{Decoded, EntryLookup, EntrySink};
use crate::ir::{AffineMap, Attribute, FloatKind, Signedness, Type};

const INTEGER: u64 = 0;
const INDEX: u64 = 1;
const FUNCTION: u64 = 2;
const COMPLEX: u64 = 9;
const MEMREF: u64 = 10;
const MEMREF_WITH_SPACE: u64 = 11;
const NONE: u64 = 12;
const RANKED_TENSOR: u64 = 13;
const RANKED_TENSOR_WITH_ENCODING: u64 = 14;
const TUPLE: u64 = 15;
const UNRANKED_MEMREF: u64 = 16;
const UNRANKED_MEMREF_WITH_SPACE: u64 = 17;
const UNRANKED_TENSOR: u64 = 18;
const VECTOR: u64 = 19;
const VECTOR_SCALABLE: u64 = 20;
const TOKEN: u64 = 33;

/// Float types by code; `F8E5M3FNU` has no code and goes as text.
const FLOAT_CODES: [(u64, FloatKind); 18] = [
    (3, FloatKind::BF16),
    (4, FloatKind::F16),
    (5, FloatKind::F32),
    (6, FloatKind::F64),
    (7, FloatKind::F80),
    (8, FloatKind::F128),
    (21, FloatKind::TF32),
    (22, FloatKind::F8E5M2),
    (23, FloatKind::F8E4M3),
    (24, FloatKind::F8E4M3FN),
    (25, FloatKind::F8E5M2FNUZ),
    (26, FloatKind::F8E4M3FNUZ),
    (27, FloatKind::F8E4M3B11FNUZ),
    (28, FloatKind::F8E3M4),
    (29, FloatKind::F4E2M1FN),
    (30, FloatKind::F6E2M3FN),
    (31, FloatKind::F6E3M2FN),
    (32, FloatKind::F8E8M0FNU),
];

fn float_code(kind: FloatKind) -> Option<u64> {
    FLOAT_CODES
        .iter()
        .find(|(_, k)| *k == kind)
        .map(|(c, _)| *c)
}

fn types(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Vec<Type>> {
    let n = r.count(1, "type")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        out.push(lookup.type_(r.varint()?, at)?);
    }
    Ok(out)
}

fn shape(r: &mut Reader<'_>) -> Decoded<Vec<i64>> {
    let n = r.count(1, "dimension")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(r.signed_varint()?);
    }
    Ok(out)
}

fn one_type(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Box<Type>> {
    let at = r.offset();
    Ok(Box::new(lookup.type_(r.varint()?, at)?))
}

fn one_attr(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Box<Attribute>> {
    let at = r.offset();
    Ok(Box::new(lookup.attribute(r.varint()?, at)?))
}

/// A memref layout: the identity affine map of the memref's rank is the
/// default and kept as `None`.
fn layout_or_default(layout: Box<Attribute>, rank: usize) -> Option<Box<Attribute>> {
    match &*layout {
        Attribute::AffineMap(map) if map.is_identity() && map.num_dims as usize == rank => None,
        _ => Some(layout),
    }
}

/// Decodes the custom encoding of a builtin type (the whole entry).
pub fn decode(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Type> {
    let code_at = r.offset();
    let code = r.varint()?;
    if let Some((_, kind)) = FLOAT_CODES.iter().find(|(c, _)| *c == code) {
        return Ok(Type::Float(*kind));
    }
    Ok(match code {
        INTEGER => {
            let at = r.offset();
            let v = r.varint()?;
            let signedness = match v & 3 {
                0 => Signedness::Signless,
                1 => Signedness::Signed,
                2 => Signedness::Unsigned,
                _ => return Err(r_error(at, "invalid integer signedness 3")),
            };
            let width =
                u32::try_from(v >> 2).map_err(|_| r_error(at, "integer width too large"))?;
            Type::Integer { width, signedness }
        }
        INDEX => Type::Index,
        FUNCTION => {
            let inputs = types(r, lookup)?;
            let results = types(r, lookup)?;
            Type::Function { inputs, results }
        }
        COMPLEX => Type::Complex(one_type(r, lookup)?),
        MEMREF => {
            let dims = shape(r)?;
            let element = one_type(r, lookup)?;
            let layout = layout_or_default(one_attr(r, lookup)?, dims.len());
            Type::MemRef {
                shape: Some(dims),
                element,
                layout,
                memory_space: None,
            }
        }
        MEMREF_WITH_SPACE => {
            let memory_space = Some(one_attr(r, lookup)?);
            let dims = shape(r)?;
            let element = one_type(r, lookup)?;
            let layout = layout_or_default(one_attr(r, lookup)?, dims.len());
            Type::MemRef {
                shape: Some(dims),
                element,
                layout,
                memory_space,
            }
        }
        NONE => Type::None,
        RANKED_TENSOR => {
            let dims = shape(r)?;
            Type::Tensor {
                shape: Some(dims),
                element: one_type(r, lookup)?,
                encoding: None,
            }
        }
        RANKED_TENSOR_WITH_ENCODING => {
            let encoding = Some(one_attr(r, lookup)?);
            let dims = shape(r)?;
            Type::Tensor {
                shape: Some(dims),
                element: one_type(r, lookup)?,
                encoding,
            }
        }
        TUPLE => Type::Tuple(types(r, lookup)?),
        UNRANKED_MEMREF => Type::MemRef {
            shape: None,
            element: one_type(r, lookup)?,
            layout: None,
            memory_space: None,
        },
        UNRANKED_MEMREF_WITH_SPACE => {
            let memory_space = Some(one_attr(r, lookup)?);
            Type::MemRef {
                shape: None,
                element: one_type(r, lookup)?,
                layout: None,
                memory_space,
            }
        }
        UNRANKED_TENSOR => Type::Tensor {
            shape: None,
            element: one_type(r, lookup)?,
            encoding: None,
        },
        VECTOR => {
            let dims = shape(r)?;
            Type::Vector {
                shape: dims,
                element: one_type(r, lookup)?,
                scalable: Vec::new(),
            }
        }
        VECTOR_SCALABLE => {
            let n = r.count(1, "scalable flag")?;
            let flags = r.bytes(n)?.iter().map(|&b| b != 0).collect();
            let dims = shape(r)?;
            Type::Vector {
                shape: dims,
                element: one_type(r, lookup)?,
                scalable: flags,
            }
        }
        TOKEN => Type::Token,
        _ => {
            return Err(r_error(
                code_at,
                format!("unknown builtin type code {code}"),
            ));
        }
    })
}

fn r_error(at: usize, message: impl Into<String>) -> super::entries::DecodeFailure {
    super::entries::DecodeFailure::Error(super::error::BytecodeError::new(at, message))
}

fn write_shape(sink: &mut dyn EntrySink, dims: &[i64]) {
    sink.varint(dims.len() as u64);
    for &d in dims {
        sink.signed_varint(d);
    }
}

fn write_types(sink: &mut dyn EntrySink, types: &[Type]) {
    sink.varint(types.len() as u64);
    for t in types {
        sink.type_(t);
    }
}

/// The identity layout written for a memref without one.
fn layout_attr(layout: &Option<Box<Attribute>>, rank: usize) -> std::borrow::Cow<'_, Attribute> {
    match layout {
        Some(l) => std::borrow::Cow::Borrowed(&**l),
        None => std::borrow::Cow::Owned(Attribute::AffineMap(AffineMap::identity(rank as u32))),
    }
}

/// Writes the custom encoding of `ty`; `false` when it has none (a
/// dialect type, or a builtin type without a code) and goes as text.
pub fn encode(ty: &Type, sink: &mut dyn EntrySink) -> bool {
    match ty {
        Type::Integer { width, signedness } => {
            sink.varint(INTEGER);
            let s = match signedness {
                Signedness::Signless => 0,
                Signedness::Signed => 1,
                Signedness::Unsigned => 2,
            };
            sink.varint((u64::from(*width) << 2) | s);
        }
        Type::Index => sink.varint(INDEX),
        Type::Float(kind) => match float_code(*kind) {
            Some(code) => sink.varint(code),
            None => return false,
        },
        Type::Function { inputs, results } => {
            sink.varint(FUNCTION);
            write_types(sink, inputs);
            write_types(sink, results);
        }
        Type::Complex(e) => {
            sink.varint(COMPLEX);
            sink.type_(e);
        }
        Type::None => sink.varint(NONE),
        Type::Token => sink.varint(TOKEN),
        Type::Tuple(items) => {
            sink.varint(TUPLE);
            write_types(sink, items);
        }
        Type::Tensor {
            shape: None,
            element,
            encoding: None,
        } => {
            sink.varint(UNRANKED_TENSOR);
            sink.type_(element);
        }
        // An unranked tensor cannot carry an encoding.
        Type::Tensor { shape: None, .. } => return false,
        Type::Tensor {
            shape: Some(dims),
            element,
            encoding,
        } => {
            match encoding {
                Some(enc) => {
                    sink.varint(RANKED_TENSOR_WITH_ENCODING);
                    sink.attribute(enc);
                }
                None => sink.varint(RANKED_TENSOR),
            }
            write_shape(sink, dims);
            sink.type_(element);
        }
        Type::Vector {
            shape,
            element,
            scalable,
        } => {
            if scalable.iter().any(|&s| s) {
                sink.varint(VECTOR_SCALABLE);
                sink.varint(scalable.len() as u64);
                for &s in scalable {
                    sink.byte(u8::from(s));
                }
            } else {
                sink.varint(VECTOR);
            }
            write_shape(sink, shape);
            sink.type_(element);
        }
        Type::MemRef {
            shape: Some(dims),
            element,
            layout,
            memory_space,
        } => {
            match memory_space {
                Some(space) => {
                    sink.varint(MEMREF_WITH_SPACE);
                    sink.attribute(space);
                }
                None => sink.varint(MEMREF),
            }
            write_shape(sink, dims);
            sink.type_(element);
            sink.attribute(&layout_attr(layout, dims.len()));
        }
        Type::MemRef {
            shape: None,
            element,
            layout: None,
            memory_space,
        } => {
            match memory_space {
                Some(space) => {
                    sink.varint(UNRANKED_MEMREF_WITH_SPACE);
                    sink.attribute(space);
                }
                None => sink.varint(UNRANKED_MEMREF),
            }
            sink.type_(element);
        }
        Type::MemRef { shape: None, .. } | Type::Dialect { .. } => return false,
    }
    true
}
