//! Function signatures and typed values: how a compiled function's calling
//! convention is recorded so that a caller can pass structured values and
//! get structured results back.
//!
//! The layers, bottom to top, one file each:
//! - [`value`]: the value model — scalars, packed row-major buffers,
//!   strings, opaque references, tuples, lists and structs.
//! - [`lexical`]: signature strings as integer components (`_5`, `d-1`)
//!   and length-prefixed spans (`K4!abc`), the builder and the lexer both
//!   signature kinds share.
//! - [`raw`]: the raw signature, the flat argument and result types every
//!   function has (`I8!B5!d2d3R6!S3!t6` is `(Buffer<float32[2x3]>) ->
//!   (sint32)`): mangler, parser, rendering, and the raw type of an MLIR
//!   type.
//! - [`sip`]: the structured index path signature, mapping the flat list
//!   onto nested sequences and dicts: mangler from index paths, parser
//!   reporting to a visitor, the reference's rendering.
//! - [`reflection`]: the type records of JSON reflection (`iree.abi`:
//!   `{"a":[...],"r":[...],"v":1}`), built from MLIR types or index paths;
//!   reading and writing the JSON text needs the `json` feature, as does
//!   [`json_values`], call values read from and written as JSON.
//! - [`function`]: the call signature of a BEF function, from its types
//!   and its entry in the Signatures section, and `bef verify`'s check of
//!   that section.
//! - [`call`]: checking structured values against a signature and
//!   flattening them to the function's arguments, and rebuilding
//!   structured results; errors name the argument, the expected and the
//!   given type.
//!
//! Every parser is strict by default ([`Mode::Strict`]): where the
//! reference implementation accepts malformed input (or never returns),
//! this one reports an error naming what is wrong and where.
//! [`Mode::Lenient`] reads what the reference reads, for old artifacts.
//! No parser recurses deeper than [`sip::MAX_NESTING`] levels, and each
//! takes time linear in its input.
//!
//! ```
//! use bef::abi::{Mode, RawSignature};
//!
//! let mangled = b"I8!B5!d2d3R6!S3!t6";
//! let signature = RawSignature::parse(mangled, Mode::Strict)?;
//! assert_eq!(signature.to_string(), "(Buffer<float32[2x3]>) -> (sint32)");
//! assert_eq!(signature.mangle(), mangled);
//! // Strict parsing refuses what follows the results; lenient ignores it.
//! assert!(RawSignature::parse(b"I8!B5!d2d3R6!S3!t6_1", Mode::Strict).is_err());
//! assert_eq!(RawSignature::parse(b"I8!B5!d2d3R6!S3!t6_1", Mode::Lenient)?, signature);
//! # Ok::<(), bef::abi::raw::RawError>(())
//! ```

pub mod call;
pub mod function;
#[cfg(feature = "json")]
pub mod json;
#[cfg(feature = "json")]
pub mod json_values;
pub mod lexical;
pub mod raw;
pub mod reflection;
pub mod sip;
pub mod value;

pub use call::CallError;
pub use raw::{RawSignature, RawType, ScalarType};
pub use reflection::{Reflection, TypeRecord};
pub use sip::{SipNode, SipSignature};
pub use value::{Buffer, ElementType, Value};

/// The function attribute holding JSON reflection text (`{"a":[..],..}`).
pub const REFLECTION_ATTRIBUTE: &str = "iree.abi";

/// The function attribute holding a SIP signature (`I..R..`).
pub const SIP_ATTRIBUTE: &str = "iree.abi.sip";

/// Checks signature metadata as a function attribute carries it: the SIP
/// signature strictly, and the reflection text strictly when the `json`
/// feature is on (without it, only that it is text).
pub fn check_metadata(reflection: Option<&[u8]>, sip: Option<&[u8]>) -> Result<(), String> {
    if let Some(sip) = sip {
        SipSignature::parse(sip, Mode::Strict)
            .map_err(|e| format!("attribute '{SIP_ATTRIBUTE}' is not a SIP signature: {e}"))?;
    }
    if let Some(text) = reflection {
        #[cfg(feature = "json")]
        Reflection::from_json(text, Mode::Strict)
            .map_err(|e| format!("attribute '{REFLECTION_ATTRIBUTE}' is not reflection: {e}"))?;
        #[cfg(not(feature = "json"))]
        std::str::from_utf8(text)
            .map_err(|_| format!("attribute '{REFLECTION_ATTRIBUTE}' is not UTF-8"))?;
    }
    Ok(())
}

/// How strictly a parser reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The grammar exactly (the default).
    #[default]
    Strict,
    /// Also what the reference implementation accepts outside the grammar
    /// (see each parser), for reading old artifacts.
    Lenient,
}
