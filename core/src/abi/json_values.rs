//! Call values as JSON, for tools: arguments read from JSON with the
//! element types and structure of the function's signature, results
//! written as JSON.
//!
//! Arguments are a JSON list (positional) or object (keyword arguments of
//! `named` records). A scalar is a number (`true`/`false` or 0/1 for
//! `i1`), a tensor nested lists (its element type from the signature) or
//! `{"btf": PATH, "index": N}`, a tensor of a BTF file read by the
//! caller's reader, a sequence a list, a dict an object, a chain `null`.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::RawType;
use super::call::{CallSignature, Structure};
use super::raw::raw_type_of_mlir;
use super::reflection::TypeRecord;
use super::sip::{SipKey, SipNode, StructKind};
use super::value::{Buffer, ElementType, Value, byte_size};

/// Reads tensor `index` of the BTF file `path`, of the element type and
/// rank given if any.
pub type BtfReader<'a> =
    &'a dyn Fn(&str, i32, Option<ElementType>, Option<usize>) -> Result<Buffer, String>;

/// Arguments read from JSON.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Arguments {
    /// Positional arguments.
    pub positional: Vec<Value>,
    /// Keyword arguments.
    pub keywords: BTreeMap<String, Value>,
}

/// The type record of each argument a caller passes, for reading JSON:
/// the reflection's, or made from the SIP structure and the function's
/// types, or the types alone.
pub fn argument_records(signature: &CallSignature, arg_types: &[&str]) -> Vec<TypeRecord> {
    let flat: Vec<TypeRecord> = arg_types
        .iter()
        .map(|t| match raw_type_of_mlir(t) {
            RawType::Scalar(_) | RawType::Buffer { .. } => TypeRecord::of_mlir(t)
                .into_iter()
                .next()
                .unwrap_or(TypeRecord::Unknown),
            _ => TypeRecord::Unknown,
        })
        .collect();
    match &signature.structure {
        Structure::Flat => flat,
        Structure::Reflection(reflection) => reflection.args.clone(),
        Structure::Sip(sip) => match &sip.inputs {
            None => Vec::new(),
            Some(SipNode::Struct {
                kind: StructKind::Sequence,
                entries,
            }) => entries.iter().map(|(_, n)| sip_record(n, &flat)).collect(),
            Some(node) => vec![sip_record(node, &flat)],
        },
    }
}

fn sip_record(node: &SipNode, flat: &[TypeRecord]) -> TypeRecord {
    match node {
        SipNode::Leaf(i) => usize::try_from(*i)
            .ok()
            .and_then(|i| flat.get(i))
            .cloned()
            .unwrap_or(TypeRecord::Unknown),
        SipNode::Struct {
            kind: StructKind::Sequence,
            entries,
        } => TypeRecord::SList(entries.iter().map(|(_, n)| sip_record(n, flat)).collect()),
        SipNode::Struct {
            kind: StructKind::Dict,
            entries,
        } => TypeRecord::SDict(
            entries
                .iter()
                .map(|(k, n)| {
                    let key = match k {
                        SipKey::Name(name) => String::from_utf8_lossy(name).into_owned(),
                        SipKey::Index(i) => i.to_string(),
                    };
                    (key, sip_record(n, flat))
                })
                .collect(),
        ),
    }
}

/// The arguments in the JSON `text`, read with `records` (see
/// [`argument_records`]). Errors name the argument and the path inside it.
pub fn arguments_from_json(
    text: &[u8],
    records: &[TypeRecord],
    read_btf: BtfReader<'_>,
) -> Result<Arguments, String> {
    let json: Json =
        serde_json::from_slice(text).map_err(|e| format!("the arguments are not JSON: {e}"))?;
    let mut arguments = Arguments::default();
    match json {
        Json::Array(items) => {
            if items.len() != records.len() {
                return Err(super::CallError::Arity {
                    expected: records.len(),
                    given: items.len(),
                }
                .to_string());
            }
            for (i, item) in items.iter().enumerate() {
                let record = records.get(i).unwrap_or(&TypeRecord::Unknown);
                arguments.positional.push(convert(
                    item,
                    record,
                    &format!("argument {i}"),
                    read_btf,
                )?);
            }
        }
        Json::Object(items) => {
            for (key, item) in &items {
                let record = records
                    .iter()
                    .find_map(|r| match r {
                        TypeRecord::Named(name, inner) if name == key => Some(&**inner),
                        _ => None,
                    })
                    .unwrap_or(&TypeRecord::Unknown);
                let value = convert(item, record, &format!("argument '{key}'"), read_btf)?;
                arguments.keywords.insert(key.clone(), value);
            }
        }
        _ => {
            return Err(
                "the arguments are a JSON list (or an object of keyword arguments)".to_string(),
            );
        }
    }
    Ok(arguments)
}

