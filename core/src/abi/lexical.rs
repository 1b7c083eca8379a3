//! The lexical layer shared by raw and SIP signatures: a signature is a
//! sequence of components, each an integer (`_5`, `d-1`: a tag `_` or
//! `a`-`z`, then a decimal `i32`) or a span (`K4!abc`: a tag `A`-`Z`, then
//! the byte length of its contents plus one, `!`, and the contents,
//! never escaped). Nesting puts an encoded signature inside a span.

use std::fmt;

/// One component of a signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Component<'a> {
    /// `tag value`, tag `_` or `a`-`z`.
    Integer {
        /// The tag byte.
        tag: u8,
        /// The value.
        value: i32,
    },
    /// `tag length ! bytes`, tag `A`-`Z`.
    Span {
        /// The tag byte.
        tag: u8,
        /// The contents.
        bytes: &'a [u8],
    },
}

impl Component<'_> {
    /// The tag byte.
    pub fn tag(&self) -> u8 {
        match *self {
            Component::Integer { tag, .. } | Component::Span { tag, .. } => tag,
        }
    }
}

/// A malformed component: what was wrong and at which byte of the string
/// being read (nested spans count from their own start).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} at byte {offset}")]
pub struct LexError {
    /// The byte offset where the component starts or goes wrong.
    pub offset: usize,
    /// What is wrong.
    pub what: LexErrorKind,
}

/// What is wrong with a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LexErrorKind {
    /// The byte cannot start a component.
    #[error("byte {} cannot start a component", describe_byte(*.0))]
    IllegalTag(u8),
    /// An integer tag not followed by digits.
    #[error("an integer component has no digits")]
    MissingDigits,
    /// An integer outside `i32`.
    #[error("an integer component does not fit in 32 bits")]
    IntegerOverflow,
    /// A span tag not followed by a length.
    #[error("a span has no length")]
    MissingLength,
    /// A span length of 0 (the `!` counts, so the least is 1).
    #[error("a span length is 0 (an empty span is written with length 1)")]
    ZeroLength,
    /// A span length not followed by `!`.
    #[error("a span length is not followed by '!'")]
    MissingBang,
    /// A span running past the end of the string.
    #[error("a span runs past the end of the signature")]
    SpanPastEnd,
}

fn describe_byte(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("'{}'", byte as char)
    } else {
        format!("0x{byte:02x}")
    }
}

/// Builds a signature string component by component.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SignatureBuilder {
    bytes: Vec<u8>,
}

impl SignatureBuilder {
    /// An empty signature.
    pub fn new() -> SignatureBuilder {
        SignatureBuilder::default()
    }

    /// Appends the integer `value` tagged `tag` (`_` or `a`-`z`).
    pub fn integer(&mut self, tag: u8, value: i32) -> &mut Self {
        debug_assert!(tag == b'_' || tag.is_ascii_lowercase(), "integer tag");
        self.bytes.push(tag);
        self.bytes.extend_from_slice(value.to_string().as_bytes());
        self
    }

    /// Appends `contents` as a span tagged `tag` (`A`-`Z`).
    pub fn span(&mut self, tag: u8, contents: &[u8]) -> &mut Self {
        debug_assert!(tag.is_ascii_uppercase(), "span tag");
        self.bytes.push(tag);
        self.bytes
            .extend_from_slice((contents.len() + 1).to_string().as_bytes());
        self.bytes.push(b'!');
        self.bytes.extend_from_slice(contents);
        self
    }

    /// Appends the signature built so far to `outer` as a span tagged
    /// `tag`.
    pub fn append_to(&self, outer: &mut SignatureBuilder, tag: u8) {
        outer.span(tag, &self.bytes);
    }

    /// The signature.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The signature, taken.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reads the components of a signature in order. After the end it yields
/// `None` again; after an error it yields the same error again.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    input: &'a [u8],
    pos: usize,
    failed: Option<LexError>,
}

