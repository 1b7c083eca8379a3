//! The MLIR text parser: top level, generic op form, regions and blocks,
//! SSA value scopes with forward references, attributes, types and
//! locations. Custom op forms live in `custom.rs`.
//!
//! Recursion (regions, attributes, types, locations) is bounded by
//! `MAX_PARSE_NESTING`; attributes and locations nest at most
//! [`MAX_NESTING`] levels, the limit of BEF readers, also through aliases.
//! Nothing is allocated from a number in the input (tensor dimensions are
//! only stored, splats are never expanded), and the copies that uses of
//! aliases make are bounded by the input's size (`alias_budget`).

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

    // ---- SSA values -----------------------------------------------------

    fn push_scope(&mut self, isolated: bool) {
        self.recent = [None; 2];
        if self.nscopes == self.scopes.len() {
            self.scopes.push(Scope::default());
        }
        let scope = &mut self.scopes[self.nscopes];
        scope.defs.clear();
        scope.fwd.clear();
        scope.isolated = isolated;
        if isolated {
            self.visible_start = self.nscopes;
        }
        self.nscopes += 1;
    }

    fn pop_scope(&mut self) -> R<()> {
        self.recent = [None; 2];
        self.nscopes -= 1;
        let top = self.nscopes;
        self.visible_start = self.nearest_isolated();
        if self.scopes[top].fwd.is_empty() {
            return Ok(());
        }
        let isolated = self.scopes[top].isolated;
        if isolated || top == 0 {
            let first = self.scopes[top]
                .fwd
                .values()
                .map(|(_, t)| *t)
                .min_by_key(|t| t.start)
                .expect("non-empty");
            return Err(self.err(first, "use of undeclared SSA value name"));
        }
        let fwd = std::mem::take(&mut self.scopes[top].fwd);
        let parent = &mut self.scopes[top - 1];
        for (k, v) in fwd {
            parent.fwd.entry(k).or_insert(v);
        }
        Ok(())
    }

    /// The scopes a lookup may see: from the innermost out to the nearest
    /// isolated one.
    fn visible_scopes(&self) -> std::ops::Range<usize> {
        debug_assert_eq!(self.visible_start, self.nearest_isolated());
        self.visible_start..self.nscopes
    }

    /// The nearest isolated scope at or below the innermost one (0 when
    /// none is), found by walking down.
    fn nearest_isolated(&self) -> usize {
        let mut lo = self.nscopes.saturating_sub(1);
        while lo > 0 && !self.scopes[lo].isolated {
            lo -= 1;
        }
        lo
    }

    fn use_text(&self, u: &Use<'a>) -> &'a str {
        &self.src[u.tok.start as usize..u.end as usize]
    }

    // Inlined: the result is then built in place rather than returned
    // through memory (two uses per op in most programs).
    #[inline(always)]
    pub fn parse_use(&mut self) -> R<Use<'a>> {
        let tok = self.tok;
        if tok.kind != Kind::PercentId {
            return Err(self.err_here("expected SSA operand"));
        }
        let name = self.after_sigil(tok);
        self.bump()?;
        let mut idx = 0;
        let mut end = tok.end;
        if self.tok.kind == Kind::HashId && self.tok.start == tok.end {
            let digits = self.after_sigil(self.tok);
            if !digits.bytes().all(|c| c.is_ascii_digit()) {
                return Err(self.err_here("expected result number"));
            }
            idx = digits
                .parse::<u32>()
                .map_err(|_| self.err_here("invalid result number"))?;
            end = self.tok.end;
            self.bump()?;
        }
        Ok(Use {
            name,
            idx,
            tok,
            end,
        })
    }

    /// `%a, %b#1, ...` (possibly empty, when the next token is no `%`).
    pub fn parse_use_list(&mut self) -> R<Vec<Use<'a>>> {
        let mut uses = Vec::new();
        self.parse_use_list_into(&mut uses)?;
        Ok(uses)
    }

    /// `parse_use_list`, appending to `uses`.
    pub fn parse_use_list_into(&mut self, uses: &mut Vec<Use<'a>>) -> R<()> {
        if self.tok.kind != Kind::PercentId {
            return Ok(());
        }
        loop {
            uses.push(self.parse_use()?);
            if !self.eat(Kind::Comma)? {
                return Ok(());
            }
        }
    }

    /// The value of `key` in the visible scopes: a definition (then
    /// remembered in `recent`), else a forward reference.
    fn lookup(&mut self, key: (&'a str, u32)) -> Option<ValueId> {
        let range = self.visible_scopes();
        for s in range.clone().rev() {
            if let Some(&v) = self.scopes[s].defs.get(&key) {
                self.recent[1] = Some((key.0, key.1, v));
                return Some(v);
            }
        }
        for s in range.rev() {
            if let Some(&(v, _)) = self.scopes[s].fwd.get(&key) {
                return Some(v);
            }
        }
        None
    }

    /// Resolves a use against the visible definitions, or records a
    /// forward reference.
    // Inlined like `parse_use` (most ops resolve two uses).
    #[inline(always)]
    pub fn resolve(&mut self, u: &Use<'a>, ty: &Type) -> R<ValueId> {
        let key = (u.name, u.idx);
        let mut found = self
            .recent
            .iter()
            .flatten()
            .find(|&&(name, idx, _)| idx == u.idx && same_name(name, u.name))
            .map(|&(_, _, v)| v);
        if found.is_none() {
            found = self.lookup(key);
        }
        if let Some(v) = found {
            let prior = self.module.value_type(v);
            if !prior.same_as(ty) {
                return Err(self.err(
                    u.tok,
                    format!(
                        "use of value '{}' expects different type than prior uses: '{ty}' vs '{prior}'",
                        self.use_text(u)
                    ),
                ));
            }
            return Ok(v);
        }
        let v = self.module.new_value(ty.clone(), None);
        let top = self.nscopes - 1;
        self.scopes[top].fwd.insert(key, (v, u.tok));
        Ok(v)
    }

    /// The values of `uses`, of the given types (owned or borrowed).
    pub fn resolve_all<T: std::borrow::Borrow<Type>>(
        &mut self,
        uses: &[Use<'a>],
        types: &[T],
        at: Token,
    ) -> R<Vec<ValueId>> {
        if uses.len() != types.len() {
            return Err(self.operand_count_error(at, uses.len(), types.len()));
        }
        let mut values = Vec::with_capacity(uses.len());
        for (u, t) in uses.iter().zip(types) {
            values.push(self.resolve(u, t.borrow())?);
        }
        Ok(values)
    }

    /// `found` operands where the op takes `expected`.
    pub(crate) fn operand_count_error(&self, at: Token, found: usize, expected: usize) -> Error {
        self.err(
            at,
            format!("{found} operands present, but expected {expected}"),
        )
    }

    /// Defines `%name` (`#idx`) in the innermost scope.
    pub fn define(
        &mut self,
        name: &'a str,
        idx: u32,
        tok: Token,
        ty: Type,
        loc: Option<Location>,
    ) -> R<ValueId> {
        self.define_in(name, idx, tok, ty, loc, None)
    }

    /// `define`, into the value `slot` reserved for it (unless the value
    /// was used before its definition: the forward reference's value
    /// wins and the slot stays undefined, for `renumber_values` to drop).
    fn define_in(
        &mut self,
        name: &'a str,
        idx: u32,
        tok: Token,
        ty: Type,
        loc: Option<Location>,
        slot: Option<ValueId>,
    ) -> R<ValueId> {
        let key = (name, idx);
        let top = self.nscopes - 1;
        // The innermost scope is checked when the value goes in (one
        // lookup instead of two): a value it defines has no forward
        // reference left, so the steps below cannot fail first.
        for s in self.visible_scopes().start..top {
            if self.scopes[s].defs.contains_key(&key) {
                return Err(self.err(tok, format!("redefinition of SSA value '%{name}'")));
            }
        }
        let fwd = &mut self.scopes[top].fwd;
        let forward = if fwd.is_empty() {
            None
        } else {
            fwd.remove(&key)
        };
        let v = if let Some((v, _)) = forward {
            let prior = self.module.value_type(v);
            if !prior.same_as(&ty) {
                return Err(self.err(
                    tok,
                    format!(
                        "definition of SSA value '%{name}#{idx}' has type '{ty}' but was used with type '{prior}'"
                    ),
                ));
            }
            self.module.values[v.index()].location = loc;
            v
        } else if let Some(v) = slot {
            let value = &mut self.module.values[v.index()];
            fill_placeholder(&mut value.ty, ty, |t| matches!(t, Type::None));
            value.location = loc;
            v
        } else {
            self.module.new_value(ty, loc)
        };
        match self.scopes[top].defs.entry(key) {
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(v);
                self.recent[0] = Some((name, idx, v));
            }
            std::collections::hash_map::Entry::Occupied(_) => {
                return Err(self.err(tok, format!("redefinition of SSA value '%{name}'")));
            }
        }
        Ok(v)
    }

    /// A list of result types, in a reused allocation when one is free.
    pub(crate) fn result_types<const N: usize>(&mut self, types: [Type; N]) -> Vec<Type> {
        let mut list = self.type_lists.pop().unwrap_or_default();
        list.extend(types);
        list
    }

    // ---- top level ------------------------------------------------------

    pub fn parse_top_level(mut self) -> R<Module> {
        let ops = self.parse_top_ops()?;
        let values = self.take_values();
        let mut module = top_level_module(ops, values, self.file);
        module.renumber_values();
        Ok(module)
    }

    /// The top-level ops, location aliases resolved; their values stay in
    /// the parser (`take_values`), in no particular order.
    pub(super) fn parse_top_ops(&mut self) -> R<Vec<Op>> {
        // About one value per line of a host program (30-odd bytes):
        // growing the arena instead would copy it over and over.
        self.module.values.reserve(self.src.len() / 32);
        self.push_scope(true);
        self.push_labels();
        let mut ops = Vec::new();
        loop {
            match self.tok.kind {
                Kind::Eof => break,
                Kind::HashId if self.peek_kind() == Kind::Equal => self.parse_attr_alias_def()?,
                Kind::BangId if self.peek_kind() == Kind::Equal => self.parse_type_alias_def()?,
                _ => self.parse_operation_into(&mut ops)?,
            }
        }
        let mut region = Region {
            blocks: vec![Block {
                arguments: Vec::new(),
                ops,
            }],
        };
        self.finish_labels(&mut region)?;
        self.pop_scope()?;
        let mut ops = std::mem::take(&mut region.blocks[0].ops);
        if !self.loc_alias_refs.is_empty() {
            self.resolve_loc_aliases(&mut ops)?;
        }
        Ok(ops)
    }

    pub(super) fn take_values(&mut self) -> Vec<ValueData> {
        std::mem::take(&mut self.module.values)
    }

    /// Whether the text parsed so far defined nothing that text parsed by
    /// another parser could refer to or clash with: no alias of any kind
    /// and no value at the top level.
    pub(super) fn defines_nothing_shared(&self) -> bool {
        self.attr_aliases.is_empty()
            && self.type_aliases.is_empty()
            && self.loc_aliases.is_empty()
            && self.scopes.first().is_none_or(|top| top.defs.is_empty())
    }

    fn parse_attr_alias_def(&mut self) -> R<()> {
        let t = self.tok;
        let name = self.after_sigil(t);
        if name.contains('<') || name.contains('.') || name.is_empty() {
            return Err(self.err(t, "invalid attribute alias name"));
        }
        if self.attr_aliases.contains_key(name) || self.loc_aliases.contains_key(name) {
            return Err(self.err(t, format!("redefinition of attribute alias id '{name}'")));
        }
        self.bump()?;
        self.expect(Kind::Equal, "expected '='")?;
        if self.at_keyword("loc") && self.peek_kind() == Kind::LParen {
            let loc = self.parse_trailing_loc()?;
            let mut pending = Vec::new();
            self.placeholders(&loc, &mut pending);
            let alias = LocAlias {
                measure: measure::location(&loc),
                loc,
                def: t,
                pending,
            };
            self.loc_aliases.insert(name, alias);
            self.loc_alias_order.push(name);
        } else {
            let attr = self.parse_attribute()?;
            let m = measure::attribute(&attr);
            self.attr_aliases.insert(name, (attr, m));
        }
        Ok(())
    }

    fn parse_type_alias_def(&mut self) -> R<()> {
        let t = self.tok;
        let name = self.after_sigil(t);
        if name.contains('<') || name.contains('.') || name.is_empty() {
            return Err(self.err(t, "invalid type alias name"));
        }
        if self.type_aliases.contains_key(name) {
            return Err(self.err(t, format!("redefinition of type alias id '{name}'")));
        }
        self.bump()?;
        self.expect(Kind::Equal, "expected '='")?;
        let ty = self.parse_type()?;
        let m = measure::of_type(&ty);
        self.type_aliases.insert(name, (ty, m));
        Ok(())
    }

    /// Charges the use of an alias at `t` for the copy of its value
    /// (measured `m`) and checks how deep the copy nests where it goes:
    /// below `attrs` attributes and `locs` locations.
    fn copy_alias(&mut self, t: Token, m: Measure, attrs: u32, locs: u32) -> R<()> {
        let name = self.text(t);
        // The depth of the deepest node of a kind, the root being at 0.
        let deepest = |enclosing: u32, levels: u32| (enclosing + levels).saturating_sub(1);
        if m.loc_levels > 0 && deepest(locs, m.loc_levels) > MAX_LEVELS {
            return Err(self.err(
                t,
                format!("locations nested deeper than {MAX_NESTING} levels (through {name})"),
            ));
        }
        if m.attr_levels > 0 && deepest(attrs, m.attr_levels) > MAX_LEVELS {
            return Err(self.err(
                t,
                format!("attributes nested deeper than {MAX_NESTING} levels (through {name})"),
            ));
        }
        if self.depth.saturating_add(m.levels) > MAX_PARSE_NESTING {
            return Err(self.err(t, format!("nesting too deep (through {name})")));
        }
        self.charge_copy(t, m.size)
    }

    /// Takes `size` copied nodes from what uses of aliases may copy.
    fn charge_copy(&mut self, t: Token, size: u64) -> R<()> {
        match self.alias_budget.checked_sub(size) {
            Some(rest) => {
                self.alias_budget = rest;
                Ok(())
            }
            None => {
                let limit = (self.src.len() as u64)
                    .saturating_mul(ALIAS_COPIES_PER_BYTE)
                    .saturating_add(ALIAS_ALLOWANCE);
                Err(self.err(
                    t,
                    format!(
                        "aliases expand to more than {limit} attributes, types and locations \
                         ({ALIAS_COPIES_PER_BYTE} per byte of input, plus {ALIAS_ALLOWANCE})"
                    ),
                ))
            }
        }
    }

    /// The index into `loc_alias_refs` if `loc` is a placeholder.
    fn placeholder(&self, loc: &Location) -> Option<usize> {
        match loc {
            Location::FileLineCol { file, line, .. }
                if std::sync::Arc::ptr_eq(file, &self.alias_mark) =>
            {
                Some(*line as usize)
            }
            _ => None,
        }
    }

    /// Adds the placeholders in `loc` to `out`. Recursion is bounded by
    /// `MAX_NESTING`, which every parsed location obeys.
    fn placeholders(&self, loc: &Location, out: &mut Vec<u32>) {
        if let Some(index) = self.placeholder(loc) {
            out.push(index as u32);
            return;
        }
        match loc {
            Location::Name { child, .. } => self.placeholders(child, out),
            Location::CallSite { callee, caller } => {
                self.placeholders(callee, out);
                self.placeholders(caller, out);
            }
            Location::Fused { locations, .. } => {
                for l in locations {
                    self.placeholders(l, out);
                }
            }
            _ => {}
        }
    }

    /// Replaces the placeholders of forward-referenced location aliases:
    /// first in the aliases' own definitions (an alias that refers to
    /// itself, directly or through others, is an error at its definition),
    /// then in the top-level ops last to first (depth first), then in the
    /// values.
    fn resolve_loc_aliases(&mut self, ops: &mut [Op]) -> R<()> {
        let order = std::mem::take(&mut self.loc_alias_order);
        let mut state: FxHashMap<&'a str, Resolving> = FxHashMap::default();
        for &name in &order {
            self.resolve_alias(name, &mut state)?;
        }
        let mut stack: Vec<&mut Op> = ops.iter_mut().collect();
        while let Some(op) = stack.pop() {
            self.fix_loc(&mut op.location, 0)?;
            for region in &mut op.regions {
                for block in &mut region.blocks {
                    stack.extend(block.ops.iter_mut());
                }
            }
        }
        let mut values = std::mem::take(&mut self.module.values);
        for value in &mut values {
            if let Some(loc) = &mut value.location {
                self.fix_loc(loc, 0)?;
            }
        }
        self.module.values = values;
        Ok(())
    }

    /// Resolves alias `name` and, first, the aliases it refers to, on an
    /// explicit stack (a chain of aliases may be as long as the input).
    fn resolve_alias(&mut self, name: &'a str, state: &mut FxHashMap<&'a str, Resolving>) -> R<()> {
        if state.contains_key(name) {
            return Ok(());
        }
        // Each entry: an alias and how many of its pending references are
        // known to be resolved.
        let mut stack: Vec<(&'a str, usize)> = vec![(name, 0)];
        state.insert(name, Resolving::Started);
        while let Some(&(current, next)) = stack.last() {
            if let Some(&index) = self.loc_aliases[current].pending.get(next) {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                let (target, tok) = self.loc_alias_refs[index as usize];
                match (state.get(target), self.loc_aliases.contains_key(target)) {
                    (_, false) => {
                        return Err(self.err(tok, format!("undefined symbol alias id '{target}'")));
                    }
                    (Some(Resolving::Done), _) => {}
                    (Some(Resolving::Started), _) => {
                        return Err(self.alias_cycle(target, &stack));
                    }
                    (None, _) => {
                        state.insert(target, Resolving::Started);
                        stack.push((target, 0));
                    }
                }
                continue;
            }
            // Every alias it refers to is resolved: replace its
            // placeholders.
            let mut alias = self.loc_aliases.remove(current).expect("defined");
            if !alias.pending.is_empty() {
                self.fix_loc(&mut alias.loc, 0)?;
                alias.measure = measure::location(&alias.loc);
                alias.pending = Vec::new();
            }
            self.loc_aliases.insert(current, alias);
            state.insert(current, Resolving::Done);
            stack.pop();
        }
        Ok(())
    }

    /// The error for alias `target`, which refers to itself through the
    /// aliases above it on `stack`.
    #[cold]
    fn alias_cycle(&self, target: &str, stack: &[(&'a str, usize)]) -> Error {
        let def = self.loc_aliases[target].def;
        let from = stack.iter().position(|&(n, _)| n == target).unwrap_or(0);
        let through: Vec<String> = stack[from + 1..]
            .iter()
            .map(|(n, _)| format!("#{n}"))
            .collect();
        let message = if through.is_empty() {
            format!("location alias #{target} refers to itself")
        } else {
            format!(
                "location alias #{target} refers to itself through {}",
                through.join(", ")
            )
        };
        self.err(def, message)
    }

    /// Replaces the placeholders in `loc`, whose root lies `depth`
    /// locations deep, by their (resolved) aliases.
    fn fix_loc(&mut self, loc: &mut Location, depth: u32) -> R<()> {
        if let Some(index) = self.placeholder(loc) {
            let (name, tok) = self.loc_alias_refs[index];
            let Some(alias) = self.loc_aliases.get(name) else {
                return Err(self.err(tok, format!("undefined symbol alias id '{name}'")));
            };
            let (measure, target) = (alias.measure, alias.loc.clone());
            // Attributes in locations (fused metadata) are roots of their
            // own; only their size counts here.
            self.copy_alias(tok, measure, 0, depth)?;
            *loc = target;
            return Ok(());
        }
        match loc {
            Location::Name { child, .. } => self.fix_loc(child, depth + 1)?,
            Location::CallSite { callee, caller } => {
                self.fix_loc(callee, depth + 1)?;
                self.fix_loc(caller, depth + 1)?;
            }
            Location::Fused { locations, .. } => {
                for l in locations {
                    self.fix_loc(l, depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    // ---- operations -----------------------------------------------------

    /// An operation, parsed in place at the end of `ops` (an op is large:
    /// built where it stays rather than moved there).
    pub fn parse_operation_into(&mut self, ops: &mut Vec<Op>) -> R<()> {
        ops.push(Op::default());
        let op = ops.last_mut().expect("just pushed");
        let parsed = self.parse_operation(op);
        if parsed.is_err() {
            ops.pop();
        }
        parsed
    }

    fn parse_operation(&mut self, op: &mut Op) -> R<()> {
        self.enter()?;
        let base = self.bindings.len();
        if self.tok.kind == Kind::PercentId {
            loop {
                let t = self.tok;
                if t.kind != Kind::PercentId {
                    return Err(self.err_here("expected SSA identifier"));
                }
                let name = self.after_sigil(t);
                self.bump()?;
                let mut count = 1;
                if self.eat(Kind::Colon)? {
                    let n = self.expect(Kind::Integer, "expected integer number of results")?;
                    count = self
                        .text(n)
                        .parse::<u32>()
                        .ok()
                        .filter(|&c| c > 0)
                        .ok_or_else(|| {
                            self.err(n, "expected named operation to have at least 1 result")
                        })?;
                }
                self.bindings.push(Binding {
                    name,
                    count,
                    tok: t,
                });
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
            self.expect(Kind::Equal, "expected '=' after SSA name")?;
        }
        // Number the bound results before the op's operands and regions
        // create values, so that the module comes out in canonical order
        // and `renumber_values` has nothing to do. Types are filled in
        // once known. Large counts (untrusted) take the slow path.
        let bound: u64 = self.bindings[base..]
            .iter()
            .map(|b| u64::from(b.count))
            .sum();
        let reserved = if (1..=MAX_RESERVED_RESULTS).contains(&bound) {
            let first = self.module.values.len() as u32;
            for _ in 0..bound {
                self.module.new_value(Type::None, None);
            }
            Some(first)
        } else {
            None
        };
        let name_tok = self.tok;
        let result_types = match name_tok.kind {
            Kind::String => self.parse_generic_op(op)?,
            Kind::BareId => self.parse_custom_op(op)?,
            _ => return Err(self.err_here("expected operation name in quotes")),
        };
        let location = if self.at_keyword("loc") && self.peek_kind() == Kind::LParen {
            self.parse_trailing_loc()?
        } else {
            self.loc_at(name_tok)
        };
        fill_placeholder(&mut op.location, location, |l| {
            matches!(l, Location::Unknown)
        });
        if self.bindings.len() > base && bound != result_types.len() as u64 {
            return Err(self.err(
                self.bindings[base].tok,
                format!(
                    "operation defines {} results but was provided {bound} to bind",
                    result_types.len()
                ),
            ));
        }
        // The op was empty: its results are allocated once, at their size.
        op.results = Vec::with_capacity(result_types.len());
        let mut result_types = result_types;
        // Popped in order below (cheaper than draining).
        result_types.reverse();
        let mut next_reserved = reserved;
        for index in base..self.bindings.len() {
            let b = self.bindings[index];
            for i in 0..b.count {
                let ty = result_types.pop().expect("counted");
                let slot = next_reserved.map(ValueId);
                next_reserved = next_reserved.map(|n| n + 1);
                op.results
                    .push(self.define_in(b.name, i, b.tok, ty, None, slot)?);
            }
        }
        self.bindings.truncate(base);
        while let Some(ty) = result_types.pop() {
            op.results.push(self.module.new_value(ty, None));
        }
        if self.type_lists.len() < 16 {
            self.type_lists.push(result_types);
        }
        self.leave();
        Ok(())
    }

    fn parse_generic_op(&mut self, op: &mut Op) -> R<Vec<Type>> {
        let name_tok = self.tok;
        let name = String::from_utf8(self.decode_string(name_tok)?)
            .ok()
            .filter(|n| !n.is_empty())
            .ok_or_else(|| self.err(name_tok, "invalid operation name"))?;
        self.bump()?;
        self.expect(Kind::LParen, "expected '(' to start operand list")?;
        let uses = self.parse_use_list()?;
        self.expect(Kind::RParen, "expected ')' to end operand list")?;
        op.name = name;
        if self.eat(Kind::LSquare)? {
            loop {
                let t = self.expect(Kind::CaretId, "expected block name")?;
                if self.at(Kind::LParen) {
                    return Err(self.err_here("successor operands are not supported"));
                }
                op.successors.push(self.label_use(t));
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
            self.expect(Kind::RSquare, "expected ']' to end successor list")?;
        }
        if self.eat(Kind::Less)? {
            let props = self.parse_attribute()?;
            self.expect(Kind::Greater, "expected '>' to close properties")?;
            op.properties = Some(Box::new(props));
        }
        if self.at(Kind::LParen) && self.peek_kind() == Kind::LBrace {
            self.bump()?;
            let isolated = op.name == crate::ir::FUNC_OP || op.name == crate::ir::MODULE_OP;
            loop {
                op.regions.push(self.parse_region(isolated, None)?);
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
            self.expect(Kind::RParen, "expected ')' to end region list")?;
            if op.name == crate::ir::MODULE_OP
                && op.regions.len() == 1
                && op.regions[0].blocks.is_empty()
            {
                op.regions[0].blocks.push(Block::default());
            }
        }
        if self.at(Kind::LBrace) {
            op.attributes = self.parse_attr_dict()?;
        }
        merge_inherent_properties(op);
        self.expect(Kind::Colon, "expected ':' followed by operation type")?;
        let ty_tok = self.tok;
        let Type::Function { inputs, results } = self.parse_type()? else {
            return Err(self.err(ty_tok, "expected function type"));
        };
        if inputs.len() != uses.len() {
            return Err(self.err(
                ty_tok,
                format!(
                    "expected {} operand type{} but had {}",
                    uses.len(),
                    if uses.len() == 1 { "" } else { "s" },
                    inputs.len()
                ),
            ));
        }
        op.operands = self.resolve_all(&uses, &inputs, ty_tok)?;
        Ok(results)
    }

    // ---- regions and blocks ---------------------------------------------

    fn push_labels(&mut self) {
        if self.nlabels == self.labels.len() {
            self.labels.push(Labels::default());
        }
        let l = &mut self.labels[self.nlabels];
        l.ids.clear();
        l.pos.clear();
        l.first_use.clear();
        self.nlabels += 1;
    }

    fn label_id(&mut self, name: &'a str) -> u32 {
        let l = &mut self.labels[self.nlabels - 1];
        let next = l.pos.len() as u32;
        let id = *l.ids.entry(name).or_insert(next);
        if id == next {
            l.pos.push(u32::MAX);
            l.first_use.push(None);
        }
        id
    }

    fn label_use(&mut self, t: Token) -> u32 {
        let id = self.label_id(self.after_sigil(t));
        let l = &mut self.labels[self.nlabels - 1];
        l.first_use[id as usize].get_or_insert(t);
        id
    }

    /// Maps successor label ids to block positions and pops the labels.
    fn finish_labels(&mut self, region: &mut Region) -> R<()> {
        self.nlabels -= 1;
        let l = &self.labels[self.nlabels];
        if l.pos.is_empty() {
            return Ok(());
        }
        for (id, &pos) in l.pos.iter().enumerate() {
            if pos == u32::MAX {
                let t = l.first_use[id].expect("used label");
                return Err(self.err(t, "reference to an undefined block"));
            }
        }
        for block in &mut region.blocks {
            for op in &mut block.ops {
                for s in &mut op.successors {
                    *s = l.pos[*s as usize];
                }
            }
        }
        Ok(())
    }

    /// `{ ... }`. `entry` gives the entry block's arguments when the op
    /// names them (function signature, implicit operand names).
    pub fn parse_region(&mut self, isolated: bool, entry: Option<Vec<EntryArg<'a>>>) -> R<Region> {
        self.enter_weighted(REGION_WEIGHT)?;
        self.expect(Kind::LBrace, "expected '{' to begin a region")?;
        self.push_scope(isolated);
        self.push_labels();
        let mut region = Region::default();
        let entry = entry.unwrap_or_default();
        let named_entry = !entry.is_empty();
        if self.at(Kind::CaretId) {
            if named_entry {
                return Err(self.err_here("invalid block name in region with named arguments"));
            }
        } else if named_entry || !self.at(Kind::RBrace) {
            let mut arguments = Vec::with_capacity(entry.len());
            for a in entry {
                arguments.push(self.define(a.name, a.idx, a.tok, a.ty, Some(a.loc))?);
            }
            let ops = self.parse_block_ops()?;
            region.blocks.push(Block { arguments, ops });
        }
        while self.at(Kind::CaretId) {
            let t = self.tok;
            let id = self.label_id(self.after_sigil(t));
            let pos = region.blocks.len() as u32;
            let l = &mut self.labels[self.nlabels - 1];
            if l.pos[id as usize] != u32::MAX {
                return Err(self.err(t, format!("redefinition of block '{}'", self.text(t))));
            }
            l.pos[id as usize] = pos;
            self.bump()?;
            let mut arguments = Vec::new();
            if self.eat(Kind::LParen)? && !self.eat(Kind::RParen)? {
                loop {
                    let at = self.tok;
                    let u = self.parse_use()?;
                    if u.idx != 0 || u.end != at.end {
                        return Err(self.err(at, "invalid block argument name"));
                    }
                    self.expect(Kind::Colon, "expected ':' and type for SSA operand")?;
                    let ty = self.parse_type()?;
                    let loc = if self.at_keyword("loc") {
                        self.parse_trailing_loc()?
                    } else {
                        self.loc_at(at)
                    };
                    arguments.push(self.define(u.name, 0, at, ty, Some(loc))?);
                    if !self.eat(Kind::Comma)? {
                        break;
                    }
                }
                self.expect(Kind::RParen, "expected ')' to end argument list")?;
            }
            self.expect(Kind::Colon, "expected ':' after block name")?;
            let ops = self.parse_block_ops()?;
            region.blocks.push(Block { arguments, ops });
        }
        self.expect(Kind::RBrace, "expected '}' to end region")?;
        self.finish_labels(&mut region)?;
        self.pop_scope()?;
        self.leave_weighted(REGION_WEIGHT);
        Ok(region)
    }

    fn parse_block_ops(&mut self) -> R<Vec<Op>> {
        let depth = self.nscopes;
        let room = self.block_sizes.get(depth).copied().unwrap_or(0);
        let mut ops = Vec::with_capacity(room.min(MAX_BLOCK_ROOM));
        while !matches!(self.tok.kind, Kind::RBrace | Kind::CaretId | Kind::Eof) {
            self.parse_operation_into(&mut ops)?;
        }
        // A guess well above the size gives the room back.
        if ops.capacity() > 2 * ops.len() {
            ops.shrink_to_fit();
        }
        if self.block_sizes.len() <= depth {
            self.block_sizes.resize(depth + 1, 0);
        }
        self.block_sizes[depth] = ops.len();
        Ok(ops)
    }

    // ---- locations ------------------------------------------------------

    /// `loc(...)` at the current token.
    pub fn parse_trailing_loc(&mut self) -> R<Location> {
        self.expect_keyword("loc")?;
        self.expect(Kind::LParen, "expected '(' in location")?;
        let loc = self.parse_loc_body()?;
        self.expect(Kind::RParen, "expected ')' in location")?;
        Ok(loc)
    }

    fn parse_u32(&mut self, what: &str) -> R<u32> {
        let t = self.expect(
            Kind::Integer,
            &format!("expected integer {what} in location"),
        )?;
        self.text(t)
            .parse::<u32>()
            .map_err(|_| self.err(t, format!("expected integer {what} in location")))
    }

    /// Location bodies recurse through small frames only: the leaves (and
    /// their error paths) live in `loc_leaf`.
    fn parse_loc_body(&mut self) -> R<Location> {
        if self.loc_depth > MAX_LEVELS {
            return Err(self.err_here(format!("locations nested deeper than {MAX_NESTING} levels")));
        }
        self.enter()?;
        self.loc_depth += 1;
        let r = self.parse_loc_inner();
        self.loc_depth -= 1;
        self.leave();
        r
    }

    fn parse_loc_inner(&mut self) -> R<Location> {
        if self.at_keyword("callsite") {
            self.bump()?;
            self.expect(Kind::LParen, "expected '(' in callsite location")?;
            let callee = self.parse_loc_body()?;
            self.expect_keyword("at")?;
            let caller = self.parse_loc_body()?;
            self.expect(Kind::RParen, "expected ')' in callsite location")?;
            return Ok(Location::CallSite {
                callee: Box::new(callee),
                caller: Box::new(caller),
            });
        }
        if self.at_keyword("fused") {
            self.bump()?;
            let metadata = if self.eat(Kind::Less)? {
                // Attributes inside locations cost more of the budget.
                self.enter_weighted(REGION_WEIGHT)?;
                let a = self.parse_attribute();
                self.leave_weighted(REGION_WEIGHT);
                let a = a?;
                self.expect(Kind::Greater, "expected '>' after fused location metadata")?;
                Some(Box::new(a))
            } else {
                None
            };
            self.expect(Kind::LSquare, "expected '[' in fused location")?;
            let mut locations = Vec::new();
            if !self.at(Kind::RSquare) {
                loop {
                    locations.push(self.parse_loc_body()?);
                    if !self.eat(Kind::Comma)? {
                        break;
                    }
                }
            }
            self.expect(Kind::RSquare, "expected ']' in fused location")?;
            return Ok(Location::Fused {
                locations,
                metadata,
            });
        }
        let (loc, named) = self.loc_leaf()?;
        if let Some(name) = named {
            let child = self.parse_loc_body()?;
            self.expect(Kind::RParen, "expected ')' after child location of NameLoc")?;
            return Ok(Location::Name {
                name,
                child: Box::new(child),
            });
        }
        Ok(loc)
    }

    /// A location without nested locations; `(_, Some(name))` when a
    /// `"name"(` was read and the child location follows.
    #[inline(never)]
    fn loc_leaf(&mut self) -> R<(Location, Option<String>)> {
        let t = self.tok;
        let loc = match t.kind {
            Kind::BareId if self.text(t) == "unknown" => {
                self.bump()?;
                Location::Unknown
            }
            Kind::String => {
                let s = self.decode_string_utf8(t)?;
                self.bump()?;
                if self.eat(Kind::Colon)? {
                    let line = self.parse_u32("line number")?;
                    self.expect(Kind::Colon, "expected ':' in FileLineColLoc")?;
                    let column = self.parse_u32("column number")?;
                    Location::FileLineCol {
                        file: s.into(),
                        line,
                        column,
                    }
                } else if self.eat(Kind::LParen)? {
                    return Ok((Location::Unknown, Some(s)));
                } else {
                    // A bare name stands above an unknown location.
                    if self.loc_depth > MAX_LEVELS {
                        return Err(self.err(
                            t,
                            format!("locations nested deeper than {MAX_NESTING} levels"),
                        ));
                    }
                    Location::Name {
                        name: s,
                        child: Box::new(Location::Unknown),
                    }
                }
            }
            Kind::HashId => {
                let name = self.after_sigil(t);
                self.bump()?;
                match self.loc_aliases.get(name) {
                    Some(alias) => {
                        let (m, loc) = (alias.measure, alias.loc.clone());
                        let enclosing = self.loc_depth.saturating_sub(1);
                        self.copy_alias(t, m, self.attr_depth, enclosing)?;
                        loc
                    }
                    None => {
                        let index = self.loc_alias_refs.len() as u32;
                        self.loc_alias_refs.push((name, t));
                        Location::FileLineCol {
                            file: self.alias_mark.clone(),
                            line: index,
                            column: u32::MAX,
                        }
                    }
                }
            }
            _ => return Err(self.err_here("expected location instance")),
        };
        Ok((loc, None))
    }

    // ---- types ------------------------------------------------------------

    /// Types recurse through small frames only: `type_head` reads
    /// everything up to a nested type.
    pub fn parse_type(&mut self) -> R<Type> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> R<Type> {
        Ok(match self.type_head()? {
            Head::Done(ty) => ty,
            Head::Function => {
                let inputs = self.parse_type_list_until(Kind::RParen)?;
                self.expect(Kind::RParen, "expected ')'")?;
                self.expect(Kind::Arrow, "expected '->' in function type")?;
                let results = self.parse_function_results()?;
                Type::Function { inputs, results }
            }
            Head::Complex => {
                let e = self.parse_type()?;
                self.expect(Kind::Greater, "expected '>' in complex type")?;
                Type::Complex(Box::new(e))
            }
            Head::Tuple => {
                let es = self.parse_type_list_until(Kind::Greater)?;
                self.expect(Kind::Greater, "expected '>' in tuple type")?;
                Type::Tuple(es)
            }
            Head::Tensor(shape) => {
                let element = Box::new(self.parse_type()?);
                self.expect(Kind::Greater, "expected '>' in tensor type")?;
                Type::Tensor {
                    shape,
                    element,
                    encoding: None,
                }
            }
            Head::MemRef(shape) => {
                let element = Box::new(self.parse_type()?);
                let (layout, memory_space) = self.memref_layout_and_space()?;
                self.expect(Kind::Greater, "expected '>' in memref type")?;
                Type::MemRef {
                    shape,
                    element,
                    layout,
                    memory_space,
                }
            }
            Head::Vector(shape) => {
                let element = Box::new(self.parse_type()?);
                self.expect(Kind::Greater, "expected '>' in vector type")?;
                Type::Vector {
                    shape,
                    element,
                    scalable: Vec::new(),
                }
            }
        })
    }

    /// After a memref's element type: `, layout`, `, memory space` or
    /// both. As in MLIR, a lone attribute that is neither an affine map
    /// nor a strided layout is the memory space.
    #[allow(clippy::type_complexity)]
    fn memref_layout_and_space(&mut self) -> R<(Option<Box<Attribute>>, Option<Box<Attribute>>)> {
        let (mut layout, mut space) = (None, None);
        while self.at(Kind::Comma) {
            let comma = self.tok;
            self.bump()?;
            let attr = self.parse_attribute()?;
            let is_layout = matches!(
                attr,
                Attribute::AffineMap(_) | Attribute::StridedLayout { .. }
            );
            if is_layout && layout.is_none() && space.is_none() {
                layout = Some(Box::new(attr));
            } else if space.is_none() && !is_layout {
                space = Some(Box::new(attr));
            } else {
                return Err(self.err(comma, "expected '>' in memref type"));
            }
        }
        Ok((layout, space))
    }

    #[inline(never)]
    fn type_head(&mut self) -> R<Head> {
        let t = self.tok;
        match t.kind {
            Kind::BareId => self.keyword_type_head(),
            Kind::LParen => {
                self.bump()?;
                Ok(Head::Function)
            }
            Kind::BangId => {
                self.bump()?;
                Ok(Head::Done(self.dialect_type(t)?))
            }
            _ => Err(self.err_here("expected type")),
        }
    }

    /// `(t, ...)` or a single non-function type after `->`.
    pub fn parse_function_results(&mut self) -> R<Vec<Type>> {
        if self.eat(Kind::LParen)? {
            let results = self.parse_type_list_until(Kind::RParen)?;
            self.expect(Kind::RParen, "expected ')'")?;
            Ok(results)
        } else {
            let t = self.tok;
            let ty = self.parse_type()?;
            if matches!(ty, Type::Function { .. }) {
                return Err(self.err(t, "expected non-function type"));
            }
            Ok(vec![ty])
        }
    }

    /// Comma-separated types, empty when the next token is `end`.
    pub fn parse_type_list_until(&mut self, end: Kind) -> R<Vec<Type>> {
        let mut types = Vec::new();
        if self.at(end) {
            return Ok(types);
        }
        loop {
            types.push(self.parse_type()?);
            if !self.eat(Kind::Comma)? {
                return Ok(types);
            }
        }
    }

    /// Comma-separated types, at least one.
    pub fn parse_type_list(&mut self) -> R<Vec<Type>> {
        let mut types = Vec::new();
        loop {
            types.push(self.parse_type()?);
            if !self.eat(Kind::Comma)? {
                return Ok(types);
            }
        }
    }

    fn dialect_type(&mut self, t: Token) -> R<Type> {
        let body = self.after_sigil(t);
        let lt = body.find('<');
        let dot = body.find('.');
        match (dot, lt) {
            (Some(d), l) if l.is_none_or(|l| d < l) => {
                let (dialect, rest) = (&body[..d], &body[d + 1..]);
                if dialect.is_empty() || rest.is_empty() {
                    return Err(self.err(t, "invalid dialect type"));
                }
                // The tensor dialect's type has two spellings; `!t.tensor`
                // is the one printed.
                if (dialect, rest) == ("tfrt_tensor", "tensor") {
                    return Ok(Type::dialect("t", "tensor"));
                }
                Ok(Type::dialect(dialect, rest))
            }
            (_, Some(l)) => {
                if l == 0 {
                    return Err(self.err(t, "invalid dialect type"));
                }
                Ok(Type::dialect(&body[..l], &body[l..]))
            }
            _ => match self.type_aliases.get(body) {
                Some((ty, m)) => {
                    let (ty, m) = (ty.clone(), *m);
                    self.copy_alias(t, m, self.attr_depth, self.loc_depth)?;
                    Ok(ty)
                }
                None => Err(self.err(t, format!("undefined symbol alias id '{body}'"))),
            },
        }
    }

    fn keyword_type_head(&mut self) -> R<Head> {
        let t = self.tok;
        let word = self.text(t);
        // Integer types first, the most common: no other type keyword is
        // `i`, `si` or `ui` followed by digits only.
        let int = |prefix: &str, s: Signedness| {
            word.strip_prefix(prefix)
                .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
                .map(|d| (d, s))
        };
        if let Some((digits, signedness)) = int("i", Signedness::Signless)
            .or_else(|| int("si", Signedness::Signed))
            .or_else(|| int("ui", Signedness::Unsigned))
        {
            let width = digits
                .parse::<u32>()
                .ok()
                .filter(|&w| w <= 16_777_215)
                .ok_or_else(|| self.err(t, "invalid integer width"))?;
            self.bump()?;
            return Ok(Head::Done(Type::Integer { width, signedness }));
        }
        let simple = match word {
            "index" => Some(Type::Index),
            "none" => Some(Type::None),
            _ => FloatKind::from_name(word).map(Type::Float),
        };
        if let Some(ty) = simple {
            self.bump()?;
            return Ok(Head::Done(ty));
        }
        match word {
            "complex" | "tuple" => {
                self.bump()?;
                self.expect(Kind::Less, &format!("expected '<' in {word} type"))?;
                Ok(if word == "complex" {
                    Head::Complex
                } else {
                    Head::Tuple
                })
            }
            "tensor" | "vector" | "memref" => {
                let vector = word == "vector";
                self.bump()?;
                if !self.at(Kind::Less) {
                    return Err(self.err_here(format!("expected '<' in {word} type")));
                }
                let shape = self.scan_dims(!vector)?;
                Ok(match word {
                    "tensor" => Head::Tensor(shape),
                    "memref" => Head::MemRef(shape),
                    _ => Head::Vector(shape.unwrap_or_default()),
                })
            }
            _ => Err(self.err(t, "expected non-function type")),
        }
    }

    /// With the current token `<`: scans `2x?x` (or `*x`) by hand, since
    /// the lexer would glue `x3xf32` into an identifier, and leaves the
    /// current token at the element type. `None` is unranked.
    fn scan_dims(&mut self, allow_unranked: bool) -> R<Option<Vec<i64>>> {
        let bytes = self.src.as_bytes();
        let mut i = self.tok.end as usize;
        let skip = |mut i: usize| {
            while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n') {
                i += 1;
            }
            i
        };
        let mut dims = Vec::new();
        let mut unranked = false;
        loop {
            i = skip(i);
            let at = i;
            match bytes.get(i) {
                Some(b'*') if allow_unranked && dims.is_empty() && !unranked => {
                    unranked = true;
                    i += 1;
                }
                Some(b'?') if !unranked => {
                    dims.push(DYNAMIC);
                    i += 1;
                }
                Some(c) if c.is_ascii_digit() && !unranked => {
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    let d = self.src[at..i]
                        .parse::<i64>()
                        .map_err(|_| self.err_at_byte(at, "invalid dimension"))?;
                    dims.push(d);
                }
                _ => break,
            }
            i = skip(i);
            if bytes.get(i) != Some(&b'x') {
                return Err(self.err_at_byte(i, "expected 'x' in dimension list"));
            }
            i += 1;
            if unranked {
                break;
            }
        }
        self.lex.reset_to(i);
        self.bump()?;
        Ok(if unranked { None } else { Some(dims) })
    }

    fn err_at_byte(&self, pos: usize, message: &str) -> Error {
        let (line, col) = self.lex.line_col_at(pos);
        Box::new(Diagnostic::new(
            Location::file_line_col(self.file, line, col),
            message,
        ))
    }

    // ---- attributes -------------------------------------------------------

    /// `{a = 1, b}`: sorted by name, duplicates rejected.
    pub fn parse_attr_dict(&mut self) -> R<Vec<NamedAttribute>> {
        self.enter()?;
        self.expect(Kind::LBrace, "expected '{' in attribute dictionary")?;
        let mut entries: Vec<(String, Attribute, Token)> = Vec::new();
        if !self.at(Kind::RBrace) {
            loop {
                let t = self.tok;
                let key = match t.kind {
                    Kind::BareId => self.text(t).to_string(),
                    Kind::String => self.decode_string_utf8(t)?,
                    _ => return Err(self.err_here("expected attribute name")),
                };
                self.bump()?;
                let value = if self.eat(Kind::Equal)? {
                    self.parse_attribute()?
                } else {
                    Attribute::Unit
                };
                entries.push((key, value, t));
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
        }
        self.expect(Kind::RBrace, "expected '}' in attribute dictionary")?;
        self.leave();
        self.sorted_dict(entries)
    }

    pub fn sorted_dict(
        &self,
        mut entries: Vec<(String, Attribute, Token)>,
    ) -> R<Vec<NamedAttribute>> {
        if !entries.is_sorted_by(|a, b| a.0 < b.0) {
            entries.sort_by(|a, b| a.0.cmp(&b.0).then(a.2.start.cmp(&b.2.start)));
            if let Some(w) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(self.err(
                    w[1].2,
                    format!("duplicate key '{}' in dictionary attribute", w[1].0),
                ));
            }
        }
        Ok(entries.into_iter().map(|(k, v, _)| (k, v)).collect())
    }

    /// Attributes recurse through small frames only (arrays and
    /// dictionaries); everything else is read by `attribute_leaf`.
    pub fn parse_attribute(&mut self) -> R<Attribute> {
        if self.attr_depth > MAX_LEVELS {
            return Err(self.err_here(format!(
                "attributes nested deeper than {MAX_NESTING} levels"
            )));
        }
        self.enter()?;
        self.attr_depth += 1;
        let r = match self.tok.kind {
            Kind::LSquare => self.parse_array_attr(),
            Kind::LBrace => self.parse_attr_dict().map(Attribute::Dictionary),
            _ => self.attribute_leaf(),
        };
        self.attr_depth -= 1;
        self.leave();
        r
    }

    fn parse_array_attr(&mut self) -> R<Attribute> {
        self.bump()?;
        let mut items = Vec::new();
        if !self.at(Kind::RSquare) {
            loop {
                items.push(self.parse_attribute()?);
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
        }
        self.expect(Kind::RSquare, "expected ']' in array attribute")?;
        Ok(Attribute::Array(items))
    }

    #[inline(never)]
    fn attribute_leaf(&mut self) -> R<Attribute> {
        let t = self.tok;
        let attr = match t.kind {
            Kind::String => {
                let value = self.decode_string(t)?;
                self.bump()?;
                let ty = if self.eat(Kind::Colon)? {
                    Some(self.parse_type()?)
                } else {
                    None
                };
                Attribute::String { value, ty }
            }
            Kind::AtId => {
                let root = self.parse_symbol_name()?;
                let mut nested = Vec::new();
                while self.eat(Kind::ColonColon)? {
                    nested.push(self.parse_symbol_name()?);
                }
                Attribute::SymbolRef { root, nested }
            }
            Kind::Integer | Kind::Float | Kind::Minus => {
                let negative = self.eat(Kind::Minus)?;
                let num = self.tok;
                if !matches!(num.kind, Kind::Integer | Kind::Float) {
                    return Err(self.err_here("expected integer or float literal"));
                }
                self.bump()?;
                let ty = if self.eat(Kind::Colon)? {
                    Some(self.parse_type()?)
                } else {
                    None
                };
                self.number_attr(negative, num, ty)?
            }
            Kind::HashId => {
                self.bump()?;
                self.hash_attr(t)?
            }
            Kind::BangId | Kind::LParen => Attribute::Type(self.parse_type()?),
            Kind::BareId => match self.text(t) {
                "true" | "false" => {
                    self.bump()?;
                    Attribute::Bool(self.text(t) == "true")
                }
                "unit" => {
                    self.bump()?;
                    Attribute::Unit
                }
                "dense" => self.parse_dense()?,
                "array" => self.parse_dense_array()?,
                "loc" if self.peek_kind() == Kind::LParen => {
                    self.enter_weighted(REGION_WEIGHT)?;
                    let loc = self.parse_trailing_loc();
                    self.leave_weighted(REGION_WEIGHT);
                    Attribute::Location(Box::new(loc?))
                }
                _ => Attribute::Type(self.parse_type().map_err(|e| {
                    if e.location == self.loc_at(t) {
                        self.err(t, "expected attribute value")
                    } else {
                        e
                    }
                })?),
            },
            _ => return Err(self.err_here("expected attribute value")),
        };
        Ok(attr)
    }

    pub(crate) fn int_literal(&self, negative: bool, num: Token) -> R<IntLiteral> {
        let text = self.text(num);
        let (magnitude, hex) = match text.strip_prefix("0x") {
            Some(h) => (num::parse_hex(h), true),
            None => (num::parse_dec(text), false),
        };
        let magnitude = magnitude
            .ok_or_else(|| self.err(num, "integer constant out of range for attribute"))?;
        Ok(IntLiteral {
            negative,
            magnitude,
            hex,
        })
    }

    /// An integer or float literal (after an optional `-`) with its type.
    pub fn number_attr(&self, negative: bool, num: Token, ty: Option<Type>) -> R<Attribute> {
        match num.kind {
            Kind::Integer => {
                let ty = ty.unwrap_or(Type::i(64));
                if let Type::Float(kind) = ty {
                    let bits = self.float_bits(negative, num, kind, false)?;
                    return Ok(Attribute::Float { bits, ty });
                }
                if num::int_type_info(&ty).is_none() {
                    return Err(self.err(num, "integer literal not valid for specified type"));
                }
                let lit = self.int_literal(negative, num)?;
                let value = num::integer_value(lit, &ty).map_err(|m| self.err(num, m))?;
                Ok(Attribute::Integer { value, ty })
            }
            _ => {
                let ty = ty.unwrap_or(Type::f64());
                let Type::Float(kind) = ty else {
                    return Err(self.err(num, "floating point value not valid for specified type"));
                };
                let bits = self.float_bits(negative, num, kind, false)?;
                Ok(Attribute::Float { bits, ty })
            }
        }
    }

    /// Bits of a float literal token in `kind`: hex integers are the bit
    /// pattern, decimal integers and floats are converted.
    pub(crate) fn float_bits(
        &self,
        negative: bool,
        num: Token,
        kind: FloatKind,
        allow_int: bool,
    ) -> R<u128> {
        let text = self.text(num);
        let width = kind.bit_width();
        if let Some(h) = text.strip_prefix("0x") {
            if negative {
                return Err(self.err(
                    num,
                    "hexadecimal float literal should not have a leading minus",
                ));
            }
            let bits = num::parse_hex(h)
                .filter(|&b| width >= 128 || b < (1u128 << width))
                .ok_or_else(|| self.err(num, "hexadecimal float constant out of range for type"))?;
            return Ok(bits);
        }
        if num.kind == Kind::Integer && !allow_int {
            return Err(self.err(
                num,
                "unexpected decimal integer literal for a floating point value",
            ));
        }
        let bits = num::float_bits_from_decimal(text, kind)
            .ok_or_else(|| self.err(num, "invalid floating point literal"))?;
        Ok(if negative {
            bits | (1u128 << (width - 1))
        } else {
            bits
        })
    }

    fn hash_attr(&mut self, t: Token) -> R<Attribute> {
        let body = self.after_sigil(t);
        let lt = body.find('<');
        let dot = body.find('.');
        let (dialect, rest) = match (dot, lt) {
            (Some(d), l) if l.is_none_or(|l| d < l) => (&body[..d], &body[d + 1..]),
            (_, Some(l)) => (&body[..l], &body[l..]),
            _ => {
                // The alias stands for the attribute being parsed, below
                // the others `attr_depth` counts.
                let attrs = self.attr_depth.saturating_sub(1);
                if let Some((a, m)) = self.attr_aliases.get(body) {
                    let (a, m) = (a.clone(), *m);
                    self.copy_alias(t, m, attrs, self.loc_depth)?;
                    return Ok(a);
                }
                if let Some(alias) = self.loc_aliases.get(body) {
                    if let Some(&index) = alias.pending.first() {
                        let (later, _) = self.loc_alias_refs[index as usize];
                        return Err(self.err(
                            t,
                            format!(
                                "location alias #{body} is used as an attribute before \
                                 #{later}, which it refers to, is defined"
                            ),
                        ));
                    }
                    let (l, m) = (alias.loc.clone(), alias.measure);
                    self.copy_alias(t, m, attrs + 1, self.loc_depth)?;
                    return Ok(Attribute::Location(Box::new(l)));
                }
                return Err(self.err(t, format!("undefined symbol alias id '{body}'")));
            }
        };
        if dialect.is_empty() || rest.is_empty() {
            return Err(self.err(t, "invalid dialect attribute"));
        }
        if dialect == "corert"
            && let Some(shape) = rest
                .strip_prefix("shape<")
                .and_then(|s| s.strip_suffix('>'))
            && let Some(dims) = parse_shape_body(shape)
        {
            return Ok(Attribute::Shape(dims));
        }
        Ok(Attribute::Dialect {
            dialect: dialect.to_string(),
            body: rest.to_string(),
        })
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
