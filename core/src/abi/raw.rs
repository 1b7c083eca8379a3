//! The raw function signature: the flat list of argument and result types
//! every exported function has, as `I<items>R<items>` with one span per
//! item (`B` buffer, `S` scalar, `O` opaque reference, `U` unrecognized).
//!
//! The reference parser loops forever on some malformed strings, accepts
//! a trailing `R` without a length, silently stops at a lexical error
//! inside a span and cannot read back the `U` items it writes; here every
//! malformed string is an error naming the byte where it goes wrong, and
//! `U` items round-trip. [`Mode::Lenient`] additionally accepts what the
//! reference accepts around the two spans (any order, other components
//! before, between or after them) and dims below -1 as dynamic.

use std::fmt;

use super::Mode;
use super::lexical::{Component, LexError, Lexer, SignatureBuilder};
use super::value::ElementType;

/// Element types of the raw signature, by their `t` code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// Code 0, the default.
    Float32,
    /// Code 1.
    Float16,
    /// Code 2.
    Float64,
    /// Code 3.
    BFloat16,
    /// Code 4 (also `i1`).
    Sint8,
    /// Code 5.
    Sint16,
    /// Code 6.
    Sint32,
    /// Code 7.
    Sint64,
    /// Code 8.
    Uint8,
    /// Code 9.
    Uint16,
    /// Code 10.
    Uint32,
    /// Code 11.
    Uint64,
}

impl ScalarType {
    /// Every type, in code order.
    pub const ALL: [ScalarType; 12] = [
        ScalarType::Float32,
        ScalarType::Float16,
        ScalarType::Float64,
        ScalarType::BFloat16,
        ScalarType::Sint8,
        ScalarType::Sint16,
        ScalarType::Sint32,
        ScalarType::Sint64,
        ScalarType::Uint8,
        ScalarType::Uint16,
        ScalarType::Uint32,
        ScalarType::Uint64,
    ];

    /// The `t` code.
    pub fn code(self) -> i32 {
        ScalarType::ALL
            .iter()
            .position(|&t| t == self)
            .map_or(0, |i| i as i32)
    }

    /// The type of code `code`.
    pub fn from_code(code: i32) -> Option<ScalarType> {
        usize::try_from(code)
            .ok()
            .and_then(|i| ScalarType::ALL.get(i).copied())
    }

    /// The name renderings use (`float32`, `sint8`).
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Float32 => "float32",
            ScalarType::Float16 => "float16",
            ScalarType::Float64 => "float64",
            ScalarType::BFloat16 => "bfloat16",
            ScalarType::Sint8 => "sint8",
            ScalarType::Sint16 => "sint16",
            ScalarType::Sint32 => "sint32",
            ScalarType::Sint64 => "sint64",
            ScalarType::Uint8 => "uint8",
            ScalarType::Uint16 => "uint16",
            ScalarType::Uint32 => "uint32",
            ScalarType::Uint64 => "uint64",
        }
    }

    /// The raw type of an element type (`i1` is recorded as sint8).
    pub fn of(element: ElementType) -> ScalarType {
        match element {
            ElementType::I1 | ElementType::I8 => ScalarType::Sint8,
            ElementType::I16 => ScalarType::Sint16,
            ElementType::I32 => ScalarType::Sint32,
            ElementType::I64 => ScalarType::Sint64,
            ElementType::U8 => ScalarType::Uint8,
            ElementType::U16 => ScalarType::Uint16,
            ElementType::U32 => ScalarType::Uint32,
            ElementType::U64 => ScalarType::Uint64,
            ElementType::F16 => ScalarType::Float16,
            ElementType::BF16 => ScalarType::BFloat16,
            ElementType::F32 => ScalarType::Float32,
            ElementType::F64 => ScalarType::Float64,
        }
    }

    /// Whether values of `element` have this raw type.
    pub fn admits(self, element: ElementType) -> bool {
        ScalarType::of(element) == self
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One argument or result of a raw signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RawType {
    /// An n-dimensional buffer; `None` dims are dynamic.
    Buffer {
        /// The element type.
        element: ScalarType,
        /// The dims, outermost first (empty: rank 0).
        dims: Vec<Option<u32>>,
    },
    /// A scalar.
    Scalar(ScalarType),
    /// An opaque reference object.
    Ref,
    /// A type the ABI does not describe.
    Unrecognized,
}

impl RawType {
    /// Appends this item to `builder`.
    pub fn mangle_into(&self, builder: &mut SignatureBuilder) {
        let mut fields = SignatureBuilder::new();
        let tag = match self {
            RawType::Buffer { element, dims } => {
                if *element != ScalarType::Float32 {
                    fields.integer(b't', element.code());
                }
                for dim in dims {
                    fields.integer(b'd', dim.map_or(-1, |d| d as i32));
                }
                b'B'
            }
            RawType::Scalar(element) => {
                if *element != ScalarType::Float32 {
                    fields.integer(b't', element.code());
                }
                b'S'
            }
            RawType::Ref => b'O',
            RawType::Unrecognized => b'U',
        };
        builder.span(tag, fields.bytes());
    }

    /// The item alone, as the reference's tests write it (`S3!t6`).
    pub fn mangle(&self) -> Vec<u8> {
        let mut builder = SignatureBuilder::new();
        self.mangle_into(&mut builder);
        builder.into_bytes()
    }
}

impl fmt::Display for RawType {
    /// `Buffer<float32[?x3]>`, `sint32`, `RefObject<?>`, `Unrecognized<?>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RawType::Buffer { element, dims } => {
                let dims: Vec<String> = dims
                    .iter()
                    .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
                    .collect();
                write!(f, "Buffer<{element}[{}]>", dims.join("x"))
            }
            RawType::Scalar(element) => write!(f, "{element}"),
            RawType::Ref => f.write_str("RefObject<?>"),
            RawType::Unrecognized => f.write_str("Unrecognized<?>"),
        }
    }
}

