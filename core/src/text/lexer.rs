//! MLIR tokens. The lexer borrows from the source: a token is a kind and a
//! byte span, plus the line and column (1-based, columns in bytes as in
//! MLIR) of its first byte, tracked incrementally so that no table of line
//! starts is needed.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Eof,
    /// `func.func`, `i32`, `tfrt.add.i32`, `true`
    BareId,
    /// `%name`
    PercentId,
    /// `^bb0`
    CaretId,
    /// `#alias`, `#0`, `#dialect.attr<...>`
    HashId,
    /// `!alias`, `!dialect.type`, `!dialect<...>`
    BangId,
    /// `@sym`, `@"quoted"`
    AtId,
    /// `"..."` (span includes the quotes)
    String,
    /// decimal or `0x` hex
    Integer,
    Float,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    Colon,
    ColonColon,
    Comma,
    Equal,
    Arrow,
    Minus,
    Plus,
    Question,
    Star,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub col: u32,
}

/// A lexing error: message and position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LexError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// Deepest `<...>` nesting inside a dialect type or attribute body.
const MAX_BODY_NESTING: usize = 256;

#[derive(Debug, Clone)]
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
}

/// Byte classes, looked up once per byte by the scanning loops.
const BARE_START: u8 = 1;
const BARE: u8 = 2;
const SUFFIX: u8 = 4;
const DIGIT: u8 = 8;

static CLASSES: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        let mut class = 0;
        if c.is_ascii_alphabetic() || c == b'_' {
            class |= BARE_START;
        }
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.') {
            class |= BARE | SUFFIX;
        }
        if c == b'-' {
            class |= SUFFIX;
        }
        if c.is_ascii_digit() {
            class |= DIGIT;
        }
        table[i] = class;
        i += 1;
    }
    table
}

fn is(class: u8, c: u8) -> bool {
    CLASSES[c as usize] & class != 0
}

/// The end of the run of `class` bytes in `src` starting at `from`.
fn run_end(src: &[u8], from: usize, class: u8) -> usize {
    let rest = src.get(from..).unwrap_or_default();
    from + rest
        .iter()
        .position(|&c| !is(class, c))
        .unwrap_or(rest.len())
}

pub(crate) fn is_bare_start(c: u8) -> bool {
    is(BARE_START, c)
}

pub(crate) fn is_bare_char(c: u8) -> bool {
    is(BARE, c)
}

