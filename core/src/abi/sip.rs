//! The structured index path (SIP) signature: how a function's flat
//! arguments and results map onto nested sequences (integer keys) and
//! dicts (byte-string keys). `I<value>R<value>`, where a value is a leaf
//! `_N` (position N in the flat list), `S<(kN value)*>` or
//! `D<(K<key> value)*>`.
//!
//! [`visit`] reads one side and reports what it finds to a
//! [`SipVisitor`], in order, as the reference's parser does;
//! [`ToStringVisitor`] renders it in the reference's layout. Strict mode
//! (the default) rejects what the reference lets through: several root
//! values, a key without a value, `k` keys in a dict or `K` keys in a
//! sequence, keys out of order or repeated, negative keys and indices, a
//! leaf index used twice, and anything around the `I` and `R` spans.
//! [`Mode::Lenient`] accepts those, for old artifacts. Both modes bound
//! the nesting depth ([`MAX_NESTING`]).
//!
//! [`SipMangler`] builds a signature from each leaf's index path; unlike
//! the reference, which silently drops a leaf when a child path is added
//! under it, it refuses every path that conflicts with one already given.

use std::collections::HashSet;
use std::fmt;

use super::Mode;
use super::lexical::{Component, LexError, Lexer, SignatureBuilder, bytes_text};
use super::raw::Side;

/// How deeply sequences and dicts may nest.
pub const MAX_NESTING: usize = 64;

/// A sequence or a dict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StructKind {
    /// Integer keys (`S`).
    Sequence,
    /// Byte-string keys (`D`).
    Dict,
}

/// One step of an index path.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SipKey {
    /// A sequence position.
    Index(i32),
    /// A dict key.
    Name(Vec<u8>),
}

impl fmt::Display for SipKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SipKey::Index(i) => write!(f, "{i}"),
            SipKey::Name(name) => f.write_str(&bytes_text(name)),
        }
    }
}

/// A structured value: a leaf or a struct of keyed children.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SipNode {
    /// Position in the flat argument or result list.
    Leaf(i32),
    /// A sequence or dict; strict signatures have keys of the struct's
    /// kind, in ascending order.
    Struct {
        /// Sequence or dict.
        kind: StructKind,
        /// The children, in signature order.
        entries: Vec<(SipKey, SipNode)>,
    },
}

impl SipNode {
    fn mangle_into(&self, out: &mut SignatureBuilder) {
        match self {
            SipNode::Leaf(index) => {
                out.integer(b'_', *index);
            }
            SipNode::Struct { kind, entries } => {
                let mut inner = SignatureBuilder::new();
                for (key, child) in entries {
                    match key {
                        SipKey::Index(i) => inner.integer(b'k', *i),
                        SipKey::Name(name) => inner.span(b'K', name),
                    };
                    child.mangle_into(&mut inner);
                }
                let tag = match kind {
                    StructKind::Sequence => b'S',
                    StructKind::Dict => b'D',
                };
                inner.append_to(out, tag);
            }
        }
    }

    /// Every leaf with its index path, in signature order.
    pub fn leaves(&self) -> Vec<(Vec<SipKey>, i32)> {
        let mut out = Vec::new();
        let mut stack = vec![(Vec::new(), self)];
        while let Some((path, node)) = stack.pop() {
            match node {
                SipNode::Leaf(index) => out.push((path, *index)),
                SipNode::Struct { entries, .. } => {
                    for (key, child) in entries.iter().rev() {
                        let mut child_path = path.clone();
                        child_path.push(key.clone());
                        stack.push((child_path, child));
                    }
                }
            }
        }
        out
    }

    /// One line: `[0: leaf(0), 1: {a: leaf(1)}]`, each leaf shown by
    /// `leaf`.
    pub fn render(&self, leaf: &dyn Fn(i32) -> String) -> String {
        match self {
            SipNode::Leaf(index) => leaf(*index),
            SipNode::Struct { kind, entries } => {
                let items: Vec<String> = entries
                    .iter()
                    .map(|(key, child)| format!("{key}: {}", child.render(leaf)))
                    .collect();
                match kind {
                    StructKind::Sequence => format!("[{}]", items.join(", ")),
                    StructKind::Dict => format!("{{{}}}", items.join(", ")),
                }
            }
        }
    }
}

