//! The MLIR text printer: custom forms by default (where an op matches its
//! form exactly), the generic form on request, locations with
//! `debug_info`. Values are named MLIR-style, `%argN` for block arguments
//! and `%N` (`%N:k` / `%N#i` for several results) for op results, with
//! counters restarting in every function (and module).

use std::fmt::Write;

use rustc_hash::FxHashSet;

use super::PrintOptions;
use super::custom::{keyword_for, lookup, op_name};
use super::dense::{write_dense, write_dense_array};
use super::lexer::is_bare_identifier;
use super::num::format_float;
use crate::ir::{
    Attribute, FloatKind, Location, Module, NamedAttribute, Op, Region, Signedness, Type, ValueId,
};

#[derive(Debug, Clone, Copy, Default)]
struct Name {
    /// 0: unnamed, 1: `%argN`, 2: `%N` / `%N#sub`
    kind: u8,
    num: u32,
    sub: u32,
}

const NO_SUB: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryMode {
    /// Entry block arguments are printed in a `^bb0(...)` header.
    Generic,
    /// The op supplies the entry block's arguments (signature, operands).
    Implicit,
    /// `module { ... }`: one block, never a header.
    ModuleBody,
}

#[derive(Default)]
struct Counters {
    arg: u32,
    res: u32,
}

pub(crate) struct Printer<'m> {
    pub m: &'m Module,
    pub opts: PrintOptions,
    pub out: String,
    depth: usize,
    names: Vec<Name>,
    pub shadowed: FxHashSet<*const Op>,
    /// Whether the op after the one being printed binds results (a bare
    /// `tfrt.return` would swallow its `%name` as an operand).
    pub next_has_results: bool,
}

/// Ops whose regions start a new naming (and parsing) scope.
fn starts_scope(op: &Op) -> bool {
    op.name == crate::ir::FUNC_OP || op.name == crate::ir::MODULE_OP
}

pub(crate) fn print_module(m: &Module, opts: PrintOptions) -> String {
    let mut p = Printer {
        m,
        opts,
        out: String::with_capacity(1024),
        depth: 0,
        names: vec![Name::default(); m.values.len()],
        shadowed: FxHashSet::default(),
        next_has_results: false,
    };
    let mut c = Counters::default();
    p.name_results(&m.op, &mut c);
    if opts.generic {
        p.name_unique(&m.op, &mut c);
    }
    p.print_op(&m.op);
    p.out
}