fn describe(json: &Json) -> String {
    let text = json.to_string();
    if text.len() > 40 {
        format!("{}...", &text[..text.floor_char_boundary(40)])
    } else {
        text
    }
}

fn convert(
    json: &Json,
    record: &TypeRecord,
    path: &str,
    read_btf: BtfReader<'_>,
) -> Result<Value, String> {
    match record {
        TypeRecord::Named(_, inner) => convert(json, inner, path, read_btf),
        TypeRecord::Scalar(element) => scalar(json, *element, path),
        TypeRecord::NdArray { element, dims } => match btf_reference(json, path)? {
            Some((file, index)) => {
                read_btf(file, index, Some(*element), dims.as_ref().map(Vec::len))
                    .map(Value::Buffer)
                    .map_err(|e| format!("{path}: {e}"))
            }
            None => nested_list(json, *element, path).map(Value::Buffer),
        },
        TypeRecord::SList(slots) | TypeRecord::STuple(slots) => {
            let Json::Array(items) = json else {
                return Err(format!("{path}: expected a list, given {}", describe(json)));
            };
            if items.len() != slots.len() {
                return Err(format!(
                    "{path}: expected a list of {} values, given {}",
                    slots.len(),
                    items.len()
                ));
            }
            let values = items
                .iter()
                .zip(slots)
                .enumerate()
                .map(|(i, (item, slot))| convert(item, slot, &format!("{path}[{i}]"), read_btf))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(if matches!(record, TypeRecord::SList(_)) {
                Value::List(values)
            } else {
                Value::Tuple(values)
            })
        }
        TypeRecord::SDict(slots) | TypeRecord::SDictKwargs(slots) => {
            let Json::Object(items) = json else {
                return Err(format!(
                    "{path}: expected an object, given {}",
                    describe(json)
                ));
            };
            let mut fields = BTreeMap::new();
            for (key, item) in items {
                let slot = slots
                    .iter()
                    .find(|(k, _)| k == key)
                    .map(|(_, s)| s)
                    .ok_or_else(|| format!("{path}: unknown key '{key}'"))?;
                fields.insert(
                    key.clone(),
                    convert(item, slot, &format!("{path}['{key}']"), read_btf)?,
                );
            }
            Ok(Value::Struct(fields))
        }
        TypeRecord::Null | TypeRecord::Unknown | TypeRecord::HomogeneousList(_) => {
            match (json, btf_reference(json, path)?) {
                (Json::Null, _) => Ok(Value::Null),
                (_, Some((file, index))) => read_btf(file, index, None, None)
                    .map(Value::Buffer)
                    .map_err(|e| format!("{path}: {e}")),
                _ => Err(format!(
                    "{path}: the signature records no type for it, so it cannot be {} (null passes a chain, {{\"btf\": PATH, \"index\": N}} a tensor)",
                    describe(json)
                )),
            }
        }
    }
}

/// `{"btf": PATH, "index": N}`, if `json` is one.
fn btf_reference<'j>(json: &'j Json, path: &str) -> Result<Option<(&'j str, i32)>, String> {
    let Json::Object(items) = json else {
        return Ok(None);
    };
    let file = items.get("btf").and_then(Json::as_str);
    let index = items.get("index").and_then(Json::as_i64);
    match (file, index, items.len()) {
        (Some(file), Some(index), 2) => {
            let index = i32::try_from(index)
                .map_err(|_| format!("{path}: BTF index {index} is out of range"))?;
            Ok(Some((file, index)))
        }
        _ => Err(format!(
            "{path}: a tensor object is {{\"btf\": PATH, \"index\": N}}, not {}",
            describe(json)
        )),
    }
}

