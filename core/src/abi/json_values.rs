//! Call values as JSON, for tools: arguments read from JSON with the
//! element types and structure of the function's signature, results
//! written as JSON.
//!
//! Arguments are a JSON list (positional) or object (keyword arguments of
//! `named` records). A scalar is a number (`true`/`false` or 0/1 for
//! `i1`), a tensor nested lists (its element type from the signature) or
//! `{"btf": PATH, "index": N}`, a tensor of a BTF file read by the
//! caller's reader (with `"rows": [START, END]`, only those rows of its
//! outermost dimension), a sequence a list, a dict an object, a chain `null`.

use std::collections::BTreeMap;
use std::io;

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
    let json = crate::tool_io::json::parse_strict(text)
        .map_err(|e| format!("the arguments are not JSON: {e}"))?;
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

/// What `json` is, for an error: numbers, booleans and null as written
/// (they are what a type check refuses), strings, lists and objects by
/// kind and size only, so that an error never quotes the text of a file
/// the arguments came from.
fn describe(json: &Json) -> String {
    match json {
        Json::Null | Json::Bool(_) | Json::Number(_) => json.to_string(),
        Json::String(text) => format!("a string of {} characters", text.chars().count()),
        Json::Array(items) => format!("a list of {} values", items.len()),
        Json::Object(items) => format!("an object of {} keys", items.len()),
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
            Some(reference) => reference
                .read(read_btf, Some(*element), dims.as_ref().map(Vec::len))
                .map(Value::Buffer)
                .map_err(|e| format!("{path}: {e}")),
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
                (_, Some(reference)) => reference
                    .read(read_btf, None, None)
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

/// A tensor of a BTF file named in the arguments: `{"btf": PATH,
/// "index": N}`, with `"rows": [START, END]` for rows `START..END` of its
/// outermost dimension.
struct BtfReference<'j> {
    file: &'j str,
    index: i32,
    rows: Option<(u64, u64)>,
}

impl BtfReference<'_> {
    /// Reads the tensor (of `element`s in `rank` dimensions, if given),
    /// then keeps the rows asked for.
    fn read(
        &self,
        read_btf: BtfReader<'_>,
        element: Option<ElementType>,
        rank: Option<usize>,
    ) -> Result<Buffer, String> {
        let buffer = read_btf(self.file, self.index, element, rank)?;
        let Some((start, end)) = self.rows else {
            return Ok(buffer);
        };
        let Some(&outer) = buffer.shape.first() else {
            return Err(format!(
                "\"rows\" slices the outermost dimension, and tensor {} is a scalar",
                self.index
            ));
        };
        if start > end || end > outer {
            return Err(format!(
                "\"rows\": [{start}, {end}] is not within tensor {}'s {outer} rows \
                 (START <= END <= {outer})",
                self.index
            ));
        }
        // Row-major: a row is the product of the inner dimensions.
        let row_bytes = buffer.data.len() as u64 / outer.max(1);
        let bytes = (start * row_bytes) as usize..(end * row_bytes) as usize;
        let mut shape = buffer.shape.clone();
        shape[0] = end - start;
        Buffer::new(buffer.element, shape, buffer.data[bytes].to_vec())
    }
}