impl Printer<'_> {
    // ---- naming -------------------------------------------------------

    fn set_name(&mut self, v: ValueId, name: Name) {
        if let Some(slot) = self.names.get_mut(v.index()) {
            *slot = name;
        }
    }

    fn name_of(&self, v: ValueId) -> Name {
        self.names.get(v.index()).copied().unwrap_or_default()
    }

    fn name_results(&mut self, op: &Op, c: &mut Counters) {
        match op.results.len() {
            0 => {}
            1 => {
                self.set_name(
                    op.results[0],
                    Name {
                        kind: 2,
                        num: c.res,
                        sub: NO_SUB,
                    },
                );
                c.res += 1;
            }
            _ => {
                for (i, &r) in op.results.iter().enumerate() {
                    self.set_name(
                        r,
                        Name {
                            kind: 2,
                            num: c.res,
                            sub: i as u32,
                        },
                    );
                }
                c.res += 1;
            }
        }
    }

    /// Upstream's generic form names values uniquely across the whole
    /// module, numbering regions from a stack (the last region pushed is
    /// numbered next; an op's regions are pushed after its parent region
    /// is numbered), entry-block arguments as `%argN` and other block
    /// arguments as plain `%N`.
    fn name_unique(&mut self, root: &Op, c: &mut Counters) {
        let mut stack: Vec<&Region> = root.regions.iter().collect();
        while let Some(region) = stack.pop() {
            for (bi, block) in region.blocks.iter().enumerate() {
                for &arg in &block.arguments {
                    let counter = if bi == 0 { &mut c.arg } else { &mut c.res };
                    let name = Name {
                        kind: if bi == 0 { 1 } else { 2 },
                        num: *counter,
                        sub: NO_SUB,
                    };
                    *counter += 1;
                    self.set_name(arg, name);
                }
                for op in &block.ops {
                    self.name_results(op, c);
                }
            }
            for block in &region.blocks {
                for op in &block.ops {
                    stack.extend(op.regions.iter());
                }
            }
        }
    }

    fn name_regions(&mut self, op: &Op, c: &mut Counters) {
        let mut shadow = None;
        if !self.opts.generic {
            let kw = keyword_for(&op.name);
            if let Some(form) = lookup(kw).filter(|_| op_name(kw) == op.name) {
                shadow = self
                    .shadow_operands(op, &form)
                    .filter(|names| names.iter().all(|v| self.name_of(*v).kind != 0));
            }
        }
        if shadow.is_some() {
            self.shadowed.insert(op as *const Op);
        }
        for region in &op.regions {
            for (bi, block) in region.blocks.iter().enumerate() {
                for (ai, &arg) in block.arguments.iter().enumerate() {
                    let name = match &shadow {
                        Some(names) if bi == 0 => self.name_of(names[ai]),
                        _ => {
                            c.arg += 1;
                            Name {
                                kind: 1,
                                num: c.arg - 1,
                                sub: NO_SUB,
                            }
                        }
                    };
                    self.set_name(arg, name);
                }
                for inner in &block.ops {
                    self.name_results(inner, c);
                    if !starts_scope(inner) {
                        self.name_regions(inner, c);
                    }
                }
            }
        }
    }

    // ---- pieces -----------------------------------------------------------

    pub(crate) fn value(&mut self, v: ValueId) {
        let n = self.name_of(v);
        let _ = match n.kind {
            1 => write!(self.out, "%arg{}", n.num),
            2 if n.sub == NO_SUB => write!(self.out, "%{}", n.num),
            2 => write!(self.out, "%{}#{}", n.num, n.sub),
            _ => write!(self.out, "%undefined{}", v.0),
        };
    }

    pub(crate) fn values(&mut self, vs: &[ValueId]) {
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(v);
        }
    }

    pub(crate) fn value_types(&mut self, vs: &[ValueId]) {
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "{}", self.m.value_type(v));
        }
    }

    /// `(a, b) -> r`; `paren_results` always parenthesizes the results.
    pub(crate) fn function_type(
        &mut self,
        inputs: &[ValueId],
        results: &[ValueId],
        paren_results: bool,
    ) {
        self.out.push('(');
        self.value_types(inputs);
        self.out.push_str(") -> ");
        let single =
            results.len() == 1 && !matches!(self.m.value_type(results[0]), Type::Function { .. });
        if single && !paren_results {
            self.value_types(results);
        } else {
            self.out.push('(');
            self.value_types(results);
            self.out.push(')');
        }
    }

    pub(crate) fn attr(&mut self, a: &Attribute) {
        write_attr_styled(&mut self.out, a, self.opts.generic);
    }

    pub(crate) fn symbol(&mut self, name: &str) {
        write_symbol(&mut self.out, name);
    }

    /// ` {k = v, ...}` of the attributes not in `skip`, nothing if none.
    pub(crate) fn attr_dict(&mut self, attrs: &[NamedAttribute], skip: &[&str]) {
        let mut first = true;
        for (k, v) in attrs {
            if skip.contains(&k.as_str()) {
                continue;
            }
            self.out.push_str(if first { " {" } else { ", " });
            first = false;
            write_entry(&mut self.out, k, v, self.opts.generic);
        }
        if !first {
            self.out.push('}');
        }
    }

    /// ` attributes {...}` of the attributes not in `skip`, nothing if none.
    pub(crate) fn attributes_keyword(&mut self, attrs: &[NamedAttribute], skip: &[&str]) {
        if attrs.iter().any(|(k, _)| !skip.contains(&k.as_str())) {
            self.out.push_str(" attributes");
            self.attr_dict(attrs, skip);
        }
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    // ---- ops and regions ----------------------------------------------------

    fn print_op(&mut self, op: &Op) {
        self.indent(self.depth);
        match op.results.len() {
            0 => {}
            1 => {
                self.value(op.results[0]);
                self.out.push_str(" = ");
            }
            n => {
                let first = self.name_of(op.results[0]);
                if first.kind == 2 {
                    let _ = write!(self.out, "%{}:{n} = ", first.num);
                } else {
                    self.values(&op.results);
                    self.out.push_str(" = ");
                }
            }
        }
        // The generic form is named once, up front (`name_unique`).
        if starts_scope(op) && !self.opts.generic {
            let mut c = Counters::default();
            self.name_regions(op, &mut c);
        }
        let mark = self.out.len();
        let mut done = false;
        if !self.opts.generic {
            let kw = keyword_for(&op.name);
            if let Some(form) = lookup(kw).filter(|_| op_name(kw) == op.name) {
                self.out.push_str(kw);
                done = self.print_custom(op, &form);
                if !done {
                    self.out.truncate(mark);
                }
            }
        }
        if !done {
            self.print_generic(op);
        }
        if self.opts.debug_info {
            self.out.push(' ');
            write_location(&mut self.out, &op.location);
        }
        self.out.push('\n');
    }

    fn print_generic(&mut self, op: &Op) {
        write_string(&mut self.out, op.name.as_bytes());
        self.out.push('(');
        self.values(&op.operands);
        self.out.push(')');
        if !op.successors.is_empty() {
            self.out.push('[');
            for (i, s) in op.successors.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                let _ = write!(self.out, "^bb{s}");
            }
            self.out.push(']');
        }
        let inherent = inherent_attributes(op);
        if let Some(p) = &op.properties {
            self.out.push_str(" <");
            self.attr(p);
            self.out.push('>');
        } else if op
            .attributes
            .iter()
            .any(|(k, _)| inherent.contains(&k.as_str()))
        {
            // As MLIR prints an op whose inherent attributes are properties.
            self.out.push_str(" <{");
            let mut first = true;
            // In name order, as MLIR prints properties.
            let present = inherent
                .iter()
                .filter_map(|name| op.attributes.iter().find(|(k, _)| k == name));
            for (k, v) in present {
                if !first {
                    self.out.push_str(", ");
                }
                first = false;
                write_entry(&mut self.out, k, v, self.opts.generic);
            }
            self.out.push_str("}>");
        }
        if !op.regions.is_empty() {
            self.out.push_str(" (");
            for (i, r) in op.regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.region(r, EntryMode::Generic);
            }
            self.out.push(')');
        }
        self.attr_dict(&op.attributes, inherent);
        self.out.push_str(" : ");
        self.function_type(&op.operands, &op.results, false);
    }

    pub(crate) fn region(&mut self, r: &Region, mode: EntryMode) {
        self.out.push_str("{\n");
        self.depth += 1;
        for (i, block) in r.blocks.iter().enumerate() {
            let header = i > 0
                || match mode {
                    EntryMode::Generic => !block.arguments.is_empty() || block.ops.is_empty(),
                    EntryMode::Implicit => block.arguments.is_empty() && block.ops.is_empty(),
                    EntryMode::ModuleBody => false,
                };
            if header {
                self.indent(self.depth - 1);
                let _ = write!(self.out, "^bb{i}");
                if !block.arguments.is_empty() {
                    self.out.push('(');
                    for (j, &a) in block.arguments.iter().enumerate() {
                        if j > 0 {
                            self.out.push_str(", ");
                        }
                        self.value(a);
                        let _ = write!(self.out, ": {}", self.m.value_type(a));
                        if self.opts.debug_info
                            && let Some(loc) = &self.m.values[a.index()].location
                        {
                            self.out.push(' ');
                            write_location(&mut self.out, loc);
                        }
                    }
                    self.out.push(')');
                }
                self.out.push_str(":\n");
            }
            for (k, op) in block.ops.iter().enumerate() {
                self.next_has_results = block.ops.get(k + 1).is_some_and(|n| !n.results.is_empty());
                self.print_op(op);
            }
        }
        self.depth -= 1;
        self.indent(self.depth);
        self.out.push('}');
    }
}