/// A SIP signature: the structure of the arguments and of the results
/// (`None`: nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SipSignature {
    /// The arguments' structure.
    pub inputs: Option<SipNode>,
    /// The results' structure.
    pub results: Option<SipNode>,
}

impl SipSignature {
    /// `I<value>R<value>`.
    pub fn mangle(&self) -> Vec<u8> {
        let mut out = SignatureBuilder::new();
        for (tag, node) in [(b'I', &self.inputs), (b'R', &self.results)] {
            let mut side = SignatureBuilder::new();
            if let Some(node) = node {
                node.mangle_into(&mut side);
            }
            side.append_to(&mut out, tag);
        }
        out.into_bytes()
    }

    /// The signature in `bytes`. In lenient mode a key without a value is
    /// dropped; several root values are an error in both modes (a tree
    /// has one root).
    pub fn parse(bytes: &[u8], mode: Mode) -> Result<SipSignature, SipError> {
        let mut signature = SipSignature::default();
        for (side, out) in [
            (Side::Input, &mut signature.inputs),
            (Side::Result, &mut signature.results),
        ] {
            let mut builder = TreeBuilder::default();
            visit(bytes, side, mode, &mut builder)?;
            if builder.roots.len() > 1 {
                return Err(SipError::at(0, SipErrorKind::SeveralRootValues));
            }
            *out = builder.roots.pop();
        }
        Ok(signature)
    }
}

/// Receives what [`visit`] reads, in order.
pub trait SipVisitor {
    /// A sequence or dict starts.
    fn begin_struct(&mut self, kind: StructKind);
    /// An integer key.
    fn int_key(&mut self, key: i32);
    /// A string key.
    fn string_key(&mut self, key: &[u8]);
    /// A leaf: a position in the flat list.
    fn raw_index(&mut self, index: i32);
    /// The innermost open struct ends (also when an error stops it).
    fn end_struct(&mut self);
}

/// Why a SIP signature does not read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} at byte {offset}")]
pub struct SipError {
    /// The byte offset in the signature.
    pub offset: usize,
    /// What is wrong.
    pub what: SipErrorKind,
}

impl SipError {
    fn at(offset: usize, what: SipErrorKind) -> SipError {
        SipError { offset, what }
    }
}

/// What is wrong with a SIP signature.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SipErrorKind {
    /// A malformed component.
    #[error("syntax error in signature: {}", .0.what)]
    Syntax(LexError),
    /// No `I` span.
    #[error("inputs struct not found")]
    InputsNotFound,
    /// No `R` span.
    #[error("results struct not found")]
    ResultsNotFound,
    /// Something after the `R` span (strict).
    #[error("unexpected component after the results span")]
    Trailing,
    /// A key outside a struct, or a key right after a key.
    #[error("struct key not allowed here")]
    KeyNotAllowed,
    /// A value without a key inside a struct.
    #[error("value not allowed here")]
    ValueNotAllowed,
    /// A tag that is no key or value.
    #[error("unrecognized tag '{}'", bytes_text(&[*.0]))]
    UnrecognizedTag(u8),
    /// More than one value at the root (strict).
    #[error("several root values")]
    SeveralRootValues,
    /// A key without a value (strict).
    #[error("key without a value")]
    DanglingKey,
    /// A `k` key in a dict or `K` key in a sequence (strict).
    #[error("{0}")]
    KeyKind(&'static str),
    /// Keys not in ascending order, or repeated (strict).
    #[error("key {0} is not after the previous key")]
    KeyOrder(String),
    /// A negative integer key (strict).
    #[error("negative sequence key {0}")]
    NegativeKey(i32),
    /// A negative leaf index (strict).
    #[error("negative raw index {0}")]
    NegativeIndex(i32),
    /// A leaf index used twice on one side (strict).
    #[error("raw index {0} appears twice")]
    DuplicateIndex(i32),
    /// Structs nested deeper than [`MAX_NESTING`].
    #[error("structs nest deeper than {MAX_NESTING} levels")]
    TooDeep,
}