fn scalar(json: &Json, element: ElementType, path: &str) -> Result<Value, String> {
    let not = || format!("{path}: {} is not {}", describe(json), element.mlir_name());
    let int = |min: i128, max: i128| -> Result<i128, String> {
        let v = json
            .as_i64()
            .map(i128::from)
            .or_else(|| json.as_u64().map(i128::from))
            .ok_or_else(not)?;
        if v < min || v > max {
            return Err(not());
        }
        Ok(v)
    };
    Ok(match element {
        ElementType::I1 => match json {
            Json::Bool(b) => Value::I1(*b),
            _ => Value::I1(int(0, 1)? == 1),
        },
        ElementType::I8 => Value::I8(int(i8::MIN.into(), i8::MAX.into())? as i8),
        ElementType::I16 => Value::I16(int(i16::MIN.into(), i16::MAX.into())? as i16),
        ElementType::I32 => Value::I32(int(i32::MIN.into(), i32::MAX.into())? as i32),
        ElementType::I64 => Value::I64(int(i64::MIN.into(), i64::MAX.into())? as i64),
        ElementType::U8 => Value::U8(int(0, u8::MAX.into())? as u8),
        ElementType::U16 => Value::U16(int(0, u16::MAX.into())? as u16),
        ElementType::U32 => Value::U32(int(0, u32::MAX.into())? as u32),
        ElementType::U64 => Value::U64(int(0, u64::MAX.into())? as u64),
        ElementType::F32 => Value::F32(json.as_f64().ok_or_else(not)? as f32),
        ElementType::F64 => Value::F64(json.as_f64().ok_or_else(not)?),
        ElementType::F16 | ElementType::BF16 => {
            return Err(format!(
                "{path}: {} values cannot be given as JSON",
                element.mlir_name()
            ));
        }
    })
}

/// Nested lists as a packed row-major buffer of `element`s.
fn nested_list(json: &Json, element: ElementType, path: &str) -> Result<Buffer, String> {
    // The shape follows the first element at each level; every list
    // must then match it.
    let mut shape = Vec::new();
    let mut probe = json;
    while let Json::Array(items) = probe {
        shape.push(items.len() as u64);
        match items.first() {
            Some(first) => probe = first,
            None => break,
        }
    }
    let size =
        byte_size(element, &shape).ok_or_else(|| format!("{path}: the tensor is too large"))?;
    let mut data = Vec::with_capacity(usize::try_from(size).unwrap_or(0).min(1 << 20));
    let mut stack = vec![(json, 0usize, String::new())];
    while let Some((node, depth, at)) = stack.pop() {
        match (node, shape.get(depth)) {
            (Json::Array(items), Some(&len)) if items.len() as u64 == len => {
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push((item, depth + 1, format!("{at}[{i}]")));
                }
            }
            (Json::Array(items), Some(&len)) => {
                return Err(format!(
                    "{path}{at}: the tensor is not rectangular (a list of {} where others have {len})",
                    items.len()
                ));
            }
            (leaf, None) if !leaf.is_array() => {
                let value = scalar(leaf, element, &format!("{path}{at}"))?;
                push_element(&mut data, &value);
            }
            (other, _) => {
                return Err(format!(
                    "{path}{at}: the tensor is not rectangular ({} where a {} was expected)",
                    describe(other),
                    if depth < shape.len() {
                        "list"
                    } else {
                        "number"
                    }
                ));
            }
        }
    }
    Buffer::new(element, shape, data).map_err(|e| format!("{path}: {e}"))
}

fn push_element(out: &mut Vec<u8>, value: &Value) {
    match *value {
        Value::I1(v) => out.push(u8::from(v)),
        Value::I8(v) => out.extend(v.to_ne_bytes()),
        Value::I16(v) => out.extend(v.to_ne_bytes()),
        Value::I32(v) => out.extend(v.to_ne_bytes()),
        Value::I64(v) => out.extend(v.to_ne_bytes()),
        Value::U8(v) => out.push(v),
        Value::U16(v) => out.extend(v.to_ne_bytes()),
        Value::U32(v) => out.extend(v.to_ne_bytes()),
        Value::U64(v) => out.extend(v.to_ne_bytes()),
        Value::F16(v) | Value::BF16(v) => out.extend(v.to_ne_bytes()),
        Value::F32(v) => out.extend(v.to_ne_bytes()),
        Value::F64(v) => out.extend(v.to_ne_bytes()),
        _ => {}
    }
}