/// The attributes MLIR stores as properties of `op` and so prints, in the
/// generic form, as `<{...}>` before the regions rather than in the
/// trailing dictionary: nothing for an op whose properties are kept apart
/// already (`Op::properties`) or whose attributes are all discardable.
fn inherent_attributes(op: &Op) -> &'static [&'static str] {
    if op.properties.is_some() {
        return &[];
    }
    inherent_attribute_names(&op.name)
}

/// The names of an op's inherent attributes that the IR keeps in its
/// dictionary while MLIR keeps them as properties, in name order.
pub(crate) fn inherent_attribute_names(op_name: &str) -> &'static [&'static str] {
    match op_name {
        crate::ir::FUNC_OP => &[
            "arg_attrs",
            "function_type",
            "res_attrs",
            "sym_name",
            "sym_visibility",
        ],
        _ => &[],
    }
}

// ---- attributes, strings, locations (free functions) ----------------------

/// `"..."` with MLIR escapes: printable ASCII except `"` and `\` as is,
/// everything else as `\XX`.
pub(crate) fn write_string(out: &mut String, bytes: &[u8]) {
    out.push('"');
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            out.push(b as char);
        } else {
            let _ = write!(out, "\\{b:02X}");
        }
    }
    out.push('"');
}

pub(crate) fn write_symbol(out: &mut String, name: &str) {
    out.push('@');
    if is_bare_identifier(name) {
        out.push_str(name);
    } else {
        write_string(out, name.as_bytes());
    }
}