/// Reads the `side` structure of the signature `signature` and reports it
/// to `visitor`. On an error, what was read before it has been reported,
/// every open struct included.
pub fn visit(
    signature: &[u8],
    side: Side,
    mode: Mode,
    visitor: &mut dyn SipVisitor,
) -> Result<(), SipError> {
    let (bytes, base) = side_span(signature, side, mode)?;
    let mut parser = Parser {
        mode,
        visitor,
        seen: HashSet::new(),
    };
    parser.root(bytes, base)
}

/// The contents of the `side` span and their offset.
fn side_span(signature: &[u8], side: Side, mode: Mode) -> Result<(&[u8], usize), SipError> {
    let mut lexer = Lexer::new(signature);
    let mut found: [Option<(&[u8], usize)>; 2] = [None, None];
    let wanted = match side {
        Side::Input => 0,
        Side::Result => 1,
    };
    let syntax = |e: LexError| SipError::at(e.offset, SipErrorKind::Syntax(e));
    match mode {
        Mode::Strict => {
            for (slot, tag, missing) in [
                (0, b'I', SipErrorKind::InputsNotFound),
                (1, b'R', SipErrorKind::ResultsNotFound),
            ] {
                let offset = lexer.offset();
                match lexer.next_component().transpose().map_err(syntax)? {
                    Some(Component::Span { tag: t, bytes }) if t == tag => {
                        found[slot] = Some((bytes, lexer.offset() - bytes.len()));
                    }
                    _ => return Err(SipError::at(offset, missing)),
                }
            }
            let offset = lexer.offset();
            if lexer.next_component().is_some() {
                return Err(SipError::at(offset, SipErrorKind::Trailing));
            }
        }
        Mode::Lenient => {
            // The reference seeks the span's tag among the components.
            while found[wanted].is_none() {
                match lexer.next_component().transpose().map_err(syntax)? {
                    None => break,
                    Some(Component::Span { tag, bytes }) if tag == [b'I', b'R'][wanted] => {
                        found[wanted] = Some((bytes, lexer.offset() - bytes.len()));
                    }
                    Some(_) => {}
                }
            }
        }
    }
    found[wanted].ok_or_else(|| {
        SipError::at(
            signature.len(),
            match side {
                Side::Input => SipErrorKind::InputsNotFound,
                Side::Result => SipErrorKind::ResultsNotFound,
            },
        )
    })
}

struct Parser<'v> {
    mode: Mode,
    visitor: &'v mut dyn SipVisitor,
    /// Leaf indices seen (strict).
    seen: HashSet<i32>,
}

