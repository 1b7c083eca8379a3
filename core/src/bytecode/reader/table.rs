//! The attribute and type table: entries located from the AttrTypeOffset
//! section and decoded on first use. Decoding never recurses: an entry
//! that needs another one not decoded yet reports it, the needed entry is
//! pushed on an explicit work stack (bounded by `MAX_NESTING`), and the
//! first is retried once the second is done.

use std::cell::RefCell;
use std::sync::Arc;

use super::super::builtin_attrs;
use super::super::builtin_types;
use super::super::encoding::Reader;
use super::super::entries::{DecodeFailure, Decoded, EntryLookup, EntryRef};
use super::super::error::{BytecodeError, Result};
use crate::ir::{Attribute, Location, Type};

/// Deepest chain of entries referring to each other that is decoded.
pub const MAX_NESTING: usize = 1024;

/// Encoded bytes that copies of shared entries may stand for beyond the
/// file's own size (see [`Table::expansion`]).
const EXPANSION_ALLOWANCE: u64 = 1 << 20;

/// Where an entry's bytes are and how they are encoded.
#[derive(Debug, Clone, Copy)]
pub struct EntrySpan<'a> {
    pub dialect: usize,
    pub custom: bool,
    pub data: Reader<'a>,
}

#[derive(Clone)]
pub struct Table<'a> {
    // Shared (not copied) by the table copies decoding threads take.
    pub strings: Arc<Vec<&'a [u8]>>,
    pub dialects: Vec<&'a str>,
    pub attrs: Arc<Vec<EntrySpan<'a>>>,
    pub types: Arc<Vec<EntrySpan<'a>>>,
    /// Keys of the dialect resources, in handle order.
    /// Key of each dialect resource, `None` for those of other dialects
    /// than `builtin`.
    pub resource_keys: Vec<Option<String>>,
    /// Per attribute entry: 0 while undecoded, else 1 + its index in
    /// `attr_store` (4 bytes an entry: a file's location entries, one per
    /// op, mostly never land in the table, see `location`).
    attr_slots: Vec<u32>,
    attr_store: Vec<Attribute>,
    type_values: Vec<Option<Type>>,
    /// Per entry, once decoded: the encoded bytes its value stands for,
    /// its own plus those of the entries it copied in.
    attr_weights: Vec<u64>,
    type_weights: Vec<u64>,
    /// Encoded bytes the copies of entries made so far stand for. Entries
    /// are decoded once, but every reference copies the value, so a small
    /// file whose entries refer to one another several times would grow
    /// exponentially; past `expansion_budget` that is an error.
    expansion: std::cell::Cell<u64>,
    expansion_budget: u64,
    /// Index of the `builtin` dialect, whose custom encodings this reader
    /// knows.
    builtin: Option<usize>,
    next_distinct: u64,
    /// The file name last decoded for a location (locations of a file
    /// nearly always name one file): its string attribute and the shared
    /// name.
    last_file: RefCell<Option<(usize, Arc<str>)>>,
}