fn write_entry(out: &mut String, key: &str, value: &Attribute, modern: bool) {
    if is_bare_identifier(key) {
        out.push_str(key);
    } else {
        write_string(out, key.as_bytes());
    }
    if *value != Attribute::Unit {
        out.push_str(" = ");
        write_attr_styled(out, value, modern);
    }
}

/// `write_attr` with the default type elided, as upstream prints
/// attributes whose context implies it.
pub(crate) fn write_attr_elided(out: &mut String, a: &Attribute) {
    write_attr_elided_styled(out, a, true);
}

/// `write_attr_elided` in the given style for what is not elided.
fn write_attr_elided_styled(out: &mut String, a: &Attribute, modern: bool) {
    match a {
        Attribute::Integer {
            value,
            ty:
                Type::Integer {
                    width: 64,
                    signedness: Signedness::Signless,
                },
        } => {
            let _ = write!(out, "{value}");
        }
        Attribute::Float {
            bits,
            ty: Type::Float(FloatKind::F64),
        } => {
            let text = format_float(*bits, FloatKind::F64);
            // A value printed in hex (NaN, infinity) keeps its type, as
            // upstream prints it: a bare hex literal reads as an integer.
            let hex = text.starts_with("0x");
            out.push_str(&text);
            if hex {
                out.push_str(" : f64");
            }
        }
        _ => write_attr_styled(out, a, modern),
    }
}

pub(crate) fn write_attr(out: &mut String, a: &Attribute) {
    write_attr_styled(out, a, false);
}