impl Parser<'_> {
    fn strict(&self) -> bool {
        self.mode == Mode::Strict
    }

    fn root(&mut self, bytes: &[u8], base: usize) -> Result<(), SipError> {
        let mut lexer = Lexer::new(bytes);
        let mut values = 0;
        loop {
            let offset = base + lexer.offset();
            let Some(component) = lexer.next_component() else {
                return Ok(());
            };
            let component = component
                .map_err(|e| SipError::at(base + e.offset, SipErrorKind::Syntax(e.clone())))?;
            match component {
                Component::Integer { tag: b'k', .. } | Component::Span { tag: b'K', .. } => {
                    return Err(SipError::at(offset, SipErrorKind::KeyNotAllowed));
                }
                value => {
                    if self.strict() && values > 0 {
                        return Err(SipError::at(offset, SipErrorKind::SeveralRootValues));
                    }
                    self.value(value, offset, base + lexer.offset(), 0)?;
                    values += 1;
                }
            }
        }
    }

    /// A leaf or struct component starting at `offset`, its end at `end`.
    fn value(
        &mut self,
        component: Component<'_>,
        offset: usize,
        end: usize,
        depth: usize,
    ) -> Result<(), SipError> {
        match component {
            Component::Integer { tag: b'_', value } => {
                if self.strict() {
                    if value < 0 {
                        return Err(SipError::at(offset, SipErrorKind::NegativeIndex(value)));
                    }
                    if !self.seen.insert(value) {
                        return Err(SipError::at(offset, SipErrorKind::DuplicateIndex(value)));
                    }
                }
                self.visitor.raw_index(value);
                Ok(())
            }
            Component::Span { tag, bytes } if tag == b'S' || tag == b'D' => {
                if depth >= MAX_NESTING {
                    return Err(SipError::at(offset, SipErrorKind::TooDeep));
                }
                let kind = if tag == b'S' {
                    StructKind::Sequence
                } else {
                    StructKind::Dict
                };
                self.visitor.begin_struct(kind);
                let result = self.entries(kind, bytes, end - bytes.len(), depth + 1);
                self.visitor.end_struct();
                result
            }
            other => Err(SipError::at(
                offset,
                SipErrorKind::UnrecognizedTag(other.tag()),
            )),
        }
    }

    fn entries(
        &mut self,
        kind: StructKind,
        bytes: &[u8],
        base: usize,
        depth: usize,
    ) -> Result<(), SipError> {
        let mut lexer = Lexer::new(bytes);
        let mut pending_key = None;
        let mut last_key: Option<SipKey> = None;
        loop {
            let offset = base + lexer.offset();
            let Some(component) = lexer.next_component() else {
                if self.strict() && pending_key.is_some() {
                    return Err(SipError::at(offset, SipErrorKind::DanglingKey));
                }
                return Ok(());
            };
            let component = component
                .map_err(|e| SipError::at(base + e.offset, SipErrorKind::Syntax(e.clone())))?;
            let key = match component {
                Component::Integer { tag: b'k', value } => Some(SipKey::Index(value)),
                Component::Span { tag: b'K', bytes } => Some(SipKey::Name(bytes.to_vec())),
                _ => None,
            };
            match key {
                Some(key) => {
                    if pending_key.is_some() {
                        return Err(SipError::at(offset, SipErrorKind::KeyNotAllowed));
                    }
                    if self.strict() {
                        self.check_key(kind, &key, last_key.as_ref(), offset)?;
                    }
                    match &key {
                        SipKey::Index(i) => self.visitor.int_key(*i),
                        SipKey::Name(name) => self.visitor.string_key(name),
                    }
                    last_key = Some(key.clone());
                    pending_key = Some(key);
                }
                None => {
                    if !matches!(
                        component,
                        Component::Integer { tag: b'_', .. }
                            | Component::Span {
                                tag: b'S' | b'D',
                                ..
                            }
                    ) {
                        return Err(SipError::at(
                            offset,
                            SipErrorKind::UnrecognizedTag(component.tag()),
                        ));
                    }
                    if pending_key.take().is_none() {
                        return Err(SipError::at(offset, SipErrorKind::ValueNotAllowed));
                    }
                    self.value(component, offset, base + lexer.offset(), depth)?;
                }
            }
        }
    }

    fn check_key(
        &self,
        kind: StructKind,
        key: &SipKey,
        last: Option<&SipKey>,
        offset: usize,
    ) -> Result<(), SipError> {
        match (kind, key) {
            (StructKind::Sequence, SipKey::Name(_)) => Err(SipError::at(
                offset,
                SipErrorKind::KeyKind("a string key in a sequence"),
            )),
            (StructKind::Dict, SipKey::Index(_)) => Err(SipError::at(
                offset,
                SipErrorKind::KeyKind("an integer key in a dict"),
            )),
            (_, SipKey::Index(i)) if *i < 0 => {
                Err(SipError::at(offset, SipErrorKind::NegativeKey(*i)))
            }
            _ if last.is_some_and(|last| last >= key) => Err(SipError::at(
                offset,
                SipErrorKind::KeyOrder(key.to_string()),
            )),
            _ => Ok(()),
        }
    }
}