impl<'a> Table<'a> {
    pub fn new(
        strings: Vec<&'a [u8]>,
        dialects: Vec<&'a str>,
        attrs: Vec<EntrySpan<'a>>,
        types: Vec<EntrySpan<'a>>,
        input_len: usize,
    ) -> Table<'a> {
        let attr_slots = vec![0; attrs.len()];
        let type_values = vec![None; types.len()];
        let attr_weights = vec![0; attrs.len()];
        let type_weights = vec![0; types.len()];
        let builtin = dialects.iter().position(|d| *d == "builtin");
        Table {
            strings: Arc::new(strings),
            dialects,
            attrs: Arc::new(attrs),
            types: Arc::new(types),
            resource_keys: Vec::new(),
            attr_slots,
            attr_store: Vec::new(),
            type_values,
            attr_weights,
            type_weights,
            expansion: std::cell::Cell::new(0),
            expansion_budget: (input_len as u64).saturating_add(EXPANSION_ALLOWANCE),
            builtin,
            next_distinct: 0,
            last_file: RefCell::new(None),
        }
    }

    pub fn attribute(&mut self, index: u64, at: usize) -> Result<Attribute> {
        let value = self.attribute_ref(index, at)?.clone();
        self.count_copy(EntryRef::Attr(index as usize), at)?;
        Ok(value)
    }

    /// Counts one copy of the decoded `entry` against the expansion budget.
    fn count_copy(&self, entry: EntryRef, at: usize) -> Result<()> {
        let weight = match entry {
            EntryRef::Attr(i) => self.attr_weights[i],
            EntryRef::Type(i) => self.type_weights[i],
        };
        let total = self.expansion.get().saturating_add(weight);
        if total > self.expansion_budget {
            return Err(BytecodeError::new(
                at,
                format!(
                    "{} is copied into values that together stand for more than {} encoded bytes (the file's size plus {} MiB): the attributes and types refer to one another too many times",
                    describe(entry),
                    self.expansion_budget,
                    EXPANSION_ALLOWANCE >> 20
                ),
            ));
        }
        self.expansion.set(total);
        Ok(())
    }

    /// Like `attribute`, without cloning (the table keeps the value).
    pub fn attribute_ref(&mut self, index: u64, at: usize) -> Result<&Attribute> {
        let i = self.check(EntryRef::Attr(0), index, at)?;
        if self.attr_slots[i] == 0 {
            self.resolve(EntryRef::Attr(i))?;
        }
        Ok(self.attr_value(i).expect("resolved"))
    }

    /// Attribute `index` as a location (an op's or a block argument's).
    /// A file location not decoded yet is decoded straight from its entry
    /// and not kept: a file's locations are nearly all distinct and used
    /// once each. Anything else, and every failure, goes through the
    /// table, so values and errors are those of `attribute_ref`.
    pub fn location(&mut self, index: u64, at: usize) -> Result<Location> {
        let i = self.check(EntryRef::Attr(0), index, at)?;
        if self.attr_slots[i] == 0
            && let Some(loc) = self.file_location(i)
        {
            return Ok(loc);
        }
        let loc = match self.attribute_ref(index, at)? {
            Attribute::Location(loc) => (**loc).clone(),
            _ => return Err(BytecodeError::new(at, "expected a location attribute")),
        };
        self.count_copy(EntryRef::Attr(i), at)?;
        Ok(loc)
    }

    /// Attribute entry `i` decoded as a builtin file location, or `None`
    /// when it is something else or does not decode this way.
    fn file_location(&self, i: usize) -> Option<Location> {
        let span = self.attrs[i];
        if !span.custom || Some(span.dialect) != self.builtin {
            return None;
        }
        let mut r = span.data;
        let (file, line, column) = builtin_attrs::decode_file_line_col(&mut r)?;
        if !r.is_empty() {
            return None;
        }
        // The file name as last shared; another one takes the table path,
        // which shares it from then on.
        let cache = self.last_file.borrow();
        let (last, name) = cache.as_ref()?;
        (*last as u64 == file).then(|| Location::FileLineCol {
            file: name.clone(),
            line,
            column,
        })
    }

    fn attr_value(&self, i: usize) -> Option<&Attribute> {
        match self.attr_slots[i] {
            0 => None,
            slot => Some(&self.attr_store[slot as usize - 1]),
        }
    }

    pub fn type_(&mut self, index: u64, at: usize) -> Result<Type> {
        let i = self.check(EntryRef::Type(0), index, at)?;
        if self.type_values[i].is_none() {
            self.resolve(EntryRef::Type(i))?;
        }
        self.count_copy(EntryRef::Type(i), at)?;
        Ok(self.type_values[i].clone().expect("resolved"))
    }

    /// Forgets the shared file name, so that locations decoded from here
    /// on share one of their own (a table copy given to another thread
    /// then counts references to a different allocation).
    pub fn forget_file_name(&mut self) {
        *self.last_file.get_mut() = None;
    }

    pub fn string_at(&self, index: u64, at: usize) -> Result<&'a [u8]> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.strings.get(i).copied())
            .ok_or_else(|| BytecodeError::new(at, format!("invalid string index {index}")))
    }

    fn check(&self, kind: EntryRef, index: u64, at: usize) -> Result<usize> {
        let (len, what) = match kind {
            EntryRef::Attr(_) => (self.attrs.len(), "attribute"),
            EntryRef::Type(_) => (self.types.len(), "type"),
        };
        usize::try_from(index)
            .ok()
            .filter(|&i| i < len)
            .ok_or_else(|| {
                BytecodeError::new(at, format!("invalid {what} index {index} (of {len})"))
            })
    }

    fn is_resolved(&self, entry: EntryRef) -> bool {
        match entry {
            EntryRef::Attr(i) => self.attr_slots[i] != 0,
            EntryRef::Type(i) => self.type_values[i].is_some(),
        }
    }

    fn resolve(&mut self, want: EntryRef) -> Result<()> {
        // Most entries need nothing undecoded: no work stack then.
        match self.decode_entry(want) {
            Ok(()) => return Ok(()),
            Err(DecodeFailure::Error(e)) => return Err(e),
            Err(DecodeFailure::Missing(_)) => {}
        }
        let mut stack = vec![want];
        while let Some(&top) = stack.last() {
            if self.is_resolved(top) {
                stack.pop();
                continue;
            }
            match self.decode_entry(top) {
                Ok(()) => {
                    stack.pop();
                }
                Err(DecodeFailure::Missing(dep)) => {
                    let span = self.span(top);
                    if stack.contains(&dep) {
                        return Err(BytecodeError::new(
                            span.data.offset(),
                            format!("{} refers to itself through its parameters", describe(top)),
                        ));
                    }
                    if stack.len() >= MAX_NESTING {
                        return Err(BytecodeError::new(
                            span.data.offset(),
                            format!("attributes and types nested deeper than {MAX_NESTING}"),
                        ));
                    }
                    stack.push(dep);
                }
                Err(DecodeFailure::Error(e)) => return Err(e),
            }
        }
        Ok(())
    }

    fn span(&self, entry: EntryRef) -> EntrySpan<'a> {
        match entry {
            EntryRef::Attr(i) => self.attrs[i],
            EntryRef::Type(i) => self.types[i],
        }
    }

    /// Decodes `entry` and records its weight; the copies of entries made
    /// by an attempt that finds an entry missing are not counted (it is
    /// retried once that one is decoded).
    fn decode_entry(&mut self, entry: EntryRef) -> Decoded<()> {
        let before = self.expansion.get();
        let decoded = self.decode_entry_value(entry);
        let copied = self.expansion.get() - before;
        match decoded {
            Ok(()) => {
                let weight = (self.span(entry).data.rest().len() as u64).max(1) + copied;
                match entry {
                    EntryRef::Attr(i) => self.attr_weights[i] = weight,
                    EntryRef::Type(i) => self.type_weights[i] = weight,
                }
            }
            Err(DecodeFailure::Missing(_)) => self.expansion.set(before),
            Err(DecodeFailure::Error(_)) => {}
        }
        decoded
    }

    fn decode_entry_value(&mut self, entry: EntryRef) -> Decoded<()> {
        let span = self.span(entry);
        let mut r = span.data;
        let dialect = self.dialects[span.dialect];
        match entry {
            EntryRef::Attr(i) => {
                let mut value = if span.custom {
                    if dialect != "builtin" {
                        return Err(unknown_custom(&r, entry, dialect));
                    }
                    builtin_attrs::decode(&mut r, self)?
                } else {
                    let text = fallback_text(&mut r)?;
                    crate::text::parse_attribute(text).map_err(|d| {
                        BytecodeError::new(
                            span.data.offset(),
                            format!("attribute #{i} '{text}': {}", d.message),
                        )
                    })?
                };
                if span.custom && !r.is_empty() {
                    return Err(trailing(&r, entry));
                }
                if let Attribute::Distinct { id, .. } = &mut value {
                    *id = self.next_distinct;
                    self.next_distinct += 1;
                }
                let slot = u32::try_from(self.attr_store.len() + 1)
                    .map_err(|_| BytecodeError::new(span.data.offset(), "too many attributes"))?;
                self.attr_store.push(value);
                self.attr_slots[i] = slot;
            }
            EntryRef::Type(i) => {
                let value = if span.custom {
                    if dialect != "builtin" {
                        return Err(unknown_custom(&r, entry, dialect));
                    }
                    builtin_types::decode(&mut r, self)?
                } else {
                    let text = fallback_text(&mut r)?;
                    crate::text::parse_type(text).map_err(|d| {
                        BytecodeError::new(
                            span.data.offset(),
                            format!("type !{i} '{text}': {}", d.message),
                        )
                    })?
                };
                if span.custom && !r.is_empty() {
                    return Err(trailing(&r, entry));
                }
                self.type_values[i] = Some(value);
            }
        }
        Ok(())
    }
}