/// A raw function signature.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RawSignature {
    /// The arguments.
    pub inputs: Vec<RawType>,
    /// The results.
    pub results: Vec<RawType>,
}

/// Why a raw signature does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RawError {
    /// A malformed component.
    #[error("{0}")]
    Lex(#[from] LexError),
    /// No `I` span first (or, leniently, anywhere).
    #[error("inputs span not found")]
    InputsNotFound,
    /// No `R` span after the inputs (or, leniently, anywhere).
    #[error("results span not found")]
    ResultsNotFound,
    /// Something after the results span.
    #[error("unexpected component after the results span at byte {0}")]
    Trailing(usize),
    /// An item that is not a `B`, `S`, `O` or `U` span.
    #[error("{side} item {index}: unrecognized raw tag '{}'", *.tag as char)]
    UnrecognizedItem {
        /// `input` or `result`.
        side: &'static str,
        /// Which item.
        index: usize,
        /// Its tag.
        tag: u8,
    },
    /// A field an item does not have.
    #[error("{side} item {index}: unrecognized {item} field tag '{}'", *.tag as char)]
    UnrecognizedField {
        /// `input` or `result`.
        side: &'static str,
        /// Which item.
        index: usize,
        /// `buffer`, `scalar`, `ref object` or `unrecognized`.
        item: &'static str,
        /// The field's tag.
        tag: u8,
    },
    /// A `t` field with a code outside 0..=11.
    #[error("{side} item {index}: illegal scalar type code {code}")]
    IllegalCode {
        /// `input` or `result`.
        side: &'static str,
        /// Which item.
        index: usize,
        /// The code.
        code: i32,
    },
    /// A dim below -1.
    #[error("{side} item {index}: dim {dim} (dims are -1 for dynamic or at least 0)")]
    IllegalDim {
        /// `input` or `result`.
        side: &'static str,
        /// Which item.
        index: usize,
        /// The dim.
        dim: i32,
    },
    /// A malformed component inside an item list (its offset counts from
    /// the start of that list).
    #[error("{side} item list: {error}")]
    InList {
        /// `input` or `result`.
        side: &'static str,
        /// What is wrong.
        error: LexError,
    },
}

impl RawSignature {
    /// `I<items>R<items>`.
    pub fn mangle(&self) -> Vec<u8> {
        let mut out = SignatureBuilder::new();
        items_builder(&self.inputs).append_to(&mut out, b'I');
        items_builder(&self.results).append_to(&mut out, b'R');
        out.into_bytes()
    }

