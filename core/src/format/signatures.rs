//! The Signatures section (id 16, optional): the signature metadata of
//! the functions that have some, so that callers can pass them structured
//! values. Readers that do not know the id skip it, as the loader skips
//! every unknown section.
//!
//! ```text
//! Signatures ::= VBR(count) entry*          entries in increasing function index
//! entry      ::= VBR(function index)
//!                VBR(length) reflection[length]   JSON reflection text (`iree.abi`); 0: none
//!                VBR(length) sip[length]          SIP signature (`iree.abi.sip`); 0: none
//! ```
//!
//! The raw signature is not stored: it follows from the function's
//! argument and result types (refined by the reflection's leaf types).
//! This module frames the bytes; `verify` checks what they say.

use super::constants::SectionId;
use super::emitter::Emitter;
use super::error::{DecodeError, DecodeResult};
use super::file::BefFile;
use super::reader::Reader;

/// The signature metadata of one function.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FunctionSignatures {
    /// The function's position in the FunctionIndex.
    pub function: u32,
    /// JSON reflection text (`{"a":[...],"r":[...],"v":1}`), if any.
    pub reflection: Option<String>,
    /// A SIP signature (`I..R..`), if any.
    pub sip: Option<Vec<u8>>,
}

/// The section's bytes for `entries` (sorted by function index).
pub(crate) fn emit(entries: &[FunctionSignatures]) -> Emitter {
    let mut out = Emitter::new();
    out.vbr(entries.len() as u64);
    for entry in entries {
        out.vbr(u64::from(entry.function));
        for bytes in [
            entry.reflection.as_ref().map(String::as_bytes),
            entry.sip.as_deref(),
        ] {
            let bytes = bytes.unwrap_or_default();
            out.vbr(bytes.len() as u64);
            out.extend(bytes);
        }
    }
    out
}

impl BefFile<'_> {
    /// The Signatures section's entries; empty when the section is absent.
    /// Errors name the byte where the section goes wrong: a count larger
    /// than the bytes left, entries out of order or naming a function that
    /// does not exist, reflection that is not UTF-8, trailing bytes.
    pub fn signatures(&self) -> DecodeResult<Vec<FunctionSignatures>> {
        let (data, base) = self.section_with_base(SectionId::Signatures);
        if self.section(SectionId::Signatures).is_none() {
            return Ok(Vec::new());
        }
        let mut r = Reader::new(data, base);
        let count_at = r.offset();
        let count = r.vbr("Signatures entry count")?;
        // Every entry takes at least three bytes.
        if count > r.remaining() as u64 / 3 {
            return Err(DecodeError::new(
                count_at,
                format!("Signatures lists {count} entries, more than its bytes can hold"),
            ));
        }
        let mut entries: Vec<FunctionSignatures> = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let at = r.offset();
            let function = r.vbr_u32("Signatures function index")?;
            if function as usize >= self.functions().len() {
                return Err(DecodeError::new(
                    at,
                    format!(
                        "Signatures names function {function}, but there are {}",
                        self.functions().len()
                    ),
                ));
            }
            if entries.last().is_some_and(|e| e.function >= function) {
                return Err(DecodeError::new(
                    at,
                    format!("Signatures entry of function {function} is out of order or repeated"),
                ));
            }
            let reflection_at = r.offset();
            let reflection = read_bytes(&mut r, "Signatures reflection")?;
            let reflection = match reflection {
                None => None,
                Some(bytes) => Some(
                    std::str::from_utf8(bytes)
                        .map_err(|e| {
                            DecodeError::new(
                                reflection_at,
                                format!(
                                    "the reflection of function {function} is not UTF-8 (byte {})",
                                    e.valid_up_to()
                                ),
                            )
                        })?
                        .to_string(),
                ),
            };
            let sip = read_bytes(&mut r, "Signatures SIP signature")?.map(<[u8]>::to_vec);
            entries.push(FunctionSignatures {
                function,
                reflection,
                sip,
            });
        }
        if !r.is_empty() {
            return Err(DecodeError::new(
                r.offset(),
                "trailing bytes in the Signatures section",
            ));
        }
        Ok(entries)
    }
}

fn read_bytes<'a>(r: &mut Reader<'a>, what: &str) -> DecodeResult<Option<&'a [u8]>> {
    let at = r.offset();
    let len = r.vbr(what)?;
    let len = usize::try_from(len)
        .ok()
        .filter(|&len| len <= r.remaining())
        .ok_or_else(|| {
            DecodeError::new(at, format!("{what} length {len} runs past the section"))
        })?;
    let bytes = r.bytes(len, what)?;
    Ok((!bytes.is_empty()).then_some(bytes))
}