/// `{"btf": PATH, "index": N}` (and `"rows": [START, END]`), if `json`
/// is one.
fn btf_reference<'j>(json: &'j Json, path: &str) -> Result<Option<BtfReference<'j>>, String> {
    let Json::Object(items) = json else {
        return Ok(None);
    };
    let shape_error = || {
        format!(
            "{path}: a tensor object is {{\"btf\": PATH, \"index\": N}}, with \"rows\": \
             [START, END] for some of its rows, not {}",
            describe(json)
        )
    };
    let file = items.get("btf").and_then(Json::as_str);
    let index = items.get("index").and_then(Json::as_i64);
    let rows = match items.get("rows") {
        None => None,
        Some(Json::Array(pair)) => match pair.as_slice() {
            [start, end] => match (start.as_u64(), end.as_u64()) {
                (Some(start), Some(end)) => Some((start, end)),
                _ => {
                    return Err(format!(
                        "{path}: \"rows\" is [START, END] of whole numbers, not {}",
                        describe(&items["rows"])
                    ));
                }
            },
            _ => {
                return Err(format!(
                    "{path}: \"rows\" is [START, END], not a list of {}",
                    pair.len()
                ));
            }
        },
        Some(other) => {
            return Err(format!(
                "{path}: \"rows\" is [START, END], not {}",
                describe(other)
            ));
        }
    };
    let expected_keys = 2 + usize::from(rows.is_some());
    match (file, index, items.len() == expected_keys) {
        (Some(file), Some(index), true) => {
            let index = i32::try_from(index)
                .map_err(|_| format!("{path}: BTF index {index} is out of range"))?;
            Ok(Some(BtfReference { file, index, rows }))
        }
        _ => Err(shape_error()),
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
        ElementType::F32 => {
            let wide = json.as_f64().ok_or_else(not)?;
            let narrow = wide as f32;
            // JSON numbers are finite; one past f32's range would become
            // an infinity nobody wrote.
            if narrow.is_infinite() {
                return Err(format!(
                    "{path}: {} is out of the range of f32 (largest magnitude {:e})",
                    describe(json),
                    f32::MAX
                ));
            }
            Value::F32(narrow)
        }
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
    let mut out = Vec::new();
    write_values_json(&mut out, values).expect("writing to memory does not fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// `values` as compact JSON (a list of the results) written to `out` as
/// it is made: a tensor's elements are formatted one at a time, so memory
/// does not grow with the size of a result. Strings escape what a
/// terminal would act on ([`crate::tool_io::json::TerminalSafe`]).
pub fn write_values_json(out: &mut dyn io::Write, values: &[Value]) -> io::Result<()> {
    out.write_all(b"[")?;
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write_value(out, value)?;
    }
    out.write_all(b"]")
}

fn write_value(out: &mut dyn io::Write, value: &Value) -> io::Result<()> {
    match value {
        Value::Buffer(buffer) => write_buffer(out, buffer),
        Value::Tuple(items) | Value::List(items) => write_values_json(out, items),
        Value::Struct(fields) => {
            out.write_all(b"{")?;
            for (i, (key, field)) in fields.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write_json(out, &key)?;
                out.write_all(b":")?;
                write_value(out, field)?;
            }
            out.write_all(b"}")
        }
        Value::String(bytes) => write_json(out, &String::from_utf8_lossy(bytes)),
        Value::Ref(type_name) => write_json(out, &serde_json::json!({ "ref": type_name })),
        Value::Null => out.write_all(b"null"),
        number => write_json(out, &number_json(number)),
    }
}

fn write_json(out: &mut dyn io::Write, value: &impl serde::Serialize) -> io::Result<()> {
    use crate::tool_io::json::{TerminalSafe, write};
    write(out, TerminalSafe::compact(), value).map_err(io::Error::from)
}

/// A buffer as nested lists, row-major, innermost dimension last; a
/// rank-0 buffer as its one element.
fn write_buffer(out: &mut dyn io::Write, buffer: &Buffer) -> io::Result<()> {
    let size = buffer.element.size();
    let mut elements = buffer.data.chunks_exact(size);
    if buffer.shape.is_empty() {
        return match elements.next() {
            Some(bytes) => write_json(out, &element_json(buffer.element, bytes)),
            None => out.write_all(b"null"),
        };
    }
    // An empty tensor is its lists down to the first empty dimension.
    let (dims, leaf): (&[u64], &[u8]) = match buffer.shape.iter().position(|&d| d == 0) {
        Some(0) => return out.write_all(b"[]"),
        Some(zero) => (&buffer.shape[..zero], b"[]"),
        None => (&buffer.shape, b""),
    };
    write_nested(out, dims, &mut |out| match elements.next() {
        _ if !leaf.is_empty() => out.write_all(leaf),
        Some(bytes) => write_json(out, &element_json(buffer.element, bytes)),
        None => out.write_all(b"null"),
    })
}

