//! Each named function's signature as tools show it: the raw signature
//! mangled and readable, and its structure from the Signatures section.

use super::Listing;
use crate::abi::call::Structure;
use crate::abi::function::call_signature;
use crate::abi::lexical::bytes_text;
use crate::abi::{Mode, RawType};

/// The signature of one named function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureRow {
    /// The function's position in the FunctionIndex.
    pub function: usize,
    /// Its name.
    pub name: String,
    /// The raw signature, mangled (`I6!S3!t6R1!`), or why there is none.
    pub raw: Result<String, String>,
    /// The raw signature, readable (`(sint32) -> ()`).
    pub readable: String,
    /// The structure, readable (`({a: f32[2], b: i32}) -> ((f32[2], i32))`),
    /// when the function has signature metadata.
    pub structured: Option<String>,
    /// The reflection text of the Signatures section, if any.
    pub reflection: Option<String>,
    /// The SIP signature of the Signatures section (non-UTF-8 bytes as
    /// `\xHH`), if any.
    pub sip: Option<String>,
}

impl Listing<'_> {
    /// The signature of every named function, in FunctionIndex order.
    pub fn signatures(&self) -> Vec<SignatureRow> {
        (0..self.file().functions().len())
            .filter_map(|index| self.signature(index))
            .collect()
    }

    /// The signature of function `index`, if it is named. Metadata that
    /// does not agree with the function's types gives the row an error
    /// (`raw`) and no structure. The Signatures section is read once.
    pub fn signature(&self, index: usize) -> Option<SignatureRow> {
        let file = self.file();
        let function = file.functions().get(index).filter(|f| !f.name.is_empty())?;
        let entries = self
            .signature_entries
            .get_or_init(|| file.signatures().unwrap_or_default());
        let entry = entries
            .binary_search_by_key(&(index as u32), |e| e.function)
            .ok()
            .map(|at| &entries[at]);
        let signature = file
            .type_names()
            .map_err(|e| e.to_string())
            .and_then(|types| {
                let names = |indices: &[u32]| -> Vec<&str> {
                    indices
                        .iter()
                        .map(|&t| types.get(t as usize).copied().unwrap_or("?"))
                        .collect()
                };
                call_signature(
                    &names(file.function_arg_types(index)),
                    &names(file.function_result_types(index)),
                    entry,
                    Mode::Strict,
                )
            });
        let (raw, readable, structured) = match &signature {
            Ok(s) => (
                Ok(String::from_utf8_lossy(&s.raw.mangle()).into_owned()),
                s.raw.to_string(),
                structured_text(&s.structure, &s.raw.inputs, &s.raw.results),
            ),
            Err(e) => (Err(e.clone()), String::new(), None),
        };
        Some(SignatureRow {
            function: index,
            name: function.name.to_string(),
            raw,
            readable,
            structured,
            reflection: entry.and_then(|e| e.reflection.clone()),
            sip: entry.and_then(|e| e.sip.as_deref().map(bytes_text)),
        })
    }
}

fn structured_text(
    structure: &Structure,
    inputs: &[RawType],
    results: &[RawType],
) -> Option<String> {
    match structure {
        Structure::Flat => None,
        Structure::Reflection(reflection) => Some(reflection.to_string()),
        Structure::Sip(sip) => {
            let side = |node: &Option<crate::abi::SipNode>, types: &[RawType]| {
                let leaf = |i: i32| {
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| types.get(i))
                        .map_or_else(|| format!("raw({i})"), ToString::to_string)
                };
                node.as_ref().map_or_else(String::new, |n| n.render(&leaf))
            };
            Some(format!(
                "{} -> {}",
                side(&sip.inputs, inputs),
                side(&sip.results, results)
            ))
        }
    }
}
