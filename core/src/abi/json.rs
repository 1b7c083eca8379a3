//! JSON reflection text: `{"a":[...],"r":[...],"v":1}`, written compact
//! with keys sorted, read strictly (the top-level keys `a`, `r` and `v`
//! only, `v` 1 when present, record names and shapes as specified, `sdict`
//! keys ascending bytewise without repeats, `named` only at the root of
//! the arguments) or leniently (other top-level keys ignored, missing
//! lists empty, `sdict` keys in any order, and the 2021 `sdict_kwargs`
//! record). serde_json bounds the nesting it reads (128 levels), and the
//! records are read at most [`MAX_NESTING`] deep.

use serde_json::Value as Json;

use super::Mode;
use super::reflection::{Reflection, TypeRecord, VERSION};
use super::sip::MAX_NESTING;
use super::value::ElementType;

/// Why reflection text does not read: what is wrong and where (a path of
/// JSON keys and positions, `a[0][2]`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {what}")]
pub struct JsonError {
    /// Where, from the top-level object (`a[1][3]`; `$` for the object).
    pub path: String,
    /// What is wrong.
    pub what: String,
}

fn error(path: &str, what: impl Into<String>) -> JsonError {
    JsonError {
        path: path.to_string(),
        what: what.into(),
    }
}

impl Reflection {
    /// The reflection in `text`.
    pub fn from_json(text: &[u8], mode: Mode) -> Result<Reflection, JsonError> {
        let json = crate::tool_io::json::parse_strict(text)
            .map_err(|e| error("$", format!("not JSON: {e}")))?;
        let Json::Object(object) = json else {
            return Err(error("$", "reflection is not a JSON object"));
        };
        if mode == Mode::Strict
            && let Some(key) = object
                .keys()
                .find(|k| !["a", "r", "v"].contains(&k.as_str()))
        {
            return Err(error("$", format!("unknown key {key:?}")));
        }
        match object.get("v") {
            None => {}
            Some(v) if v.as_u64() == Some(VERSION) => {}
            Some(v) => return Err(error("v", format!("unsupported version {v}"))),
        }
        let mut lists = [Vec::new(), Vec::new()];
        for (slot, key) in ["a", "r"].into_iter().enumerate() {
            match object.get(key) {
                Some(Json::Array(records)) => {
                    for (i, record) in records.iter().enumerate() {
                        let path = format!("{key}[{i}]");
                        let root = if key == "a" {
                            Root::Argument
                        } else {
                            Root::Result
                        };
                        lists[slot].push(read_record(record, &path, mode, root, 0)?);
                    }
                }
                Some(_) => return Err(error(key, "not a list of type records")),
                None if mode == Mode::Lenient => {}
                None => return Err(error("$", format!("missing key \"{key}\""))),
            }
        }
        let [args, results] = lists;
        Ok(Reflection { args, results })
    }

