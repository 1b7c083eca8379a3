//! Signatures of BEF functions: the call signature of a function from its
//! argument and result types and its signature metadata (the Signatures
//! section), and the check `bef verify` runs over that section.

use super::Mode;
use super::call::{CallSignature, Structure};
use super::raw::{RawSignature, RawType, raw_type_of_mlir};
use super::reflection::{Reflection, TypeRecord};
use super::sip::{SipNode, SipSignature};
use crate::format::{BefFile, DecodeError, FunctionSignatures, SectionId};

/// The runtime's tensor types, whose element type and shape only
/// reflection records.
const TENSOR_TYPES: [&str; 2] = ["!t.tensor", "!tfrt_tensor.tensor"];

/// The call signature of a function of the given MLIR types and metadata:
/// the raw signature of its types, each tensor refined by its reflection
/// record; the structure from the reflection (preferred) or the SIP
/// signature. Errors say how the metadata disagrees with the types.
pub fn call_signature(
    arg_types: &[&str],
    result_types: &[&str],
    metadata: Option<&FunctionSignatures>,
    mode: Mode,
) -> Result<CallSignature, String> {
    let mut raw = RawSignature {
        inputs: arg_types.iter().map(|t| raw_type_of_mlir(t)).collect(),
        results: result_types.iter().map(|t| raw_type_of_mlir(t)).collect(),
    };
    let Some(metadata) = metadata else {
        return Ok(CallSignature {
            raw,
            structure: Structure::Flat,
        });
    };
    let sip = match &metadata.sip {
        None => None,
        Some(bytes) => {
            let sip =
                SipSignature::parse(bytes, mode).map_err(|e| format!("SIP signature: {e}"))?;
            check_sip_leaves(sip.inputs.as_ref(), arg_types.len(), "argument")?;
            check_sip_leaves(sip.results.as_ref(), result_types.len(), "result")?;
            Some(sip)
        }
    };
    let structure = match &metadata.reflection {
        Some(text) => {
            let reflection = read_reflection(text, mode)?;
            for (side, records, types, raws) in [
                ("argument", &reflection.args, arg_types, &mut raw.inputs),
                (
                    "result",
                    &reflection.results,
                    result_types,
                    &mut raw.results,
                ),
            ] {
                let leaves: Vec<&TypeRecord> =
                    records.iter().flat_map(TypeRecord::leaves).collect();
                if leaves.len() != types.len() {
                    return Err(format!(
                        "the reflection describes {} {side}s, the function has {}",
                        leaves.len(),
                        types.len()
                    ));
                }
                for (i, (leaf, type_name)) in leaves.into_iter().zip(types).enumerate() {
                    if !compatible(leaf, type_name) {
                        return Err(format!(
                            "the reflection gives {side} {i} the type {leaf}, but it is {type_name}"
                        ));
                    }
                    if raws[i] == RawType::Unrecognized
                        && let Some(refined) = leaf.raw_type()
                    {
                        raws[i] = refined;
                    }
                }
            }
            Structure::Reflection(reflection)
        }
        None => sip.map_or(Structure::Flat, Structure::Sip),
    };
    Ok(CallSignature { raw, structure })
}

#[cfg(feature = "json")]
fn read_reflection(text: &str, mode: Mode) -> Result<Reflection, String> {
    Reflection::from_json(text.as_bytes(), mode).map_err(|e| format!("reflection: {e}"))
}

#[cfg(not(feature = "json"))]
fn read_reflection(_text: &str, _mode: Mode) -> Result<Reflection, String> {
    Err("reading JSON reflection needs the bef library's `json` feature".to_string())
}

/// Whether a value of reflection type `record` can be a value of the
/// runtime type `type_name`.
fn compatible(record: &TypeRecord, type_name: &str) -> bool {
    match record {
        TypeRecord::Unknown => true,
        TypeRecord::Scalar(e) => e.mlir_name() == type_name,
        TypeRecord::NdArray { .. } => {
            TENSOR_TYPES.contains(&type_name) || {
                let own = raw_type_of_mlir(type_name);
                matches!(own, RawType::Buffer { .. }) && record.raw_type() == Some(own)
            }
        }
        TypeRecord::HomogeneousList(_) => type_name.starts_with('!'),
        _ => false,
    }
}

/// The leaves of a SIP side are the positions `0..count`, once each.
fn check_sip_leaves(root: Option<&SipNode>, count: usize, side: &str) -> Result<(), String> {
    let mut seen = vec![false; count];
    for (path, index) in root.map(SipNode::leaves).unwrap_or_default() {
        let slot = usize::try_from(index).ok().and_then(|i| seen.get_mut(i));
        match slot {
            Some(slot) if !*slot => *slot = true,
            _ => {
                let path: Vec<String> = path.iter().map(ToString::to_string).collect();
                return Err(format!(
                    "SIP signature: the leaf at [{}] is {side} {index}, which the function (with {count} {side}s) does not have or has twice",
                    path.join(", ")
                ));
            }
        }
    }
    match seen.iter().position(|s| !s) {
        Some(missing) => Err(format!("SIP signature: no leaf is {side} {missing}")),
        None => Ok(()),
    }
}

/// The call signature of function `index` of `file`, from its types and
/// its entry in the Signatures section.
pub fn call_signature_in_file(
    file: &BefFile<'_>,
    index: usize,
    mode: Mode,
) -> Result<CallSignature, String> {
    let types = file.type_names().map_err(|e| e.to_string())?;
    let names = |indices: &[u32]| -> Result<Vec<&str>, String> {
        indices
            .iter()
            .map(|&t| {
                types
                    .get(t as usize)
                    .copied()
                    .ok_or_else(|| format!("type index {t} is out of range"))
            })
            .collect()
    };
    let args = names(file.function_arg_types(index))?;
    let results = names(file.function_result_types(index))?;
    let entries = file.signatures().map_err(|e| e.to_string())?;
    let entry = entries.iter().find(|e| e.function as usize == index);
    call_signature(&args, &results, entry, mode)
}

/// Every problem of the Signatures section of `file`: its framing, and
/// each entry's metadata against its function's types.
pub fn check_file(file: &BefFile<'_>) -> Vec<DecodeError> {
    let at = file
        .section(SectionId::Signatures)
        .map_or(0, |s| s.data_offset);
    let entries = match file.signatures() {
        Ok(entries) => entries,
        Err(e) => return vec![e],
    };
    entries
        .iter()
        .filter_map(|entry| {
            let index = entry.function as usize;
            call_signature_in_file(file, index, Mode::Strict)
                .err()
                .map(|e| {
                    let name = file.functions().get(index).map_or("", |f| f.name);
                    DecodeError::new(
                        at,
                        format!("Signatures entry of function {index} ('{name}'): {e}"),
                    )
                })
        })
        .collect()
}
