//! Structured values against a signature: checking them, flattening them
//! to a function's arguments, and rebuilding structured results from its
//! flat results.

use std::collections::BTreeMap;

use super::raw::{RawSignature, RawType};
use super::reflection::{Reflection, TypeRecord};
use super::sip::{SipNode, SipSignature, StructKind};
use super::value::Value;

/// Why a call's values do not fit the function's signature.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// Another number of arguments than the signature has.
    #[error("mismatched call arity: the function takes {expected} arguments, {given} given")]
    Arity {
        /// What the signature has.
        expected: usize,
        /// What was given.
        given: usize,
    },
    /// A keyword no `named` record has.
    #[error("keyword argument '{0}' is unknown")]
    UnknownKeyword(String),
    /// A value of another type than the signature's.
    #[error("{argument}: expected {expected}, given {given}")]
    Type {
        /// Which argument, with the path inside it (`argument 0['a'][1]`).
        argument: String,
        /// The signature's type.
        expected: String,
        /// The value's type, and what differs.
        given: String,
    },
    /// A signature this call cannot use (a leaf outside the flat list).
    #[error("the signature cannot be used: {0}")]
    Signature(String),
}

/// How a function's structured arguments and results map onto its flat
/// ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Structure {
    /// No structure recorded: one value per flat argument and result.
    Flat,
    /// A SIP signature.
    Sip(SipSignature),
    /// JSON reflection records.
    Reflection(Reflection),
}

/// What a caller needs to know about a function: its flat types and how
/// structured values map onto them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSignature {
    /// The flat argument and result types.
    pub raw: RawSignature,
    /// The structure.
    pub structure: Structure,
}

impl CallSignature {
    /// The number of (structured) arguments a caller passes.
    pub fn arity(&self) -> usize {
        match &self.structure {
            Structure::Flat => self.raw.inputs.len(),
            Structure::Reflection(r) => r.args.len(),
            Structure::Sip(sip) => root_arity(sip.inputs.as_ref()),
        }
    }

    /// `args` checked and flattened to one value per flat argument.
    pub fn flatten(&self, args: &[Value]) -> Result<Vec<Value>, CallError> {
        self.flatten_with_keywords(args, &BTreeMap::new())
    }