    /// The compact JSON text, keys sorted.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"a\":");
        write_list(&mut out, self.args.iter());
        out.push_str(",\"r\":");
        write_list(&mut out, self.results.iter());
        out.push_str(&format!(",\"v\":{VERSION}}}"));
        out
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Root {
    Argument,
    Result,
    Nested,
}

fn read_record(
    json: &Json,
    path: &str,
    mode: Mode,
    root: Root,
    depth: usize,
) -> Result<TypeRecord, JsonError> {
    if depth > MAX_NESTING {
        return Err(error(
            path,
            format!("records nest deeper than {MAX_NESTING}"),
        ));
    }
    let items = match json {
        Json::Null => return Ok(TypeRecord::Null),
        Json::String(name) if name == "unknown" => return Ok(TypeRecord::Unknown),
        Json::String(name) => {
            return element(name)
                .map(TypeRecord::Scalar)
                .ok_or_else(|| error(path, format!("unknown type {name:?}")));
        }
        Json::Array(items) => items,
        other => return Err(error(path, format!("{other} is not a type record"))),
    };
    let Some(Json::String(kind)) = items.first() else {
        return Err(error(
            path,
            "a compound record does not start with its kind",
        ));
    };
    let fields = &items[1..];
    let child = |i: usize, json: &Json| {
        read_record(
            json,
            &format!("{path}[{}]", i + 1),
            mode,
            Root::Nested,
            depth + 1,
        )
    };
    match kind.as_str() {
        "ndarray" => read_ndarray(fields, path),
        "slist" | "stuple" => {
            let slots = fields
                .iter()
                .enumerate()
                .map(|(i, f)| child(i, f))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(if kind == "slist" {
                TypeRecord::SList(slots)
            } else {
                TypeRecord::STuple(slots)
            })
        }
        "sdict" | "sdict_kwargs" => {
            if kind == "sdict_kwargs" && mode == Mode::Strict {
                return Err(error(
                    path,
                    "sdict_kwargs is the 2021 form of keyword arguments (read it in lenient mode)",
                ));
            }
            let mut slots: Vec<(String, TypeRecord)> = Vec::with_capacity(fields.len());
            for (i, field) in fields.iter().enumerate() {
                let slot_path = format!("{path}[{}]", i + 1);
                let (key, value) = match field.as_array().map(Vec::as_slice) {
                    Some([Json::String(key), value]) => (key, value),
                    _ => return Err(error(&slot_path, "an sdict slot is not [key, type]")),
                };
                if mode == Mode::Strict
                    && let Some((last, _)) = slots.last()
                    && last.as_bytes() >= key.as_bytes()
                {
                    return Err(error(
                        &slot_path,
                        format!("key {key:?} is not after {last:?} (keys are sorted bytewise)"),
                    ));
                }
                slots.push((key.clone(), child(i, value)?));
            }
            Ok(if kind == "sdict" {
                TypeRecord::SDict(slots)
            } else {
                TypeRecord::SDictKwargs(slots)
            })
        }
        "named" => {
            if mode == Mode::Strict && root != Root::Argument {
                return Err(error(path, "a named record outside the arguments' list"));
            }
            match fields {
                [Json::String(name), inner] => {
                    Ok(TypeRecord::Named(name.clone(), Box::new(child(1, inner)?)))
                }
                _ => Err(error(path, "a named record is not [\"named\", name, type]")),
            }
        }
        "py_homogeneous_list" => match fields {
            [inner] => Ok(TypeRecord::HomogeneousList(Box::new(child(0, inner)?))),
            _ => Err(error(path, "a homogeneous list has one element type")),
        },
        other => Err(error(path, format!("unknown record kind {other:?}"))),
    }
}

fn element(name: &str) -> Option<ElementType> {
    ElementType::from_mlir_name(name).filter(|e| e.mlir_name() == name)
}

fn read_ndarray(fields: &[Json], path: &str) -> Result<TypeRecord, JsonError> {
    let element = match fields.first() {
        Some(Json::String(name)) => {
            element(name).ok_or_else(|| error(path, format!("unknown element type {name:?}")))?
        }
        _ => return Err(error(path, "an ndarray has no element type")),
    };
    let dims = match fields.get(1) {
        Some(Json::Null) if fields.len() == 2 => None,
        Some(Json::Null) => return Err(error(path, "an ndarray of unknown rank has dims")),
        Some(rank) => {
            let rank = rank
                .as_u64()
                .ok_or_else(|| error(path, format!("rank {rank} is not a count")))?;
            let dims = &fields[2..];
            if dims.len() as u64 != rank {
                return Err(error(path, format!("rank {rank} but {} dims", dims.len())));
            }
            Some(
                dims.iter()
                    .map(|d| match d {
                        Json::Null => Ok(None),
                        d => d
                            .as_u64()
                            .map(Some)
                            .ok_or_else(|| error(path, format!("dim {d} is not a size or null"))),
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            )
        }
        None => return Err(error(path, "an ndarray has no rank")),
    };
    Ok(TypeRecord::NdArray { element, dims })
}

fn write_list<'a>(out: &mut String, records: impl Iterator<Item = &'a TypeRecord>) {
    out.push('[');
    for (i, record) in records.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_record(out, record);
    }
    out.push(']');
}

fn write_string(out: &mut String, s: &str) {
    out.push_str(&Json::String(s.to_string()).to_string());
}

fn write_record(out: &mut String, record: &TypeRecord) {
    let compound = |out: &mut String, kind: &str| {
        out.push('[');
        write_string(out, kind);
    };
    match record {
        TypeRecord::Scalar(e) => write_string(out, e.mlir_name()),
        TypeRecord::Null => out.push_str("null"),
        TypeRecord::Unknown => write_string(out, "unknown"),
        TypeRecord::NdArray { element, dims } => {
            compound(out, "ndarray");
            out.push(',');
            write_string(out, element.mlir_name());
            match dims {
                None => out.push_str(",null"),
                Some(dims) => {
                    out.push_str(&format!(",{}", dims.len()));
                    for d in dims {
                        match d {
                            Some(d) => out.push_str(&format!(",{d}")),
                            None => out.push_str(",null"),
                        }
                    }
                }
            }
            out.push(']');
        }
        TypeRecord::SList(slots) | TypeRecord::STuple(slots) => {
            let kind = if matches!(record, TypeRecord::SList(_)) {
                "slist"
            } else {
                "stuple"
            };
            compound(out, kind);
            for slot in slots {
                out.push(',');
                write_record(out, slot);
            }
            out.push(']');
        }
        TypeRecord::SDict(slots) | TypeRecord::SDictKwargs(slots) => {
            let kind = if matches!(record, TypeRecord::SDict(_)) {
                "sdict"
            } else {
                "sdict_kwargs"
            };
            compound(out, kind);
            for (key, slot) in slots {
                out.push_str(",[");
                write_string(out, key);
                out.push(',');
                write_record(out, slot);
                out.push(']');
            }
            out.push(']');
        }
        TypeRecord::Named(name, inner) => {
            compound(out, "named");
            out.push(',');
            write_string(out, name);
            out.push(',');
            write_record(out, inner);
            out.push(']');
        }
        TypeRecord::HomogeneousList(inner) => {
            compound(out, "py_homogeneous_list");
            out.push(',');
            write_record(out, inner);
            out.push(']');
        }
    }
}