/// A struct being read: its kind, its entries, and the key awaiting a
/// value.
type OpenStruct = (StructKind, Vec<(SipKey, SipNode)>, Option<SipKey>);

/// Builds the tree of one side.
#[derive(Default)]
struct TreeBuilder {
    roots: Vec<SipNode>,
    open: Vec<OpenStruct>,
}

impl TreeBuilder {
    fn place(&mut self, node: SipNode) {
        match self.open.last_mut() {
            Some((_, entries, key)) => {
                if let Some(key) = key.take() {
                    entries.push((key, node));
                }
            }
            None => self.roots.push(node),
        }
    }
}

impl SipVisitor for TreeBuilder {
    fn begin_struct(&mut self, kind: StructKind) {
        self.open.push((kind, Vec::new(), None));
    }

    fn int_key(&mut self, key: i32) {
        if let Some((_, _, pending)) = self.open.last_mut() {
            *pending = Some(SipKey::Index(key));
        }
    }

    fn string_key(&mut self, key: &[u8]) {
        if let Some((_, _, pending)) = self.open.last_mut() {
            *pending = Some(SipKey::Name(key.to_vec()));
        }
    }

    fn raw_index(&mut self, index: i32) {
        self.place(SipNode::Leaf(index));
    }

    fn end_struct(&mut self) {
        if let Some((kind, entries, _)) = self.open.pop() {
            self.place(SipNode::Struct { kind, entries });
        }
    }
}

/// Renders what it visits in the layout of the reference's
/// `ToStringVisitor`: a leaf is `=raw(N),`, a struct `:[` or `:{` with
/// its entries indented by two spaces per level, each a key then its
/// value, closed by `],` or `},`; one line each.
#[derive(Default, Debug)]
pub struct ToStringVisitor {
    out: String,
    /// The closing bracket of each open struct.
    closers: Vec<char>,
}

impl ToStringVisitor {
    /// What has been rendered.
    pub fn text(&self) -> &str {
        &self.out
    }

    fn indent(&mut self) {
        for _ in 0..self.closers.len() {
            self.out.push_str("  ");
        }
    }
}

impl SipVisitor for ToStringVisitor {
    fn begin_struct(&mut self, kind: StructKind) {
        let (open, close) = match kind {
            StructKind::Sequence => ('[', ']'),
            StructKind::Dict => ('{', '}'),
        };
        self.out.push(':');
        self.out.push(open);
        self.out.push('\n');
        self.closers.push(close);
    }

    fn int_key(&mut self, key: i32) {
        self.indent();
        self.out.push_str(&key.to_string());
    }

    fn string_key(&mut self, key: &[u8]) {
        self.indent();
        self.out.push_str(&bytes_text(key));
    }

    fn raw_index(&mut self, index: i32) {
        self.out.push_str(&format!("=raw({index}),\n"));
    }

    fn end_struct(&mut self) {
        let close = self.closers.pop().unwrap_or(']');
        self.indent();
        self.out.push(close);
        self.out.push_str(",\n");
    }
}

/// Builds a SIP signature from each leaf's index path.
#[derive(Clone, Debug, Default)]
pub struct SipMangler {
    inputs: Option<SipNode>,
    results: Option<SipNode>,
}

/// Why an index path cannot be added.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SipMangleError {
    /// A negative flat index.
    #[error("raw index {0} is negative")]
    NegativeIndex(i32),
    /// A negative sequence key.
    #[error("sequence key {0} is negative")]
    NegativeKey(i32),
    /// A key of the other kind than the struct already at that path.
    #[error("path step {step} is a {given} key but the struct there is a {existing}")]
    KindMismatch {
        /// Which step of the path.
        step: usize,
        /// The key's kind.
        given: &'static str,
        /// The struct's kind.
        existing: &'static str,
    },
    /// The path, or a prefix of it, already ends at a leaf.
    #[error("path step {step} goes below the leaf raw({leaf})")]
    BelowLeaf {
        /// Which step of the path.
        step: usize,
        /// The leaf there.
        leaf: i32,
    },
    /// The path already holds a leaf or a struct.
    #[error("the path is already assigned")]
    Occupied,
    /// The path is longer than [`MAX_NESTING`].
    #[error("the path is longer than {MAX_NESTING} steps")]
    TooDeep,
}

