//! Each named function's signature as tools show it: the raw signature
//! mangled and readable, and its structure from the Signatures section.

use super::Listing;
use crate::abi::call::Structure;
use crate::abi::function::call_signature_in_file;
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
    /// Metadata that does not agree with the function's types gives the
    /// row an error (`raw`) and no structure.
    pub fn signatures(&self) -> Vec<SignatureRow> {
        let file = self.file();
        let metadata = file.signatures().unwrap_or_default();
        file.functions()
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.name.is_empty())
            .map(|(index, f)| {
                let entry = metadata.iter().find(|e| e.function as usize == index);
                let signature = call_signature_in_file(file, index, Mode::Strict);
                let (raw, readable, structured) = match &signature {
                    Ok(s) => (
                        Ok(String::from_utf8_lossy(&s.raw.mangle()).into_owned()),
                        s.raw.to_string(),
                        structured_text(&s.structure, &s.raw.inputs, &s.raw.results),
                    ),
                    Err(e) => (Err(e.clone()), String::new(), None),
                };
                SignatureRow {
                    function: index,
                    name: f.name.to_string(),
                    raw,
                    readable,
                    structured,
                    reflection: entry.and_then(|e| e.reflection.clone()),
                    sip: entry.and_then(|e| e.sip.as_deref().map(bytes_text)),
                }
            })
            .collect()
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
