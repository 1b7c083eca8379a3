//! The MLIR text parser: top level, generic op form, regions and blocks,
//! SSA value scopes with forward references, attributes, types and
//! locations. Custom op forms live in `text/custom/`.
//!
//! Recursion (regions, attributes, types, locations) is bounded by
//! `MAX_PARSE_NESTING`; attributes and locations nest at most
//! [`MAX_NESTING`] levels, the limit of BEF readers, also through aliases.
//! Nothing is allocated from a number in the input (tensor dimensions are
//! only stored, splats are never expanded), and the copies that uses of
//! aliases make are bounded by the input's size (`alias_budget`).

mod attributes;
mod locations;
mod operations;
mod regions;
mod top_level;
mod types;
mod values;

use rustc_hash::FxHashMap;

use super::lexer::{Kind, LexError, Lexer, Token};
use super::measure::{self, Measure};
use super::num::{self, IntLiteral};
pub(crate) use crate::format::constants::MAX_NESTING;
use crate::ir::{
    Attribute, Block, DYNAMIC, Diagnostic, FloatKind, Location, Module, NamedAttribute, Op, Region,
    Signedness, Type, ValueData, ValueId,
};

/// A parse error. Boxed so that every `R<T>` stays small (`R<()>` is one
/// pointer, tested in a register): errors are rare, the `?` after each of
/// the many fallible calls is not. Unboxed at the public boundary.
pub(crate) type Error = Box<Diagnostic>;

pub(crate) type R<T> = Result<T, Error>;

/// Deepest nesting of regions, attributes, types and locations together
/// (a bound on the parser's recursion).
pub(crate) const MAX_PARSE_NESTING: u32 = 256;

/// [`MAX_NESTING`] as the parser's counters count.
const MAX_LEVELS: u32 = MAX_NESTING as u32;

/// Attributes, types and locations that uses of aliases may copy, per byte
/// of input (plus `ALIAS_ALLOWANCE`): an alias used twice in the next
/// alias's definition, and so on, would otherwise double at each step. A
/// copy takes some 80 to 100 bytes a node; programs printed by MLIR copy
/// far fewer than one node a byte (an op of a hundred bytes referring to
/// a location of a few names).
const ALIAS_COPIES_PER_BYTE: u64 = 1;

/// Copies any input may make through aliases.
const ALIAS_ALLOWANCE: u64 = 1024;

/// Bound results numbered before their op is parsed, at most (a count
/// written in the input is not trusted with more).
const MAX_RESERVED_RESULTS: u64 = 64;

/// A region costs this much of `MAX_PARSE_NESTING` (so at most 64 nested
/// regions).
const REGION_WEIGHT: u32 = 4;

/// Room reserved for a block's ops at most, from the size of the block
/// before it (a guess: the block grows past it as needed).
const MAX_BLOCK_ROOM: usize = 1024;

/// File name of placeholder locations for forward-referenced `#loc`
/// aliases (`line` is the index of the reference); replaced after parsing.
/// A placeholder is recognised by the address of its file name, the
/// parser's one copy of this string (`alias_mark`), so that no location
/// written in the input can pass for one.
const LOC_ALIAS_MARK: &str = "\u{0}#loc-alias";

/// A location alias (`#name = loc(...)`).
struct LocAlias {
    loc: Location,
    /// `loc` measured (before its placeholders are replaced, while it has
    /// any).
    measure: Measure,
    /// The `#name` token of the definition.
    def: Token,
    /// Placeholders `loc` still holds for aliases not defined before it:
    /// indices into `loc_alias_refs`.
    pending: Vec<u32>,
}

/// Where resolving the location aliases is, for each alias.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Resolving {
    /// On the stack of aliases being resolved.
    Started,
    /// Resolved: no placeholder left.
    Done,
}

/// A use of an SSA value as written: `%name` or `%name#idx`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Use<'a> {
    pub name: &'a str,
    pub idx: u32,
    pub tok: Token,
    /// End of the use's text (after `#idx` when present).
    pub end: u32,
}

/// An argument of a region's entry block given by the op (function
/// signature or implicit operand names).
#[derive(Debug, Clone)]
pub(crate) struct EntryArg<'a> {
    pub name: &'a str,
    pub idx: u32,
    pub tok: Token,
    pub ty: Type,
    pub loc: Location,
}