    /// [`flatten`](Self::flatten) with arguments also passed by keyword
    /// (the `named` records of reflection).
    pub fn flatten_with_keywords(
        &self,
        args: &[Value],
        keywords: &BTreeMap<String, Value>,
    ) -> Result<Vec<Value>, CallError> {
        let flat = match &self.structure {
            Structure::Flat => {
                if let Some(key) = keywords.keys().next() {
                    return Err(CallError::UnknownKeyword(key.clone()));
                }
                check_arity(self.raw.inputs.len(), args.len())?;
                args.to_vec()
            }
            Structure::Reflection(reflection) => {
                let mut flat = Vec::new();
                for (i, (record, value)) in reflection
                    .args
                    .iter()
                    .zip(bind_keywords(&reflection.args, args, keywords)?)
                    .enumerate()
                {
                    flatten_record(record, value, &format!("argument {i}"), &mut flat)?;
                }
                flat
            }
            Structure::Sip(sip) => {
                if let Some(key) = keywords.keys().next() {
                    return Err(CallError::UnknownKeyword(key.clone()));
                }
                let mut slots = vec![None; self.raw.inputs.len()];
                match &sip.inputs {
                    None => check_arity(0, args.len())?,
                    Some(SipNode::Struct {
                        kind: StructKind::Sequence,
                        entries,
                    }) => {
                        check_arity(entries.len(), args.len())?;
                        for ((key, node), value) in entries.iter().zip(args) {
                            flatten_sip(node, value, &format!("argument {key}"), &mut slots)?;
                        }
                    }
                    Some(node) => {
                        check_arity(1, args.len())?;
                        flatten_sip(node, &args[0], "argument 0", &mut slots)?;
                    }
                }
                slots
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| {
                        v.ok_or_else(|| {
                            CallError::Signature(format!(
                                "no structure leaf fills raw argument {i}"
                            ))
                        })
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        for (i, (value, raw)) in flat.iter().zip(&self.raw.inputs).enumerate() {
            check_raw(raw, value, &format!("raw argument {i}"))?;
        }
        check_arity(self.raw.inputs.len(), flat.len())?;
        Ok(flat)
    }

    /// The structured results of the flat `results`.
    pub fn rebuild(&self, results: Vec<Value>) -> Result<Vec<Value>, CallError> {
        match &self.structure {
            Structure::Flat => Ok(results),
            Structure::Reflection(reflection) => {
                let mut leaves = results.into_iter();
                let rebuilt = reflection
                    .results
                    .iter()
                    .map(|record| rebuild_record(record, &mut leaves))
                    .collect::<Result<Vec<_>, _>>()?;
                if leaves.next().is_some() {
                    return Err(CallError::Signature(
                        "the function returns more values than its records hold".to_string(),
                    ));
                }
                Ok(rebuilt)
            }
            Structure::Sip(sip) => {
                let flat: Vec<Option<Value>> = results.into_iter().map(Some).collect();
                let mut flat = flat;
                match &sip.results {
                    None => Ok(Vec::new()),
                    Some(SipNode::Struct {
                        kind: StructKind::Sequence,
                        entries,
                    }) => entries
                        .iter()
                        .map(|(_, node)| rebuild_sip(node, &mut flat))
                        .collect(),
                    Some(node) => Ok(vec![rebuild_sip(node, &mut flat)?]),
                }
            }
        }
    }
}

fn root_arity(node: Option<&SipNode>) -> usize {
    match node {
        None => 0,
        Some(SipNode::Struct {
            kind: StructKind::Sequence,
            entries,
        }) => entries.len(),
        Some(_) => 1,
    }
}

fn check_arity(expected: usize, given: usize) -> Result<(), CallError> {
    if expected == given {
        Ok(())
    } else {
        Err(CallError::Arity { expected, given })
    }
}

/// Positional arguments then keywords, in record order.
fn bind_keywords<'v>(
    records: &[TypeRecord],
    args: &'v [Value],
    keywords: &'v BTreeMap<String, Value>,
) -> Result<Vec<&'v Value>, CallError> {
    let named = |name: &str| {
        records
            .iter()
            .position(|r| matches!(r, TypeRecord::Named(n, _) if n == name))
    };
    if let Some(unknown) = keywords.keys().find(|k| named(k).is_none()) {
        return Err(CallError::UnknownKeyword(unknown.clone()));
    }
    check_arity(records.len(), args.len() + keywords.len())?;
    let mut bound: Vec<Option<&Value>> = args.iter().map(Some).collect();
    bound.resize(records.len(), None);
    for (key, value) in keywords {
        let at = named(key).unwrap_or(records.len());
        match bound.get_mut(at) {
            Some(slot @ None) => *slot = Some(value),
            _ => {
                return Err(CallError::Type {
                    argument: format!("argument {at}"),
                    expected: "one value".to_string(),
                    given: format!("a positional value and keyword '{key}'"),
                });
            }
        }
    }
    bound
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            v.ok_or(CallError::Type {
                argument: format!("argument {i}"),
                expected: records[i].to_string(),
                given: "nothing".to_string(),
            })
        })
        .collect()
}

fn type_error(argument: &str, expected: impl ToString, given: String) -> CallError {
    CallError::Type {
        argument: argument.to_string(),
        expected: expected.to_string(),
        given,
    }
}