    /// The signature in `bytes`. Strict: exactly an `I` span then an `R`
    /// span. Lenient: the first `I` and `R` spans wherever they are, the
    /// rest ignored once both are found.
    pub fn parse(bytes: &[u8], mode: Mode) -> Result<RawSignature, RawError> {
        let (inputs, results) = match mode {
            Mode::Strict => {
                let mut lexer = Lexer::new(bytes);
                let inputs = match lexer.next_component().transpose()? {
                    Some(Component::Span { tag: b'I', bytes }) => bytes,
                    _ => return Err(RawError::InputsNotFound),
                };
                let results = match lexer.next_component().transpose()? {
                    Some(Component::Span { tag: b'R', bytes }) => bytes,
                    _ => return Err(RawError::ResultsNotFound),
                };
                let end = lexer.offset();
                if lexer.next_component().is_some() {
                    return Err(RawError::Trailing(end));
                }
                (inputs, results)
            }
            Mode::Lenient => {
                let (mut inputs, mut results) = (None, None);
                let mut lexer = Lexer::new(bytes);
                while inputs.is_none() || results.is_none() {
                    let Some(component) = lexer.next_component() else {
                        break;
                    };
                    match component? {
                        Component::Span { tag: b'I', bytes } if inputs.is_none() => {
                            inputs = Some(bytes)
                        }
                        Component::Span { tag: b'R', bytes } if results.is_none() => {
                            results = Some(bytes)
                        }
                        _ => {}
                    }
                }
                (
                    inputs.ok_or(RawError::InputsNotFound)?,
                    results.ok_or(RawError::ResultsNotFound)?,
                )
            }
        };
        Ok(RawSignature {
            inputs: parse_items(inputs, "input", mode)?,
            results: parse_items(results, "result", mode)?,
        })
    }

    /// The signature of a function's reflection attributes: `fv`, the
    /// raw ABI version (must be `1`), and `f`, the signature.
    pub fn from_attributes(
        fv: Option<&str>,
        f: Option<&[u8]>,
        mode: Mode,
    ) -> Result<RawSignature, String> {
        let f = f.ok_or("no raw ABI reflection metadata for the function (attribute 'f')")?;
        if fv != Some("1") {
            return Err(format!(
                "unsupported raw function ABI version {:?} (attribute 'fv' must be \"1\")",
                fv.unwrap_or("")
            ));
        }
        RawSignature::parse(f, mode).map_err(|e| e.to_string())
    }

    /// One side's items mangled alone, as the reference's partial
    /// signatures of one argument (`I10!B7!t7d4d4`) or result.
    pub fn partial(side: Side, item: &RawType) -> Vec<u8> {
        let mut out = SignatureBuilder::new();
        items_builder(std::slice::from_ref(item)).append_to(&mut out, side.tag());
        out.into_bytes()
    }

    /// The signature assembled from one partial signature per argument
    /// and result (see [`partial`](Self::partial)); `None` where one is
    /// missing, which is an error naming it.
    pub fn merge_partials(
        inputs: &[Option<&[u8]>],
        results: &[Option<&[u8]>],
    ) -> Result<RawSignature, String> {
        let mut signature = RawSignature::default();
        for (side, partials, out) in [
            (Side::Input, inputs, &mut signature.inputs),
            (Side::Result, results, &mut signature.results),
        ] {
            for (index, partial) in partials.iter().enumerate() {
                let partial = partial.ok_or_else(|| {
                    format!("reflection signature missing for {} {index}", side.name())
                })?;
                let mut lexer = Lexer::new(partial);
                match (lexer.next_component(), lexer.next_component()) {
                    (Some(Ok(Component::Span { tag, bytes })), None) if tag == side.tag() => {
                        out.extend(
                            parse_items(bytes, side.name(), Mode::Strict)
                                .map_err(|e| e.to_string())?,
                        );
                    }
                    _ => {
                        return Err(format!(
                            "the partial signature of {} {index} is not one '{}' span",
                            side.name(),
                            side.tag() as char
                        ));
                    }
                }
            }
        }
        Ok(signature)
    }
}

/// Arguments or results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The arguments (`I`).
    Input,
    /// The results (`R`).
    Result,
}

impl Side {
    fn tag(self) -> u8 {
        match self {
            Side::Input => b'I',
            Side::Result => b'R',
        }
    }

    fn name(self) -> &'static str {
        match self {
            Side::Input => "argument",
            Side::Result => "result",
        }
    }
}

