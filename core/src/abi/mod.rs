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
//!   reading and writing the JSON text needs the `json` feature.
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

pub mod call;
#[cfg(feature = "json")]
pub mod json;
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