fn describe(entry: EntryRef) -> String {
    match entry {
        EntryRef::Attr(i) => format!("attribute #{i}"),
        EntryRef::Type(i) => format!("type !{i}"),
    }
}

fn unknown_custom(r: &Reader<'_>, entry: EntryRef, dialect: &str) -> DecodeFailure {
    DecodeFailure::Error(r.error(format!(
        "{} uses a custom encoding of dialect '{dialect}', which this reader does not know",
        describe(entry)
    )))
}

fn trailing(r: &Reader<'_>, entry: EntryRef) -> DecodeFailure {
    DecodeFailure::Error(r.error(format!(
        "{} has {} unexpected trailing bytes",
        describe(entry),
        r.remaining()
    )))
}

/// The textual form of an entry without custom encoding: UTF-8 ending in
/// exactly one NUL.
fn fallback_text<'a>(r: &mut Reader<'a>) -> Decoded<&'a str> {
    let at = r.offset();
    let bytes = r.rest();
    match bytes.split_last() {
        Some((0, text)) if !text.contains(&0) => std::str::from_utf8(text)
            .map_err(|_| DecodeFailure::Error(BytecodeError::new(at, "entry text is not UTF-8"))),
        _ => Err(DecodeFailure::Error(BytecodeError::new(
            at,
            "textual entry is not NUL-terminated",
        ))),
    }
}