fn flatten_record(
    record: &TypeRecord,
    value: &Value,
    path: &str,
    out: &mut Vec<Value>,
) -> Result<(), CallError> {
    match record {
        TypeRecord::Named(_, inner) => flatten_record(inner, value, path, out),
        TypeRecord::Null => Ok(()),
        TypeRecord::SList(slots) | TypeRecord::STuple(slots) => {
            let (Value::List(items) | Value::Tuple(items)) = value else {
                return Err(type_error(path, record, value.describe()));
            };
            if items.len() != slots.len() {
                return Err(type_error(
                    path,
                    format!("a sequence with {} values", slots.len()),
                    format!("{} values", items.len()),
                ));
            }
            for (i, (slot, item)) in slots.iter().zip(items).enumerate() {
                flatten_record(slot, item, &format!("{path}[{i}]"), out)?;
            }
            Ok(())
        }
        TypeRecord::SDict(slots) | TypeRecord::SDictKwargs(slots) => {
            let Value::Struct(fields) = value else {
                return Err(type_error(path, record, value.describe()));
            };
            if let Some(extra) = fields.keys().find(|k| !slots.iter().any(|(s, _)| s == *k)) {
                return Err(type_error(
                    path,
                    format!("a dict with {} values", slots.len()),
                    format!("{} values, among them '{extra}'", fields.len()),
                ));
            }
            for (key, slot) in slots {
                let item = fields.get(key).ok_or_else(|| {
                    type_error(
                        path,
                        format!("a dict with key '{key}'"),
                        "no such key".into(),
                    )
                })?;
                flatten_record(slot, item, &format!("{path}['{key}']"), out)?;
            }
            Ok(())
        }
        leaf => {
            check_record_leaf(leaf, value, path)?;
            out.push(value.clone());
            Ok(())
        }
    }
}

/// A leaf value against its record.
fn check_record_leaf(record: &TypeRecord, value: &Value, path: &str) -> Result<(), CallError> {
    match (record, value) {
        (TypeRecord::Unknown, _) => Ok(()),
        (TypeRecord::Scalar(e), v) if v.scalar_type() == Some(*e) => Ok(()),
        (TypeRecord::NdArray { element, dims }, Value::Buffer(b)) => {
            if b.element != *element {
                return Err(type_error(path, record, value.describe()));
            }
            if let Some(dims) = dims {
                check_dims(dims.iter().copied(), &b.shape, path, record, value)?;
            }
            Ok(())
        }
        (TypeRecord::HomogeneousList(_), _) => Err(type_error(
            path,
            record,
            format!(
                "{} (lists of any length have no flat form)",
                value.describe()
            ),
        )),
        _ => Err(type_error(path, record, value.describe())),
    }
}

fn check_dims(
    expected: impl ExactSizeIterator<Item = Option<u64>>,
    shape: &[u64],
    path: &str,
    record: &impl ToString,
    value: &Value,
) -> Result<(), CallError> {
    if expected.len() != shape.len() {
        return Err(type_error(
            path,
            record.to_string(),
            format!(
                "{} (rank {}, expected {})",
                value.describe(),
                shape.len(),
                expected.len()
            ),
        ));
    }
    for (i, (want, &have)) in expected.zip(shape).enumerate() {
        if want.is_some_and(|want| want != have) {
            return Err(type_error(
                path,
                record.to_string(),
                format!(
                    "{} (dim {i} is {have}, expected {})",
                    value.describe(),
                    want.unwrap_or_default()
                ),
            ));
        }
    }
    Ok(())
}

/// A flat value against its raw type.
pub fn check_raw(raw: &RawType, value: &Value, path: &str) -> Result<(), CallError> {
    match (raw, value) {
        (RawType::Unrecognized, _) => Ok(()),
        (RawType::Ref, Value::Ref(_) | Value::Null) => Ok(()),
        (RawType::Scalar(t), v) if v.scalar_type().is_some_and(|e| t.admits(e)) => Ok(()),
        (RawType::Buffer { element, dims }, Value::Buffer(b)) if element.admits(b.element) => {
            check_dims(
                dims.iter().map(|d| d.map(u64::from)),
                &b.shape,
                path,
                raw,
                value,
            )
        }
        _ => Err(type_error(path, raw, value.describe())),
    }
}