/// `modern`: spell what TFRT's MLIR and today's upstream print
/// differently as upstream does (the generic form follows upstream, the
/// custom form TFRT). Array elements drop a default i64/f64 type in both
/// (`[1, 2.5]`), as the MLIR of the reference's test suite prints them.
fn write_attr_styled(out: &mut String, a: &Attribute, modern: bool) {
    match a {
        Attribute::Unit => out.push_str("unit"),
        Attribute::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Attribute::Integer { value, ty } => {
            let _ = write!(out, "{value} : {ty}");
        }
        Attribute::Float { bits, ty } => {
            let text = match ty {
                Type::Float(kind) => format_float(*bits, *kind),
                _ => format!("0x{bits:X}"),
            };
            let _ = write!(out, "{text} : {ty}");
        }
        Attribute::String { value, ty } => {
            write_string(out, value);
            if let Some(ty) = ty {
                let _ = write!(out, " : {ty}");
            }
        }
        Attribute::Type(ty) => {
            let _ = write!(out, "{ty}");
        }
        Attribute::SymbolRef { root, nested } => {
            write_symbol(out, root);
            for n in nested {
                out.push_str("::");
                write_symbol(out, n);
            }
        }
        Attribute::Array(items) => write_array(out, items, modern),
        Attribute::Dictionary(entries) => write_dictionary(out, entries, modern),
        Attribute::DenseElements(d) => {
            write_dense(out, d);
            let _ = write!(out, " : {}", d.ty);
        }
        Attribute::DenseArray { element, data } => write_dense_array(out, element, data),
        Attribute::Shape(dims) => write_shape(out, dims.as_deref()),
        Attribute::Location(loc) => write_location(out, loc),
        Attribute::WideInteger { words, ty } => write_wide_integer(out, words, ty),
        Attribute::AffineMap(map) => {
            let _ = write!(out, "affine_map<{map}>");
        }
        Attribute::IntegerSet(set) => {
            let _ = write!(out, "affine_set<{set}>");
        }
        Attribute::StridedLayout { offset, strides } => write_strided_layout(out, *offset, strides),
        Attribute::Distinct { id, referenced } => {
            let _ = write!(out, "distinct[{id}]<");
            write_attr_styled(out, referenced, modern);
            out.push('>');
        }
        Attribute::DenseResource { ty, handle } => write_dense_resource(out, ty, handle),
        Attribute::DenseStrings { ty, splat, values } => {
            write_dense_strings(out, ty, *splat, values)
        }
        Attribute::Sparse {
            ty,
            indices,
            values,
        } => {
            out.push_str("sparse<");
            write_dense_body(out, indices, modern);
            out.push_str(", ");
            write_dense_body(out, values, modern);
            let _ = write!(out, "> : {ty}");
        }
        Attribute::Dialect { dialect, body } => write_dialect_attr(out, dialect, body),
    }
}

fn write_array(out: &mut String, items: &[Attribute], modern: bool) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_attr_elided_styled(out, item, modern);
    }
    out.push(']');
}

fn write_dictionary(out: &mut String, entries: &[(String, Attribute)], modern: bool) {
    out.push('{');
    for (i, (k, v)) in entries.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_entry(out, k, v, modern);
    }
    out.push('}');
}

/// `#corert.shape<2x?x3>`, `#corert.shape<*>` when unranked.
fn write_shape(out: &mut String, dims: Option<&[i64]>) {
    out.push_str("#corert.shape<");
    match dims {
        None => out.push('*'),
        Some(dims) => {
            for (i, d) in dims.iter().enumerate() {
                if i > 0 {
                    out.push('x');
                }
                if *d < 0 {
                    out.push('?');
                } else {
                    let _ = write!(out, "{d}");
                }
            }
        }
    }
    out.push('>');
}

fn write_wide_integer(out: &mut String, words: &[u64], ty: &Type) {
    let unsigned = matches!(
        ty,
        Type::Integer {
            signedness: crate::ir::Signedness::Unsigned,
            ..
        }
    );
    let width = match ty {
        Type::Integer { width, .. } => *width,
        _ => 64 * words.len() as u32,
    };
    let _ = write!(out, "{} : {ty}", wide_decimal(words, width, unsigned));
}

fn write_strided_layout(out: &mut String, offset: i64, strides: &[i64]) {
    out.push_str("strided<[");
    for (i, s) in strides.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_dynamic(out, *s);
    }
    out.push(']');
    if offset != 0 {
        out.push_str(", offset: ");
        write_dynamic(out, offset);
    }
    out.push('>');
}

fn write_dense_resource(out: &mut String, ty: &Type, handle: &str) {
    out.push_str("dense_resource<");
    if is_bare_identifier(handle) {
        out.push_str(handle);
    } else {
        write_string(out, handle.as_bytes());
    }
    let _ = write!(out, "> : {ty}");
}

fn write_dense_strings(out: &mut String, ty: &Type, splat: bool, values: &[Vec<u8>]) {
    out.push_str("dense<");
    if splat && values.len() == 1 {
        write_string(out, &values[0]);
    } else {
        out.push('[');
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_string(out, v);
        }
        out.push(']');
    }
    let _ = write!(out, "> : {ty}");
}