impl EntryLookup for Table<'_> {
    fn attribute(&self, index: u64, at: usize) -> Decoded<Attribute> {
        let i = self.check(EntryRef::Attr(0), index, at)?;
        match self.attr_value(i) {
            Some(v) => {
                self.count_copy(EntryRef::Attr(i), at)?;
                Ok(v.clone())
            }
            None => Err(DecodeFailure::Missing(EntryRef::Attr(i))),
        }
    }

    fn file_name(&self, index: u64, at: usize) -> Decoded<Arc<str>> {
        let i = self.check(EntryRef::Attr(0), index, at)?;
        if let Some((last, name)) = &*self.last_file.borrow()
            && *last == i
        {
            return Ok(name.clone());
        }
        let name: Arc<str> = match self.attr_value(i) {
            None => return Err(DecodeFailure::Missing(EntryRef::Attr(i))),
            Some(Attribute::String { value, ty: None }) => std::str::from_utf8(value)
                .map_err(|_| BytecodeError::new(at, "string attribute is not valid UTF-8"))?
                .into(),
            Some(_) => {
                return Err(DecodeFailure::Error(BytecodeError::new(
                    at,
                    "expected a string attribute",
                )));
            }
        };
        *self.last_file.borrow_mut() = Some((i, name.clone()));
        Ok(name)
    }

    fn type_(&self, index: u64, at: usize) -> Decoded<Type> {
        let i = self.check(EntryRef::Type(0), index, at)?;
        match &self.type_values[i] {
            Some(v) => {
                self.count_copy(EntryRef::Type(i), at)?;
                Ok(v.clone())
            }
            None => Err(DecodeFailure::Missing(EntryRef::Type(i))),
        }
    }

    fn string(&self, index: u64, at: usize) -> Decoded<&[u8]> {
        Ok(self.string_at(index, at)?)
    }

    fn resource(&self, index: u64, at: usize) -> Decoded<String> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.resource_keys.get(i))
            .ok_or_else(|| {
                DecodeFailure::Error(BytecodeError::new(
                    at,
                    format!("invalid resource handle {index}"),
                ))
            })?
            .clone()
            .ok_or_else(|| {
                DecodeFailure::Error(BytecodeError::new(
                    at,
                    format!("resource handle {index} is not a builtin resource"),
                ))
            })
    }
}