impl<'a> Lexer<'a> {
    /// A lexer over `input`.
    pub fn new(input: &'a [u8]) -> Lexer<'a> {
        Lexer {
            input,
            pos: 0,
            failed: None,
        }
    }

    /// The offset of the next component.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The next component, `None` at the end, or the first error (again on
    /// every later call).
    pub fn next_component(&mut self) -> Option<Result<Component<'a>, LexError>> {
        if let Some(error) = &self.failed {
            return Some(Err(error.clone()));
        }
        let start = self.pos;
        let &tag = self.input.get(start)?;
        let result = if tag == b'_' || tag.is_ascii_lowercase() {
            self.integer(start, tag)
        } else if tag.is_ascii_uppercase() {
            self.span(start, tag)
        } else {
            Err(LexErrorKind::IllegalTag(tag))
        };
        match result {
            Ok(component) => Some(Ok(component)),
            Err(what) => {
                let error = LexError {
                    offset: start,
                    what,
                };
                self.failed = Some(error.clone());
                Some(Err(error))
            }
        }
    }

    fn integer(&mut self, start: usize, tag: u8) -> Result<Component<'a>, LexErrorKind> {
        let mut pos = start + 1;
        let negative = self.input.get(pos) == Some(&b'-');
        if negative {
            pos += 1;
        }
        let digits = self.digits(pos);
        if digits.is_empty() {
            return Err(LexErrorKind::MissingDigits);
        }
        // Accumulated negatively so that i32::MIN fits.
        let mut value: i32 = 0;
        for &d in digits {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_sub(i32::from(d - b'0')))
                .ok_or(LexErrorKind::IntegerOverflow)?;
        }
        if !negative {
            value = value.checked_neg().ok_or(LexErrorKind::IntegerOverflow)?;
        }
        self.pos = pos + digits.len();
        Ok(Component::Integer { tag, value })
    }

    fn span(&mut self, start: usize, tag: u8) -> Result<Component<'a>, LexErrorKind> {
        let digits = self.digits(start + 1);
        if digits.is_empty() {
            return Err(LexErrorKind::MissingLength);
        }
        let mut length: usize = 0;
        for &d in digits {
            // A length past the input's size is past its end whatever its
            // exact value.
            length = length
                .saturating_mul(10)
                .saturating_add(usize::from(d - b'0'));
        }
        if length == 0 {
            return Err(LexErrorKind::ZeroLength);
        }
        let bang = start + 1 + digits.len();
        match self.input.get(bang) {
            Some(b'!') => {}
            Some(_) => return Err(LexErrorKind::MissingBang),
            None => return Err(LexErrorKind::MissingBang),
        }
        let contents = bang + 1;
        let end = contents
            .checked_add(length - 1)
            .filter(|&end| end <= self.input.len())
            .ok_or(LexErrorKind::SpanPastEnd)?;
        self.pos = end;
        Ok(Component::Span {
            tag,
            bytes: &self.input[contents..end],
        })
    }

    fn digits(&self, from: usize) -> &'a [u8] {
        let rest = self.input.get(from..).unwrap_or_default();
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        &rest[..n]
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<Component<'a>, LexError>;

    /// Unlike [`Lexer::next_component`], stops after the first error.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed.is_some() {
            return None;
        }
        self.next_component()
    }
}

/// Bytes as text for messages and renderings: UTF-8 shown as is, other
/// bytes as `\xHH`.
pub fn bytes_text(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

impl fmt::Display for Component<'_> {
    /// `INT(_,5)` or `SPAN(K,len=3,"a!b")`, the notation of the
    /// reference's token dumps.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Component::Integer { tag, value } => write!(f, "INT({},{value})", tag as char),
            Component::Span { tag, bytes } => write!(
                f,
                "SPAN({},len={},\"{}\")",
                tag as char,
                bytes.len(),
                bytes_text(bytes)
            ),
        }
    }
}