/// `#dialect<body>` or `#dialect.body`.
fn write_dialect_attr(out: &mut String, dialect: &str, body: &str) {
    out.push('#');
    out.push_str(dialect);
    if !body.starts_with('<') {
        out.push('.');
    }
    out.push_str(body);
}

/// `loc(...)`
pub(crate) fn write_location(out: &mut String, loc: &Location) {
    out.push_str("loc(");
    write_location_body(out, loc);
    out.push(')');
}

pub(crate) fn location_string(loc: &Location) -> String {
    let mut s = String::new();
    write_location(&mut s, loc);
    s
}

fn write_location_body(out: &mut String, loc: &Location) {
    match loc {
        Location::Unknown => out.push_str("unknown"),
        Location::FileLineCol { file, line, column } => {
            write_string(out, file.as_bytes());
            let _ = write!(out, ":{line}:{column}");
        }
        Location::FileRange {
            file,
            start_line,
            start_column,
            end_line,
            end_column,
        } => {
            write_string(out, file.as_bytes());
            let _ = write!(out, ":{start_line}:{start_column} to ");
            if end_line != start_line {
                let _ = write!(out, "{end_line}");
            }
            let _ = write!(out, ":{end_column}");
        }
        Location::Name { name, child } => {
            write_string(out, name.as_bytes());
            if **child != Location::Unknown {
                out.push('(');
                write_location_body(out, child);
                out.push(')');
            }
        }
        Location::CallSite { callee, caller } => {
            out.push_str("callsite(");
            write_location_body(out, callee);
            out.push_str(" at ");
            write_location_body(out, caller);
            out.push(')');
        }
        Location::Fused {
            locations,
            metadata,
        } => {
            out.push_str("fused");
            if let Some(m) = metadata {
                out.push('<');
                write_attr(out, m);
                out.push('>');
            }
            out.push('[');
            for (i, l) in locations.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_location_body(out, l);
            }
            out.push(']');
        }
    }
}

/// `?` for a dynamic value (`ir::DYNAMIC`), else the number.
fn write_dynamic(out: &mut String, value: i64) {
    if value == crate::ir::DYNAMIC {
        out.push('?');
    } else {
        let _ = write!(out, "{value}");
    }
}

/// The body of a dense elements attribute inside `sparse<...>`: upstream
/// writes just the elements, without `dense<...>`.
fn write_dense_body(out: &mut String, attr: &Attribute, modern: bool) {
    match attr {
        Attribute::DenseElements(d) => {
            let mut dense = String::new();
            write_dense(&mut dense, d);
            let body = dense
                .strip_prefix("dense<")
                .and_then(|b| b.strip_suffix('>'))
                .unwrap_or(&dense);
            out.push_str(body);
        }
        other => write_attr_styled(out, other, modern),
    }
}

/// Decimal digits of a wide two's-complement integer of `width` bits
/// stored as little-endian 64-bit words.
pub(crate) fn wide_decimal(words: &[u64], width: u32, unsigned: bool) -> String {
    let mut magnitude: Vec<u64> = words.to_vec();
    let top_bit = width.saturating_sub(1) as usize;
    let negative = !unsigned
        && width > 0
        && magnitude
            .get(top_bit / 64)
            .is_some_and(|w| (w >> (top_bit % 64)) & 1 == 1);
    if negative {
        // Two's complement negation within `width` bits.
        let mut carry = 1u64;
        for w in magnitude.iter_mut() {
            let (sum, overflow) = (!*w).overflowing_add(carry);
            *w = sum;
            carry = u64::from(overflow);
        }
        if !width.is_multiple_of(64)
            && let Some(last) = magnitude.get_mut(top_bit / 64)
        {
            *last &= (1u64 << (width % 64)) - 1;
        }
    }
    let mut digits = Vec::new();
    while magnitude.iter().any(|&w| w != 0) {
        let mut remainder = 0u128;
        for w in magnitude.iter_mut().rev() {
            let current = (remainder << 64) | u128::from(*w);
            *w = (current / 10) as u64;
            remainder = current % 10;
        }
        digits.push(b'0' + remainder as u8);
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    if negative {
        digits.push(b'-');
    }
    digits.reverse();
    String::from_utf8(digits).expect("ASCII digits")
}