#[derive(Default)]
struct Scope<'a> {
    defs: FxHashMap<(&'a str, u32), ValueId>,
    fwd: FxHashMap<(&'a str, u32), (ValueId, Token)>,
    isolated: bool,
}

#[derive(Default)]
struct Labels<'a> {
    ids: FxHashMap<&'a str, u32>,
    /// Position in the region's blocks per label id, `u32::MAX` while only
    /// referenced.
    pos: Vec<u32>,
    first_use: Vec<Option<Token>>,
}

#[derive(Clone, Copy)]
struct Binding<'a> {
    name: &'a str,
    count: u32,
    tok: Token,
}

pub(crate) struct Parser<'a> {
    pub src: &'a str,
    pub file: &'a str,
    /// `file` shared by every location the parser makes.
    file_name: std::sync::Arc<str>,
    lex: Lexer<'a>,
    pub tok: Token,
    depth: u32,
    pub module: Module,
    scopes: Vec<Scope<'a>>,
    nscopes: usize,
    /// The nearest isolated scope at or below the innermost one (0 when
    /// none is): where lookups stop. Kept by `push_scope` and `pop_scope`.
    visible_start: usize,
    /// The value defined last and the value a use found last among the
    /// definitions, checked before the scopes' maps: most uses name one
    /// of them (`%v1 = add %v0, %one`). Forgotten when a scope is pushed
    /// or popped; no definition can shadow them in between (a visible
    /// name cannot be defined again).
    recent: [Option<(&'a str, u32, ValueId)>; 2],
    labels: Vec<Labels<'a>>,
    nlabels: usize,
    bindings: Vec<Binding<'a>>,
    /// Ops of the block parsed last at each region depth: the next block
    /// there starts with room for as many (a program's blocks at one depth
    /// tend to be alike), instead of copying its large ops at every
    /// doubling of its list.
    block_sizes: Vec<usize>,
    attr_aliases: FxHashMap<&'a str, (Attribute, Measure)>,
    type_aliases: FxHashMap<&'a str, (Type, Measure)>,
    loc_aliases: FxHashMap<&'a str, LocAlias>,
    /// Names of the location aliases, in the order of their definitions.
    loc_alias_order: Vec<&'a str>,
    loc_alias_refs: Vec<(&'a str, Token)>,
    /// The file name of placeholder locations (see `LOC_ALIAS_MARK`).
    alias_mark: std::sync::Arc<str>,
    /// Attributes enclosing the one being parsed (see `MAX_NESTING`).
    attr_depth: u32,
    /// Locations enclosing the one being parsed (see `MAX_NESTING`).
    loc_depth: u32,
    /// Attributes, types and locations that uses of aliases may still copy.
    alias_budget: u64,
    pub chain: Type,
    /// Emptied result type lists, reused by `result_types`.
    type_lists: Vec<Vec<Type>>,
    /// `custom::lookup` per keyword seen, which is most of the work of
    /// parsing a short op otherwise.
    pub(crate) custom_forms: FxHashMap<&'a str, super::custom::Form>,
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a str, file: &'a str, first_line: u32) -> R<Parser<'a>> {
        let mut lex = Lexer::new(src, first_line.max(1));
        let tok = lex.next_token().map_err(|e| {
            Box::new(Diagnostic::new(
                Location::file_line_col(file, e.line, e.col),
                e.message,
            ))
        })?;
        Ok(Parser {
            src,
            file,
            file_name: file.into(),
            lex,
            tok,
            depth: 0,
            module: Module::new(Location::Unknown),
            scopes: Vec::new(),
            nscopes: 0,
            visible_start: 0,
            recent: [None; 2],
            labels: Vec::new(),
            nlabels: 0,
            bindings: Vec::new(),
            block_sizes: Vec::new(),
            attr_aliases: FxHashMap::default(),
            type_aliases: FxHashMap::default(),
            loc_aliases: FxHashMap::default(),
            loc_alias_order: Vec::new(),
            loc_alias_refs: Vec::new(),
            alias_mark: LOC_ALIAS_MARK.into(),
            attr_depth: 0,
            loc_depth: 0,
            alias_budget: (src.len() as u64)
                .saturating_mul(ALIAS_COPIES_PER_BYTE)
                .saturating_add(ALIAS_ALLOWANCE),
            chain: Type::chain(),
            type_lists: Vec::new(),
            custom_forms: FxHashMap::default(),
        })
    }

    // ---- tokens and errors -------------------------------------------

    pub fn text(&self, t: Token) -> &'a str {
        &self.src[t.start as usize..t.end as usize]
    }

    /// The text of a token after its one-byte sigil (`%`, `^`, `#`, `!`, `@`):
    /// sliced once.
    pub fn after_sigil(&self, t: Token) -> &'a str {
        &self.src[t.start as usize + 1..t.end as usize]
    }

    pub fn loc_at(&self, t: Token) -> Location {
        Location::FileLineCol {
            file: self.file_name.clone(),
            line: t.line,
            column: t.col,
        }
    }

    #[cold]
    pub fn err(&self, t: Token, message: impl Into<String>) -> Error {
        Box::new(Diagnostic::new(self.loc_at(t), message))
    }

    /// An error at the current token.
    pub fn err_here(&self, message: impl Into<String>) -> Error {
        self.err(self.tok, message)
    }

    #[cold]
    fn lex_err(&self, e: LexError) -> Error {
        Box::new(Diagnostic::new(
            Location::file_line_col(self.file, e.line, e.col),
            e.message,
        ))
    }

    pub fn bump(&mut self) -> R<()> {
        self.tok = self.lex.next_token().map_err(|e| self.lex_err(e))?;
        Ok(())
    }

    pub fn peek_kind(&self) -> Kind {
        self.lex.clone().next_token().map_or(Kind::Eof, |t| t.kind)
    }

    pub fn at(&self, kind: Kind) -> bool {
        self.tok.kind == kind
    }

    pub fn at_keyword(&self, word: &str) -> bool {
        self.tok.kind == Kind::BareId && self.text(self.tok) == word
    }

    pub fn eat(&mut self, kind: Kind) -> R<bool> {
        if self.tok.kind == kind {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub fn expect(&mut self, kind: Kind, message: &str) -> R<Token> {
        let t = self.tok;
        if t.kind != kind {
            return Err(self.err_here(message));
        }
        self.bump()?;
        Ok(t)
    }

    pub fn expect_keyword(&mut self, word: &str) -> R<()> {
        if !self.at_keyword(word) {
            return Err(self.err_here(format!("expected '{word}'")));
        }
        self.bump()
    }

    pub fn enter(&mut self) -> R<()> {
        self.enter_weighted(1)
    }

    /// Regions recurse through several large frames (op, custom form,
    /// region), so they count for more of the nesting budget.
    fn enter_weighted(&mut self, weight: u32) -> R<()> {
        self.depth += weight;
        if self.depth > MAX_PARSE_NESTING {
            return Err(self.err_here("nesting too deep"));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    fn leave_weighted(&mut self, weight: u32) {
        self.depth -= weight;
    }

    // ---- strings --------------------------------------------------------

    /// Decodes a string literal token (with quotes) into bytes.
    pub fn decode_string(&self, t: Token) -> R<Vec<u8>> {
        let text = self.text(t);
        let inner = &text.as_bytes()[1..text.len() - 1];
        if !inner.contains(&b'\\') {
            return Ok(inner.to_vec());
        }
        let mut out = Vec::with_capacity(inner.len());
        let mut i = 0;
        while i < inner.len() {
            let c = inner[i];
            if c != b'\\' {
                out.push(c);
                i += 1;
                continue;
            }
            let bad = || {
                let (line, col) = (t.line, t.col + 1 + i as u32);
                Box::new(Diagnostic::new(
                    Location::file_line_col(self.file, line, col),
                    "unknown escape in string literal",
                ))
            };
            let next = *inner.get(i + 1).ok_or_else(bad)?;
            match next {
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'"' => out.push(b'"'),
                b'\\' => out.push(b'\\'),
                h if h.is_ascii_hexdigit() => {
                    let l = *inner
                        .get(i + 2)
                        .filter(|c| c.is_ascii_hexdigit())
                        .ok_or_else(bad)?;
                    let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                    out.push(hex(h) * 16 + hex(l));
                    i += 3;
                    continue;
                }
                _ => return Err(bad()),
            }
            i += 2;
        }
        Ok(out)
    }

    /// A string that names something (a symbol, an attribute, a file):
    /// it must be UTF-8. Replacing the bytes that are not would make two
    /// distinct names one (`@"a\FE"` and `@"a\FF"`), so a call could bind
    /// to another function than the one it names.
    pub fn decode_string_utf8(&self, t: Token) -> R<String> {
        let bytes = self.decode_string(t)?;
        String::from_utf8(bytes).map_err(|_| {
            Box::new(Diagnostic::new(
                Location::file_line_col(self.file, t.line, t.col),
                "name is not valid UTF-8",
            ))
        })
    }

    /// `@name` or `@"name"` at the current token.
    pub fn parse_symbol_name(&mut self) -> R<String> {
        let t = self.expect(Kind::AtId, "expected symbol reference")?;
        let text = self.text(t);
        if text.as_bytes().get(1) == Some(&b'"') {
            let inner = Token {
                start: t.start + 1,
                col: t.col + 1,
                ..t
            };
            self.decode_string_utf8(inner)
        } else {
            Ok(self.after_sigil(t).to_string())
        }
    }
}

/// Stores `value` in `slot`, which holds a placeholder owning nothing
/// (`Type::None`, `Location::Unknown`) when `is_placeholder` says so: that
/// one is forgotten rather than dropped through a call.
#[inline]
fn fill_placeholder<T>(slot: &mut T, value: T, is_placeholder: impl FnOnce(&T) -> bool) {
    let old = std::mem::replace(slot, value);
    if is_placeholder(&old) {
        std::mem::forget(old);
    } else {
        drop(old);
    }
}

/// Whether two SSA names are equal, compared in place: they are a few
/// bytes long, shorter than what a call to `memcmp` costs.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// What `type_head` read: a complete type, or the start of one that
/// contains nested types.
enum Head {
    Done(Type),
    Function,
    Complex,
    Tuple,
    Tensor(Option<Vec<i64>>),
    Vector(Vec<i64>),
    MemRef(Option<Vec<i64>>),
}

/// The module of a file's top-level ops: the one `builtin.module` op when
/// that is all there is, else an implicit module around them located at
/// `file:0:0`, as MLIR does.
pub(super) fn top_level_module(ops: Vec<Op>, values: Vec<ValueData>, file: &str) -> Module {
    let is_module = |op: &Op| {
        op.name == crate::ir::MODULE_OP
            && op.results.is_empty()
            && op.operands.is_empty()
            && op.successors.is_empty()
            && op.regions.len() == 1
            && op.regions[0].blocks.len() == 1
            && op.regions[0].blocks[0].arguments.is_empty()
    };
    if ops.len() == 1 && is_module(&ops[0]) {
        Module {
            op: ops.into_iter().next().expect("one op"),
            values,
            resources: Vec::new(),
            origin: None,
        }
    } else {
        let mut m = Module::new(Location::file_line_col(file, 0, 0));
        m.values = values;
        m.body_mut().ops = ops;
        m
    }
}

/// `1x?x3`, `*`, or empty (rank 0). `?` is stored as -1, like BEF.
fn parse_shape_body(body: &str) -> Option<Option<Vec<i64>>> {
    let body = body.trim();
    if body == "*" {
        return Some(None);
    }
    if body.is_empty() {
        return Some(Some(Vec::new()));
    }
    body.split('x')
        .map(|d| match d.trim() {
            "?" => Some(-1),
            d if !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()) => d.parse().ok(),
            _ => None,
        })
        .collect::<Option<Vec<i64>>>()
        .map(Some)
}

/// Properties of an op whose inherent attributes the IR keeps in its
/// dictionary (`"func.func"() <{sym_name = ...}>`) join the dictionary, so
/// that the generic and custom forms parse alike. Properties naming
/// anything else, or a name the dictionary has too, stay apart as written.
fn merge_inherent_properties(op: &mut Op) {
    let names = super::printer::inherent_attribute_names(&op.name);
    let Some(Attribute::Dictionary(entries)) = op.properties.as_deref() else {
        return;
    };
    let mergeable = !entries.is_empty()
        && entries.iter().all(|(k, _)| {
            names.contains(&k.as_str()) && !op.attributes.iter().any(|(a, _)| a == k)
        });
    if !mergeable {
        return;
    }
    if let Some(Attribute::Dictionary(entries)) = op.properties.take().map(|p| *p) {
        // No name is in both, and dictionaries stay sorted by name.
        op.attributes.extend(entries);
        op.attributes.sort_by(|a, b| a.0.cmp(&b.0));
    }
}