/// Lists nested by `dims` (none zero), each leaf written by `leaf` in
/// row-major order, without recursion: an odometer over the indices.
fn write_nested(
    out: &mut dyn io::Write,
    dims: &[u64],
    leaf: &mut dyn FnMut(&mut dyn io::Write) -> io::Result<()>,
) -> io::Result<()> {
    let rank = dims.len();
    let mut index = vec![0u64; rank];
    write_repeated(out, b"[", rank)?;
    loop {
        leaf(out)?;
        // Advance the innermost index, closing and reopening the lists
        // that wrap.
        let mut wrapped = 0;
        let mut axis = rank;
        while axis > 0 {
            axis -= 1;
            index[axis] += 1;
            if index[axis] < dims[axis] {
                break;
            }
            index[axis] = 0;
            wrapped += 1;
        }
        if wrapped == rank {
            break;
        }
        write_repeated(out, b"]", wrapped)?;
        out.write_all(b",")?;
        write_repeated(out, b"[", wrapped)?;
    }
    write_repeated(out, b"]", rank)
}

fn write_repeated(out: &mut dyn io::Write, text: &[u8], times: usize) -> io::Result<()> {
    for _ in 0..times {
        out.write_all(text)?;
    }
    Ok(())
}

fn float(v: f64) -> Json {
    serde_json::Number::from_f64(v).map_or_else(|| Json::String(format!("{v}")), Json::Number)
}

/// A number as JSON: integers as integers, floats through `f64` (NaN and
/// the infinities as strings). Values of other kinds are
/// [`write_value`]'s; they come out as `null` here.
fn number_json(value: &Value) -> Json {
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
        _ => Json::Null,
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
    number_json(&value)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_buffer(shape: &[u64], values: &[f32]) -> Value {
        let data = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
        Value::Buffer(Buffer::new(ElementType::F32, shape.to_vec(), data).expect("sized"))
    }

    #[test]
    fn tensors_are_nested_lists_row_major() {
        let values = [
            f32_buffer(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 0.5]),
            f32_buffer(&[], &[7.0]),
            f32_buffer(&[3], &[1.0, f32::NAN, f32::INFINITY]),
            f32_buffer(&[1, 2, 1], &[1.0, 2.0]),
        ];
        assert_eq!(
            values_to_json(&values),
            r#"[[[1.0,2.0,3.0],[4.0,5.0,0.5]],7.0,[1.0,"NaN","inf"],[[[1.0],[2.0]]]]"#
        );
    }

    #[test]
    fn empty_tensors_keep_their_outer_lists() {
        let values = [
            f32_buffer(&[0], &[]),
            f32_buffer(&[2, 0], &[]),
            f32_buffer(&[2, 1, 0, 5], &[]),
        ];
        assert_eq!(values_to_json(&values), "[[],[[],[]],[[[]],[[]]]]");
    }

    #[test]
    fn structures_and_strings() {
        let mut fields = BTreeMap::new();
        fields.insert("k\u{202e}".to_string(), Value::I32(-3));
        fields.insert("s".to_string(), Value::String(b"a\x1b]0;x\x07".to_vec()));
        let values = [
            Value::Struct(fields),
            Value::Tuple(vec![Value::Null, Value::I1(true), Value::U64(u64::MAX)]),
        ];
        assert_eq!(
            values_to_json(&values),
            r#"[{"k\u202e":-3,"s":"a\u001b]0;x\u0007"},[null,true,18446744073709551615]]"#
        );
    }

    #[test]
    fn arguments_refuse_repeated_keys_and_overflowing_floats() {
        let records = [
            TypeRecord::Named(
                "scale".into(),
                Box::new(TypeRecord::Scalar(ElementType::F32)),
            ),
            TypeRecord::Named("n".into(), Box::new(TypeRecord::Scalar(ElementType::I32))),
        ];
        let no_btf: BtfReader<'_> = &|_, _, _, _| Err("no BTF here".into());
        let read = |text: &str| arguments_from_json(text.as_bytes(), &records, no_btf);
        let error = read(r#"{"scale": 1, "n": 2, "scale": 3}"#).unwrap_err();
        assert!(
            error.contains("duplicate key \"scale\" at line 1 column"),
            "{error}"
        );
        let error = read(r#"{"scale": 1e39, "n": 2}"#).unwrap_err();
        assert!(error.contains("out of the range of f32"), "{error}");
        let largest = read(r#"{"scale": 3.4028234663852886e38, "n": 2}"#).expect("reads");
        assert_eq!(largest.keywords["scale"], Value::F32(f32::MAX));
        let error = read(r#"{"scale": "secret-token-value", "n": 2}"#).unwrap_err();
        assert!(error.contains("a string of 18 characters"), "{error}");
        assert!(!error.contains("secret"), "{error}");
    }
}