fn kind_name(kind: StructKind) -> &'static str {
    match kind {
        StructKind::Sequence => "sequence",
        StructKind::Dict => "dict",
    }
}

impl SipMangler {
    /// An empty signature.
    pub fn new() -> SipMangler {
        SipMangler::default()
    }

    /// Maps the flat argument or result `raw_index` to `path`.
    pub fn set_raw_index(
        &mut self,
        side: Side,
        path: &[SipKey],
        raw_index: i32,
    ) -> Result<(), SipMangleError> {
        if raw_index < 0 {
            return Err(SipMangleError::NegativeIndex(raw_index));
        }
        if path.len() > MAX_NESTING {
            return Err(SipMangleError::TooDeep);
        }
        if let Some(&SipKey::Index(i)) = path
            .iter()
            .find(|k| matches!(k, SipKey::Index(i) if *i < 0))
        {
            return Err(SipMangleError::NegativeKey(i));
        }
        let root = match side {
            Side::Input => &mut self.inputs,
            Side::Result => &mut self.results,
        };
        // Checked before anything changes, so that a refused path leaves
        // the signature as it was.
        check_path(root.as_ref(), path)?;
        match root {
            Some(node) => insert(node, path, raw_index),
            None => *root = Some(chain(path, raw_index)),
        }
        Ok(())
    }

    /// The signature.
    pub fn signature(&self) -> SipSignature {
        SipSignature {
            inputs: self.inputs.clone(),
            results: self.results.clone(),
        }
    }

    /// The signature, mangled.
    pub fn mangle(&self) -> Vec<u8> {
        self.signature().mangle()
    }
}

fn key_kind(key: &SipKey) -> StructKind {
    match key {
        SipKey::Index(_) => StructKind::Sequence,
        SipKey::Name(_) => StructKind::Dict,
    }
}

fn check_path(mut node: Option<&SipNode>, path: &[SipKey]) -> Result<(), SipMangleError> {
    for (step, key) in path.iter().enumerate() {
        match node {
            None => return Ok(()),
            Some(SipNode::Leaf(leaf)) => {
                return Err(SipMangleError::BelowLeaf { step, leaf: *leaf });
            }
            Some(SipNode::Struct { kind, entries }) => {
                if *kind != key_kind(key) {
                    return Err(SipMangleError::KindMismatch {
                        step,
                        given: kind_name(key_kind(key)),
                        existing: kind_name(*kind),
                    });
                }
                node = entries.iter().find(|(k, _)| k == key).map(|(_, n)| n);
            }
        }
    }
    match node {
        None => Ok(()),
        Some(_) => Err(SipMangleError::Occupied),
    }
}

/// Adds the leaf below an existing struct; [`check_path`] has accepted
/// the path, so it is not empty and every existing node on it is a struct
/// of its key's kind.
fn insert(node: &mut SipNode, path: &[SipKey], raw_index: i32) {
    let (Some((key, rest)), SipNode::Struct { entries, .. }) = (path.split_first(), node) else {
        return;
    };
    match entries.binary_search_by(|(k, _)| k.cmp(key)) {
        Ok(at) => insert(&mut entries[at].1, rest, raw_index),
        Err(at) => entries.insert(at, (key.clone(), chain(rest, raw_index))),
    }
}

/// The structs `path` goes through, ending at the leaf.
fn chain(path: &[SipKey], raw_index: i32) -> SipNode {
    path.iter()
        .rev()
        .fold(SipNode::Leaf(raw_index), |node, key| SipNode::Struct {
            kind: key_kind(key),
            entries: vec![(key.clone(), node)],
        })
}