/// Whether `s` lexes as one bare identifier (so it may be printed unquoted).
pub(crate) fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty() && is_bare_start(b[0]) && b.iter().all(|&c| is_bare_char(c))
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str, first_line: u32) -> Lexer<'a> {
        Lexer {
            src: src.as_bytes(),
            pos: 0,
            line: first_line,
            line_start: 0,
        }
    }

    /// Moves forward to `pos` (used after scanning a dimension list by hand).
    pub fn reset_to(&mut self, pos: usize) {
        debug_assert!(pos >= self.pos);
        for i in self.pos..pos.min(self.src.len()) {
            if self.src[i] == b'\n' {
                self.line += 1;
                self.line_start = i + 1;
            }
        }
        self.pos = pos;
    }

    /// Line and column of byte `pos`, which must be at or after the current
    /// line start and on the current line or later (counts forward).
    pub fn line_col_at(&self, pos: usize) -> (u32, u32) {
        let mut line = self.line;
        let mut line_start = self.line_start;
        if pos >= self.line_start {
            for i in self.line_start..pos.min(self.src.len()) {
                if self.src[i] == b'\n' {
                    line += 1;
                    line_start = i + 1;
                }
            }
        }
        (line, (pos.saturating_sub(line_start) + 1) as u32)
    }

    #[cold]
    fn error(&self, pos: usize, message: impl Into<String>) -> LexError {
        let (line, col) = self.line_col_at(pos);
        LexError {
            line,
            col,
            message: message.into(),
        }
    }

    #[inline(always)]
    fn skip_trivia(&mut self) {
        let src = self.src;
        let mut pos = self.pos;
        // Most tokens follow a single space or none: bytes above the space
        // other than `/` start a token, checked before the loop.
        if src.get(pos).is_some_and(|&c| c > b' ' && c != b'/') {
            return;
        }
        loop {
            match src.get(pos) {
                Some(b' ' | b'\t' | b'\r') => pos += 1,
                Some(b'\n') => {
                    pos += 1;
                    self.line += 1;
                    self.line_start = pos;
                }
                Some(b'/') if src.get(pos + 1) == Some(&b'/') => {
                    pos += src[pos..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .unwrap_or(src.len() - pos);
                }
                _ => break,
            }
        }
        self.pos = pos;
    }

    /// Inlined into its few callers (the parser's `bump` above all): the
    /// result is then built in place instead of returned through memory.
    /// Every token moves the position past itself (the multi-line ones
    /// count their lines as well).
    #[inline(always)]
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        self.skip_trivia();
        let start = self.pos;
        let line = self.line;
        let col = (start - self.line_start + 1) as u32;
        let src = self.src;
        let tok = |kind, end: usize| Token {
            kind,
            start: start as u32,
            end: end as u32,
            line,
            col,
        };
        let Some(&c) = src.get(start) else {
            return Ok(tok(Kind::Eof, start));
        };
        let pair = |second: u8, two: Kind, one: Kind| {
            if src.get(start + 1) == Some(&second) {
                (two, 2)
            } else {
                (one, 1)
            }
        };
        let (kind, len) = match c {
            b'(' => (Kind::LParen, 1),
            b')' => (Kind::RParen, 1),
            b'{' => (Kind::LBrace, 1),
            b'}' => (Kind::RBrace, 1),
            b'[' => (Kind::LSquare, 1),
            b']' => (Kind::RSquare, 1),
            b'<' => (Kind::Less, 1),
            b'>' => (Kind::Greater, 1),
            b',' => (Kind::Comma, 1),
            b'=' => (Kind::Equal, 1),
            b'+' => (Kind::Plus, 1),
            b'?' => (Kind::Question, 1),
            b'*' => (Kind::Star, 1),
            b':' => pair(b':', Kind::ColonColon, Kind::Colon),
            b'-' => pair(b'>', Kind::Arrow, Kind::Minus),
            b'%' | b'^' => {
                let end = run_end(src, start + 1, SUFFIX);
                if end == start + 1 {
                    return Err(self.error(start, "invalid SSA name"));
                }
                self.pos = end;
                return Ok(tok(
                    if c == b'%' {
                        Kind::PercentId
                    } else {
                        Kind::CaretId
                    },
                    end,
                ));
            }
            c if is_bare_start(c) => {
                let end = run_end(src, start + 1, BARE);
                self.pos = end;
                return Ok(tok(Kind::BareId, end));
            }
            // The rarer tokens are read out of line, which keeps this
            // function (run per token) small.
            _ => {
                let (kind, end) = self.lex_rare(start, c)?;
                return Ok(tok(kind, end));
            }
        };
        self.pos = start + len;
        Ok(tok(kind, start + len))
    }

    /// Strings, symbols, dialect types and attributes, numbers and errors:
    /// the kind and end of the token at `start` (first byte `c`), with the
    /// position moved past it.
    #[inline(never)]
    fn lex_rare(&mut self, start: usize, c: u8) -> Result<(Kind, usize), LexError> {
        let src = self.src;
        match c {
            b'"' => {
                let end = self.scan_string(start)?;
                self.pos = end;
                Ok((Kind::String, end))
            }
            b'@' => {
                if src.get(start + 1) == Some(&b'"') {
                    let end = self.scan_string(start + 1)?;
                    self.pos = end;
                    return Ok((Kind::AtId, end));
                }
                let mut end = start + 1;
                if src.get(end).is_some_and(|&c| is_bare_start(c)) {
                    end = run_end(src, end, BARE);
                }
                if end == start + 1 {
                    return Err(self.error(start, "invalid symbol reference"));
                }
                self.pos = end;
                Ok((Kind::AtId, end))
            }
            b'#' | b'!' => {
                let mut end = run_end(src, start + 1, SUFFIX);
                if end < src.len() && src[end] == b'<' {
                    end = self.scan_body(end)?;
                } else if end == start + 1 {
                    return Err(self.error(
                        start,
                        if c == b'#' {
                            "invalid attribute name"
                        } else {
                            "invalid type identifier"
                        },
                    ));
                }
                self.reset_to(end);
                Ok((
                    if c == b'#' {
                        Kind::HashId
                    } else {
                        Kind::BangId
                    },
                    end,
                ))
            }
            b'0'..=b'9' => {
                let mut end = start;
                if c == b'0'
                    && src.get(start + 1) == Some(&b'x')
                    && src.get(start + 2).is_some_and(u8::is_ascii_hexdigit)
                {
                    end = start + 2;
                    while end < src.len() && src[end].is_ascii_hexdigit() {
                        end += 1;
                    }
                    self.pos = end;
                    return Ok((Kind::Integer, end));
                }
                end = run_end(src, end, DIGIT);
                if src.get(end) != Some(&b'.') {
                    self.pos = end;
                    return Ok((Kind::Integer, end));
                }
                end = run_end(src, end + 1, DIGIT);
                if matches!(src.get(end), Some(b'e' | b'E')) {
                    let mut e = end + 1;
                    if matches!(src.get(e), Some(b'+' | b'-')) {
                        e += 1;
                    }
                    if src.get(e).is_some_and(u8::is_ascii_digit) {
                        end = run_end(src, e, DIGIT);
                    }
                }
                self.pos = end;
                Ok((Kind::Float, end))
            }
            _ => {
                // Report the whole character, not a byte of it.
                let ch = std::str::from_utf8(&src[start..])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .unwrap_or('?');
                Err(self.error(start, format!("unexpected character '{ch}'")))
            }
        }
    }

    /// Scans a string literal starting at the quote; returns the end (after
    /// the closing quote). Escapes are checked when decoding.
    fn scan_string(&self, quote: usize) -> Result<usize, LexError> {
        let src = self.src;
        let mut i = quote + 1;
        while i < src.len() {
            match src[i] {
                b'"' => return Ok(i + 1),
                b'\\' => i += 2,
                b'\n' => break,
                _ => i += 1,
            }
        }
        Err(self.error(quote, "expected '\"' in string literal"))
    }

    /// Scans a balanced dialect body `<...>` starting at `<`; returns its end.
    fn scan_body(&self, open: usize) -> Result<usize, LexError> {
        let src = self.src;
        let mut stack: Vec<u8> = Vec::new();
        let mut i = open;
        while i < src.len() {
            let c = src[i];
            match c {
                b'<' | b'(' | b'[' | b'{' => {
                    if stack.len() >= MAX_BODY_NESTING {
                        return Err(self.error(i, "nesting too deep"));
                    }
                    stack.push(match c {
                        b'<' => b'>',
                        b'(' => b')',
                        b'[' => b']',
                        _ => b'}',
                    });
                }
                b'>' | b')' | b']' | b'}' => {
                    if stack.pop() != Some(c) {
                        return Err(self.error(i, "unbalanced punctuation in dialect body"));
                    }
                    if stack.is_empty() {
                        return Ok(i + 1);
                    }
                }
                b'-' if src.get(i + 1) == Some(&b'>') => i += 1,
                b'"' => {
                    i = self.scan_string(i)?;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        Err(self.error(open, "unbalanced '<' in dialect body"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Kind, &str)> {
        let mut lexer = Lexer::new(src, 1);
        let mut out = Vec::new();
        loop {
            let t = lexer.next_token().unwrap();
            if t.kind == Kind::Eof {
                return out;
            }
            out.push((t.kind, &src[t.start as usize..t.end as usize]));
        }
    }

    #[test]
    fn tokens() {
        use Kind::*;
        assert_eq!(
            kinds("%r:2 = \"a.b\"(%x#1) : (i32) -> !tfrt.chain // c\n^bb0 @f @\"q r\" #loc0"),
            vec![
                (PercentId, "%r"),
                (Colon, ":"),
                (Integer, "2"),
                (Equal, "="),
                (String, "\"a.b\""),
                (LParen, "("),
                (PercentId, "%x"),
                (HashId, "#1"),
                (RParen, ")"),
                (Colon, ":"),
                (LParen, "("),
                (BareId, "i32"),
                (RParen, ")"),
                (Arrow, "->"),
                (BangId, "!tfrt.chain"),
                (CaretId, "^bb0"),
                (AtId, "@f"),
                (AtId, "@\"q r\""),
                (HashId, "#loc0"),
            ]
        );
        assert_eq!(
            kinds("1.5e-3 0x1F -7 1. 2x3 @a::@b"),
            vec![
                (Float, "1.5e-3"),
                (Integer, "0x1F"),
                (Minus, "-"),
                (Integer, "7"),
                (Float, "1."),
                (Integer, "2"),
                (BareId, "x3"),
                (AtId, "@a"),
                (ColonColon, "::"),
                (AtId, "@b"),
            ]
        );
        assert_eq!(
            kinds("!foo<\"a>\", (1, [2]) -> x> #corert.shape<1x?x3>"),
            vec![
                (BangId, "!foo<\"a>\", (1, [2]) -> x>"),
                (HashId, "#corert.shape<1x?x3>")
            ]
        );
    }

    #[test]
    fn positions() {
        let mut lexer = Lexer::new("a\n  b\n\n   c", 10);
        let a = lexer.next_token().unwrap();
        let b = lexer.next_token().unwrap();
        let c = lexer.next_token().unwrap();
        assert_eq!((a.line, a.col), (10, 1));
        assert_eq!((b.line, b.col), (11, 3));
        assert_eq!((c.line, c.col), (13, 4));
    }

    #[test]
    fn errors() {
        let err = Lexer::new("  \"abc", 1).next_token().unwrap_err();
        assert_eq!((err.line, err.col), (1, 3));
        assert!(Lexer::new("!foo<(>", 1).next_token().is_err());
        assert!(Lexer::new("!foo<<<", 1).next_token().is_err());
        assert!(Lexer::new("`", 1).next_token().is_err());
        let deep = format!("!a{}", "<".repeat(100_000));
        assert!(Lexer::new(&deep, 1).next_token().is_err());
    }
}