/// `values` as compact JSON: a list of the results.
pub fn values_to_json(values: &[Value]) -> String {
    Json::Array(values.iter().map(to_json).collect()).to_string()
}

fn float(v: f64) -> Json {
    serde_json::Number::from_f64(v).map_or_else(|| Json::String(format!("{v}")), Json::Number)
}

fn to_json(value: &Value) -> Json {
    match value {
        Value::I1(v) => Json::Bool(*v),
        Value::I8(v) => Json::from(*v),
        Value::I16(v) => Json::from(*v),
        Value::I32(v) => Json::from(*v),
        Value::I64(v) => Json::from(*v),
        Value::U8(v) => Json::from(*v),
        Value::U16(v) => Json::from(*v),
        Value::U32(v) => Json::from(*v),
        Value::U64(v) => Json::from(*v),
        Value::F16(bits) => float(f64::from(f16_to_f32(*bits))),
        Value::BF16(bits) => float(f64::from(f32::from_bits(u32::from(*bits) << 16))),
        Value::F32(v) => float(f64::from(*v)),
        Value::F64(v) => float(*v),
        Value::Buffer(buffer) => buffer_json(buffer),
        Value::String(bytes) => Json::String(String::from_utf8_lossy(bytes).into_owned()),
        Value::Ref(type_name) => serde_json::json!({ "ref": type_name }),
        Value::Null => Json::Null,
        Value::Tuple(items) | Value::List(items) => {
            Json::Array(items.iter().map(to_json).collect())
        }
        Value::Struct(fields) => Json::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), to_json(v)))
                .collect(),
        ),
    }
}

fn buffer_json(buffer: &Buffer) -> Json {
    let size = buffer.element.size();
    let elements: Vec<Json> = buffer
        .data
        .chunks_exact(size)
        .map(|bytes| element_json(buffer.element, bytes))
        .collect();
    // Grouped innermost dimension first.
    let mut level = elements;
    for &dim in buffer.shape.iter().skip(1).rev() {
        let dim = dim.max(1) as usize;
        let mut grouped = Vec::with_capacity(level.len() / dim);
        let mut items = level.into_iter();
        loop {
            let group: Vec<Json> = items.by_ref().take(dim).collect();
            if group.is_empty() {
                break;
            }
            grouped.push(Json::Array(group));
        }
        level = grouped;
    }
    if buffer.shape.is_empty() {
        level.into_iter().next().unwrap_or(Json::Null)
    } else {
        Json::Array(level)
    }
}

fn element_json(element: ElementType, bytes: &[u8]) -> Json {
    let mut word = [0u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    let value = match element {
        ElementType::I1 => Value::I1(bytes[0] != 0),
        ElementType::I8 => Value::I8(i8::from_ne_bytes([bytes[0]])),
        ElementType::I16 => Value::I16(i16::from_ne_bytes([bytes[0], bytes[1]])),
        ElementType::I32 => {
            Value::I32(i32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        }
        ElementType::I64 => Value::I64(i64::from_ne_bytes(word)),
        ElementType::U8 => Value::U8(bytes[0]),
        ElementType::U16 => Value::U16(u16::from_ne_bytes([bytes[0], bytes[1]])),
        ElementType::U32 => {
            Value::U32(u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        }
        ElementType::U64 => Value::U64(u64::from_ne_bytes(word)),
        ElementType::F16 => Value::F16(u16::from_ne_bytes([bytes[0], bytes[1]])),
        ElementType::BF16 => Value::BF16(u16::from_ne_bytes([bytes[0], bytes[1]])),
        ElementType::F32 => {
            Value::F32(f32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        }
        ElementType::F64 => Value::F64(f64::from_ne_bytes(word)),
    };
    to_json(&value)
}

/// IEEE half precision bits as an `f32`.
fn f16_to_f32(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let fraction = f32::from(bits & 0x3ff);
    sign * match exponent {
        0 => fraction * 2f32.powi(-24),
        31 if fraction == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + fraction / 1024.0) * 2f32.powi(e - 15),
    }
}