fn items_builder(items: &[RawType]) -> SignatureBuilder {
    let mut builder = SignatureBuilder::new();
    for item in items {
        item.mangle_into(&mut builder);
    }
    builder
}

fn parse_items(bytes: &[u8], side: &'static str, mode: Mode) -> Result<Vec<RawType>, RawError> {
    let mut items = Vec::new();
    for (index, component) in Lexer::new(bytes).enumerate() {
        let component = component.map_err(|error| RawError::InList { side, error })?;
        let Component::Span { tag, bytes } = component else {
            return Err(RawError::UnrecognizedItem {
                side,
                index,
                tag: component.tag(),
            });
        };
        let field_error = |item, tag| RawError::UnrecognizedField {
            side,
            index,
            item,
            tag,
        };
        let mut element = ScalarType::Float32;
        let mut dims = Vec::new();
        for field in Lexer::new(bytes) {
            let field = field.map_err(|error| RawError::InList { side, error })?;
            let item_name = match tag {
                b'B' => "buffer",
                b'S' => "scalar",
                b'O' => "ref object",
                b'U' => "unrecognized",
                _ => {
                    return Err(RawError::UnrecognizedItem { side, index, tag });
                }
            };
            match (tag, field) {
                (b'B' | b'S', Component::Integer { tag: b't', value }) => {
                    element = ScalarType::from_code(value).ok_or(RawError::IllegalCode {
                        side,
                        index,
                        code: value,
                    })?;
                }
                (b'B', Component::Integer { tag: b'd', value }) => {
                    dims.push(match value {
                        -1 => None,
                        d if d >= 0 => Some(d as u32),
                        _ if mode == Mode::Lenient => None,
                        dim => return Err(RawError::IllegalDim { side, index, dim }),
                    });
                }
                (_, field) => return Err(field_error(item_name, field.tag())),
            }
        }
        items.push(match tag {
            b'B' => RawType::Buffer { element, dims },
            b'S' => RawType::Scalar(element),
            b'O' => RawType::Ref,
            b'U' => RawType::Unrecognized,
            _ => return Err(RawError::UnrecognizedItem { side, index, tag }),
        });
    }
    Ok(items)
}

impl fmt::Display for RawSignature {
    /// `(Buffer<float32[2x3]>) -> (sint32)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |items: &[RawType]| {
            items
                .iter()
                .map(RawType::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(f, "({}) -> ({})", list(&self.inputs), list(&self.results))
    }
}

/// The raw type of an MLIR type as the reference's exporter derives it
/// (`tensor<?x4xi64>` is a sint64 buffer of dims `?x4`, `i1` a sint8
/// scalar); [`RawType::Unrecognized`] for types the ABI has no item for
/// (`i3`, `tensor<*xf32>`, and `!t.tensor`, whose element type and
/// shape only reflection records); a chain is an opaque reference.
pub fn raw_type_of_mlir(type_name: &str) -> RawType {
    let type_name = type_name.trim();
    if let Some(element) = ElementType::from_mlir_name(type_name) {
        return RawType::Scalar(ScalarType::of(element));
    }
    if let Some((element, dims)) = parse_ranked_tensor(type_name) {
        return RawType::Buffer {
            element: ScalarType::of(element),
            dims,
        };
    }
    if type_name == CHAIN {
        return RawType::Ref;
    }
    RawType::Unrecognized
}

/// The runtime's chain type, the one opaque reference a caller can make.
pub const CHAIN: &str = "!tfrt.chain";

/// `tensor<2x?x3xf32>` as its element type and dims (`None`: dynamic).
pub fn parse_ranked_tensor(type_name: &str) -> Option<(ElementType, Vec<Option<u32>>)> {
    let inner = type_name.strip_prefix("tensor<")?.strip_suffix('>')?;
    let mut parts: Vec<&str> = inner.split('x').collect();
    let element = ElementType::from_mlir_name(parts.pop()?)?;
    let mut dims = Vec::with_capacity(parts.len());
    for part in parts {
        dims.push(match part {
            "?" => None,
            digits => Some(
                digits
                    .parse::<u32>()
                    .ok()
                    .filter(|&d| d <= i32::MAX as u32)?,
            ),
        });
    }
    Some((element, dims))
}