fn flatten_sip(
    node: &SipNode,
    value: &Value,
    path: &str,
    slots: &mut [Option<Value>],
) -> Result<(), CallError> {
    match node {
        SipNode::Leaf(index) => {
            let slot = usize::try_from(*index)
                .ok()
                .and_then(|i| slots.get_mut(i))
                .ok_or_else(|| {
                    CallError::Signature(format!("structure leaf {index} is not a raw argument"))
                })?;
            *slot = Some(value.clone());
            Ok(())
        }
        SipNode::Struct {
            kind: StructKind::Sequence,
            entries,
        } => {
            let (Value::List(items) | Value::Tuple(items)) = value else {
                return Err(type_error(
                    path,
                    format!("a sequence with {} values", entries.len()),
                    value.describe(),
                ));
            };
            if items.len() != entries.len() {
                return Err(type_error(
                    path,
                    format!("a sequence with {} values", entries.len()),
                    format!("{} values", items.len()),
                ));
            }
            for ((key, child), item) in entries.iter().zip(items) {
                flatten_sip(child, item, &format!("{path}[{key}]"), slots)?;
            }
            Ok(())
        }
        SipNode::Struct {
            kind: StructKind::Dict,
            entries,
        } => {
            let Value::Struct(fields) = value else {
                return Err(type_error(
                    path,
                    format!("a dict with {} values", entries.len()),
                    value.describe(),
                ));
            };
            if fields.len() != entries.len() {
                return Err(type_error(
                    path,
                    format!("a dict with {} values", entries.len()),
                    format!("{} values", fields.len()),
                ));
            }
            for (key, child) in entries {
                let name = key.to_string();
                let item = fields.get(&name).ok_or_else(|| {
                    type_error(
                        path,
                        format!("a dict with key '{name}'"),
                        "no such key".into(),
                    )
                })?;
                flatten_sip(child, item, &format!("{path}['{name}']"), slots)?;
            }
            Ok(())
        }
    }
}

fn rebuild_record(
    record: &TypeRecord,
    leaves: &mut impl Iterator<Item = Value>,
) -> Result<Value, CallError> {
    let missing =
        || CallError::Signature("the function returns fewer values than its records hold".into());
    Ok(match record {
        TypeRecord::Named(_, inner) => rebuild_record(inner, leaves)?,
        TypeRecord::Null => Value::Null,
        TypeRecord::SList(slots) => Value::List(
            slots
                .iter()
                .map(|s| rebuild_record(s, leaves))
                .collect::<Result<_, _>>()?,
        ),
        TypeRecord::STuple(slots) => Value::Tuple(
            slots
                .iter()
                .map(|s| rebuild_record(s, leaves))
                .collect::<Result<_, _>>()?,
        ),
        TypeRecord::SDict(slots) | TypeRecord::SDictKwargs(slots) => Value::Struct(
            slots
                .iter()
                .map(|(k, s)| Ok((k.clone(), rebuild_record(s, leaves)?)))
                .collect::<Result<_, CallError>>()?,
        ),
        _ => leaves.next().ok_or_else(missing)?,
    })
}

fn rebuild_sip(node: &SipNode, flat: &mut [Option<Value>]) -> Result<Value, CallError> {
    match node {
        SipNode::Leaf(index) => usize::try_from(*index)
            .ok()
            .and_then(|i| flat.get_mut(i))
            .and_then(Option::take)
            .ok_or_else(|| {
                CallError::Signature(format!(
                    "structure leaf {index} is not a result, or repeats"
                ))
            }),
        SipNode::Struct {
            kind: StructKind::Sequence,
            entries,
        } => Ok(Value::List(
            entries
                .iter()
                .map(|(_, child)| rebuild_sip(child, flat))
                .collect::<Result<_, _>>()?,
        )),
        SipNode::Struct {
            kind: StructKind::Dict,
            entries,
        } => Ok(Value::Struct(
            entries
                .iter()
                .map(|(key, child)| Ok((key.to_string(), rebuild_sip(child, flat)?)))
                .collect::<Result<_, CallError>>()?,
        )),
    }
}
