//! Numbering of everything the writer refers to by index, done the way
//! upstream's `IRNumberingState` does it so that re-writing an upstream
//! file gives its bytes back: one traversal in upstream's order records
//! first uses and reference counts, then entries are sorted by reference
//! count (stable) and grouped by dialect within each varint byte-length
//! band.

mod entries;
mod traversal;

use std::borrow::Cow;
use std::hash::{BuildHasher, Hash};
use std::sync::Arc;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};

use super::super::builtin_attrs;
use super::super::builtin_types;
use super::super::entries::EntrySink;
use super::super::ops;
use crate::ir::{
    Attribute, Block, BytecodeOrigin, Location, Module, NamedAttribute, Op, Region, Type,
    ValueData, ValueId,
};

/// No entry (an op without a dictionary, say).
pub const NONE: u32 = u32::MAX;

/// What block arguments without a location and values outside the
/// module's table are numbered as; statics so that they can be borrowed
/// for as long as the module.
static UNKNOWN_LOCATION: Location = Location::Unknown;
static NONE_TYPE: Type = Type::None;

/// An attribute-table entry: locations are attributes in MLIR, and
/// dictionaries are kept as the slices ops hold. Keys found in the module
/// are borrowed from it; only keys met while encoding an entry are copied.
#[derive(Debug)]
pub enum AttrKey<'m> {
    Attr(Kept<'m, Attribute>),
    Dict(Kept<'m, [NamedAttribute]>),
    /// Any location but `file:line:col`.
    Loc(Kept<'m, Location>),
    /// `file:line:col` by its file name's attribute entry: a large module
    /// has one per op, and neither finding nor writing one then goes
    /// back to the op (long out of cache) it came from.
    FileLineCol {
        file: u32,
        line: u32,
        column: u32,
    },
}

/// The key an entry keeps: borrowed from the module, or owned when met
/// only inside another entry (rarely). Boxed, unlike a `Cow`, so that
/// entries stay small: a large module has one per op.
#[derive(Debug)]
pub enum Kept<'m, T: ?Sized> {
    Module(&'m T),
    Owned(Box<T>),
}

impl<T: ?Sized> std::ops::Deref for Kept<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        match self {
            Kept::Module(k) => k,
            Kept::Owned(k) => k,
        }
    }
}

/// Small (32 bytes with a module-borrowed key): one per op in a large
/// module with locations.
pub struct Entry<K> {
    pub key: K,
    pub dialect: u32,
    /// Saturates (no module has four billion uses of anything).
    pub refs: u32,
}

pub struct OpNameEntry {
    pub name: String,
    pub dialect: usize,
    pub refs: u64,
    /// Whether the file the module came from says the op is registered
    /// (version 5+ origins); otherwise registration follows `definition`.
    pub origin_registered: Option<bool>,
    /// The op's definition, when this crate knows it.
    pub definition: Option<&'static ops::OpDefinition>,
    /// The entry of each property field numbered last for an op of this
    /// name (`NONE` if none yet): ops of one kind mostly repeat them.
    last_properties: Vec<u32>,
    /// Likewise the type entry of each result.
    last_results: Vec<u32>,
    /// The entry of the op name numbered after this one last time.
    next_name: u32,
}

/// What the IR section needs of an op, by pre-order id, so that writing
/// it hashes nothing: entry indices (final numbers come from them).
#[derive(Debug, Clone, Copy)]
pub struct OpRecord {
    pub name: u32,
    pub location: u32,
    /// `NONE` when the written dictionary is empty.
    pub dictionary: u32,
    /// First index in `property_attrs` of the op's property values in
    /// written order: for a registered op one per field (`NONE` when the
    /// op lacks it), otherwise the properties attribute.
    pub properties: u32,
    /// First index in `region_counts` of the op's regions.
    pub regions: u32,
    pub isolated: bool,
    /// Whether a result has a use-list order (found while numbering, so
    /// that writing the op does not look at its values again).
    pub result_use_orders: bool,
}

/// What the IR section needs of a value.
#[derive(Debug, Clone, Copy)]
pub struct ValueRecord {
    /// Id within the value's scope.
    pub id: u64,
    /// Type entry.
    pub ty: u32,
    /// Location entry (block arguments only).
    pub location: u32,
}

/// Indices into an entry list, found by a key's hash. Only the index is
/// stored (hashbrown's tag rejects nearly every other key without a
/// look at the entry): a large module has a location entry per op, and a
/// table four bytes a slot stays in cache where one of sixteen did not.
#[derive(Default)]
struct Index(HashTable<u32>);

impl Index {
    fn find(&self, hash: u64, eq: impl Fn(usize) -> bool) -> Option<usize> {
        self.0.find(hash, |&i| eq(i as usize)).map(|&i| i as usize)
    }

    /// `rehash`: the hash of an entry already in the table, for growing.
    fn insert(&mut self, hash: u64, index: usize, rehash: impl Fn(usize) -> u64) {
        self.0
            .insert_unique(hash, index as u32, |&i| rehash(i as usize));
    }
}

/// Counts one more use of entry `i`; its index.
#[inline(always)]
fn count_use<K>(entries: &mut [Entry<K>], i: usize) -> u32 {
    entries[i].refs = entries[i].refs.saturating_add(1);
    i as u32
}

/// `entries.push(entry)`, with the capacity test in sight of the compiler
/// on the (reserved, nearly always taken) path: the entry is then stored
/// in place, not built on the stack and copied (a store-forwarding stall
/// per location of a large module, seen in profiles). The two branches
/// are the same code on purpose.
#[inline(always)]
#[allow(clippy::if_same_then_else)]
fn push<T>(entries: &mut Vec<T>, entry: T) {
    if entries.len() < entries.capacity() {
        entries.push(entry);
    } else {
        entries.push(entry);
    }
}

/// Adds a first use of `key` (of `dialect`) to `entries`, found under
/// `hash` in `index`; its index. `rehash` gives an entry's hash back.
#[inline(always)]
fn add_entry<K>(
    index: &mut Index,
    entries: &mut Vec<Entry<K>>,
    hash: u64,
    key: K,
    dialect: usize,
    rehash: impl Fn(&K) -> u64,
) -> usize {
    let i = entries.len();
    index.insert(hash, i, |j| rehash(&entries[j].key));
    entries.push(Entry {
        key,
        dialect: dialect as u32,
        refs: 1,
    });
    i
}

/// The hash an attribute-table key was indexed under.
fn attr_key_hash(key: &AttrKey<'_>) -> u64 {
    match key {
        AttrKey::Attr(a) => hash_of(&**a),
        AttrKey::Dict(d) => hash_of(&**d),
        AttrKey::Loc(l) => loc_hash(l),
        AttrKey::FileLineCol { file, line, column } => file_loc_hash(*file, *line, *column),
    }
}

/// The hash of a `file:line:col` location by its file name's entry.
fn file_loc_hash(file: u32, line: u32, column: u32) -> u64 {
    hash_of(&(file, line, column))
}

fn hash_of<T: Hash + ?Sized>(key: &T) -> u64 {
    FxBuildHasher.hash_one(key)
}

/// The hash of a location key (other than `file:line:col`). A file range
/// hashes the length of its file name, not the text: equal locations
/// still hash alike, and the many locations of a file differ by line and
/// column.
fn loc_hash(loc: &Location) -> u64 {
    match loc {
        Location::FileLineCol { file, line, column } => hash_of(&(file.len(), *line, *column)),
        _ => hash_of(loc),
    }
}

/// A key to number: borrowed from the module (kept as it is) or from
/// something shorter-lived (copied if it makes a new entry).
enum Key<'a, 'm, T: ?Sized + ToOwned> {
    Module(&'m T),
    Temporary(&'a T),
}

impl<T: ?Sized + ToOwned> Clone for Key<'_, '_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized + ToOwned> Copy for Key<'_, '_, T> {}

impl<'a, 'm, T: ?Sized + ToOwned> Key<'a, 'm, T> {
    fn get(self) -> &'a T
    where
        'm: 'a,
    {
        match self {
            Key::Module(k) => k,
            Key::Temporary(k) => k,
        }
    }

    fn keep(self) -> Kept<'m, T>
    where
        Box<T>: From<T::Owned>,
    {
        match self {
            Key::Module(k) => Kept::Module(k),
            Key::Temporary(k) => Kept::Owned(k.to_owned().into()),
        }
    }
}

pub struct Numbering<'m> {
    values: &'m [ValueData],
    pub dialects: Vec<String>,
    dialect_index: FxHashMap<String, usize>,
    /// The `builtin` dialect's index once numbered: most entries are
    /// builtin, and this spares hashing its name for each.
    builtin_dialect: Option<usize>,
    pub op_names: Vec<OpNameEntry>,
    op_name_index: FxHashMap<String, usize>,
    /// The op name entry numbered last (see `OpNameEntry::next_name`).
    last_op_name: Option<u32>,
    pub attrs: Vec<Entry<AttrKey<'m>>>,
    /// Attributes, dictionaries and locations indexed apart, each by its
    /// own key type, all into `attrs`.
    attr_index: Index,
    dict_index: Index,
    loc_index: Index,
    /// Attribute entry of each location file name, by its shared
    /// allocation (the `Arc` is held so the address stays its own).
    file_index: FxHashMap<*const u8, (Arc<str>, usize)>,
    /// The file name numbered last: locations of one file come in runs.
    last_file: Option<(*const u8, usize)>,
    /// The type entry numbered last: types come in runs.
    last_type: Option<u32>,
    /// The entry of the unknown location.
    unknown_loc: Option<u32>,
    pub types: Vec<Entry<Kept<'m, Type>>>,
    type_index: Index,
    /// Final positions (after sorting) of attrs / types / op names by
    /// entry index.
    attr_number: Vec<u64>,
    type_number: Vec<u64>,
    op_name_number: Vec<u64>,
    /// Entry indices of attrs / types / op names in final order.
    attr_order: Vec<usize>,
    type_order: Vec<usize>,
    op_name_order: Vec<usize>,
    /// `builtin` resources referenced by `dense_resource`, first use order.
    pub resources: Vec<String>,
    resource_index: FxHashMap<String, usize>,
    /// Every module value, by index.
    pub value_records: Vec<ValueRecord>,
    /// Every op, by pre-order id.
    pub ops: Vec<OpRecord>,
    /// Ops in each op's subtree (itself included), by pre-order id.
    subtree_sizes: Vec<u32>,
    /// Attribute entries of the properties of all ops (see `OpRecord`).
    pub property_attrs: Vec<u32>,
    /// (blocks, values defined directly) per region (see `OpRecord`).
    pub region_counts: Vec<(u64, u64)>,
    version: u64,
    /// Registration as recorded by the file the module was read from.
    origin: Option<&'m BytecodeOrigin>,
}

fn type_dialect(ty: &Type) -> Option<&str> {
    match ty {
        Type::Dialect { dialect, .. } => Some(dialect),
        _ => None,
    }
}

/// The attribute dictionary written for `op` at `version`: before version
/// 5 (or for an op without properties) inherent and discardable attributes
/// merged.
pub fn written_dictionary(
    op: &Op,
    version: u64,
    registered: bool,
) -> std::borrow::Cow<'_, [NamedAttribute]> {
    if version >= 5 || op.properties.is_none() || !registered {
        return std::borrow::Cow::Borrowed(&op.attributes);
    }
    std::borrow::Cow::Owned(op.all_attributes().cloned().collect())
}

struct NumberingSink<'n, 'm> {
    n: &'n mut Numbering<'m>,
}

// `file_name` is inlined into the (generic) location encoder: a large
// module has a location per op.
impl EntrySink for NumberingSink<'_, '_> {
    fn varint(&mut self, _: u64) {}
    fn signed_varint(&mut self, _: i64) {}
    fn byte(&mut self, _: u8) {}
    fn blob(&mut self, _: &[u8]) {}
    fn string(&mut self, _: &[u8]) {}
    fn attribute(&mut self, attr: &Attribute) {
        self.n.number_attr(Key::Temporary(attr));
    }
    fn location(&mut self, loc: &Location) {
        self.n.number_loc(Key::Temporary(loc));
    }
    #[inline(always)]
    fn file_name(&mut self, file: &Arc<str>) {
        let key = Arc::as_ptr(file) as *const u8;
        let found = match self.n.last_file {
            Some((last, i)) if last == key => Some(i),
            _ => self.n.file_index.get(&key).map(|&(_, i)| i),
        };
        let i = match found {
            Some(i) => count_use(&mut self.n.attrs, i) as usize,
            None => {
                let attr = builtin_attrs::string_attribute(file);
                let i = self.n.number_attr(Key::Temporary(&attr)) as usize;
                self.n.file_index.insert(key, (file.clone(), i));
                i
            }
        };
        self.n.last_file = Some((key, i));
    }
    fn type_(&mut self, ty: &Type) {
        self.n.number_type(Key::Temporary(ty));
    }
    fn resource(&mut self, key: &str) {
        if !self.n.resource_index.contains_key(key) {
            self.n
                .resource_index
                .insert(key.to_string(), self.n.resources.len());
            self.n.resources.push(key.to_string());
        }
        self.n.number_builtin_dialect();
    }
}

impl<'m> Numbering<'m> {
    /// `origin`: the file the module was read from, whose op registration
    /// is kept when re-writing at version 5 or later. `None` when
    /// `check_split` and an op keeps inherent attributes in its
    /// dictionary (a module parsed from text): they must be split into
    /// properties first (found on the walk numbering needs anyway).
    pub fn new(
        module: &'m Module,
        version: u64,
        origin: Option<&'m BytecodeOrigin>,
        check_split: bool,
    ) -> Option<Numbering<'m>> {
        let unnumbered = ValueRecord {
            id: u64::MAX,
            ty: NONE,
            location: NONE,
        };
        let mut n = Numbering {
            values: &module.values,
            dialects: Vec::new(),
            dialect_index: FxHashMap::default(),
            builtin_dialect: None,
            op_names: Vec::new(),
            op_name_index: FxHashMap::default(),
            last_op_name: None,
            attrs: Vec::new(),
            attr_index: Index::default(),
            dict_index: Index::default(),
            loc_index: Index::default(),
            file_index: FxHashMap::default(),
            last_file: None,
            last_type: None,
            unknown_loc: None,
            types: Vec::new(),
            type_index: Index::default(),
            attr_number: Vec::new(),
            type_number: Vec::new(),
            op_name_number: Vec::new(),
            attr_order: Vec::new(),
            type_order: Vec::new(),
            op_name_order: Vec::new(),
            resources: Vec::new(),
            resource_index: FxHashMap::default(),
            value_records: vec![unnumbered; module.values.len()],
            ops: Vec::new(),
            subtree_sizes: Vec::new(),
            property_attrs: Vec::new(),
            region_counts: Vec::new(),
            version,
            origin: origin.filter(|o| o.version >= 5),
        };
        let block_arguments = n.compute_isolation(module, check_split)?;
        // Every op and block argument (nearly always) has a location
        // entry of its own: room for them all and some other attributes,
        // so that the entries are not copied while growing (a large
        // module's are megabytes). (Nothing to rehash yet.)
        let locations = n.ops.len() + block_arguments;
        n.loc_index.0.reserve(locations, |_| 0);
        n.attrs.reserve(locations + locations / 8 + 64);
        n.property_attrs.reserve(2 * n.ops.len());
        n.number_ir(module);
        (n.attr_order, n.attr_number) =
            finalize(&n.attrs, |e| e.refs.into(), |e| e.dialect as usize);
        (n.type_order, n.type_number) =
            finalize(&n.types, |e| e.refs.into(), |e| e.dialect as usize);
        (n.op_name_order, n.op_name_number) = finalize(&n.op_names, |e| e.refs, |e| e.dialect);
        Some(n)
    }

    pub fn attr_order(&self) -> &[usize] {
        &self.attr_order
    }

    pub fn type_order(&self) -> &[usize] {
        &self.type_order
    }

    pub fn op_name_order(&self) -> &[usize] {
        &self.op_name_order
    }

    /// The final number of attribute entry `entry`.
    pub fn attr_entry(&self, entry: u32) -> u64 {
        self.attr_number[entry as usize]
    }

    /// The final number of type entry `entry`.
    pub fn type_entry(&self, entry: u32) -> u64 {
        self.type_number[entry as usize]
    }

    pub fn attr(&self, attr: &Attribute) -> u64 {
        match attr {
            Attribute::Location(loc) => self.loc(loc),
            Attribute::Dictionary(entries) => self.dict(entries),
            _ => {
                self.attr_number[self
                    .find_attr(hash_of(attr), attr)
                    .expect("numbered attribute")]
            }
        }
    }

    fn find_attr(&self, hash: u64, attr: &Attribute) -> Option<usize> {
        self.attr_index.find(
            hash,
            |i| matches!(&self.attrs[i].key, AttrKey::Attr(a) if **a == *attr),
        )
    }

    fn find_dict(&self, hash: u64, entries: &[NamedAttribute]) -> Option<usize> {
        self.dict_index.find(
            hash,
            |i| matches!(&self.attrs[i].key, AttrKey::Dict(d) if **d == *entries),
        )
    }

    fn find_loc(&self, hash: u64, loc: &Location) -> Option<usize> {
        self.loc_index.find(
            hash,
            |i| matches!(&self.attrs[i].key, AttrKey::Loc(l) if **l == *loc),
        )
    }

    fn find_type(&self, ty: &Type) -> Option<usize> {
        self.type_index
            .find(hash_of(ty), |i| *self.types[i].key == *ty)
    }

    pub fn dict(&self, entries: &[NamedAttribute]) -> u64 {
        self.attr_number[self
            .find_dict(hash_of(entries), entries)
            .expect("numbered dictionary")]
    }

    /// The number of the string attribute naming `file`.
    pub fn file_name(&self, file: &Arc<str>) -> u64 {
        match self.file_index.get(&(Arc::as_ptr(file) as *const u8)) {
            Some(&(_, i)) => self.attr_number[i],
            None => self.attr(&builtin_attrs::string_attribute(file)),
        }
    }

    pub fn loc(&self, loc: &Location) -> u64 {
        let entry = match loc {
            Location::FileLineCol { file, line, column } => self
                .file_entry(file)
                .and_then(|f| self.find_file_loc(f, *line, *column)),
            _ => self.find_loc(loc_hash(loc), loc),
        };
        self.attr_number[entry.expect("numbered location")]
    }

    /// The attribute entry of the string naming `file`, if numbered.
    fn file_entry(&self, file: &Arc<str>) -> Option<u32> {
        match self.file_index.get(&(Arc::as_ptr(file) as *const u8)) {
            Some(&(_, i)) => Some(i as u32),
            // The same name in another allocation.
            None => {
                let attr = builtin_attrs::string_attribute(file);
                self.find_attr(hash_of(&attr), &attr).map(|i| i as u32)
            }
        }
    }

    fn find_file_loc(&self, file: u32, line: u32, column: u32) -> Option<usize> {
        let key = (file, line, column);
        self.loc_index.find(file_loc_hash(file, line, column), |i| {
            matches!(self.attrs[i].key, AttrKey::FileLineCol { file, line, column } if (file, line, column) == key)
        })
    }

    pub fn type_(&self, ty: &Type) -> u64 {
        self.type_number[self.find_type(ty).expect("numbered type")]
    }

    /// The numbered name of `op` (entry `record.name`) and whether it is
    /// written as registered.
    pub fn op_kind(&self, op: &Op, record: &OpRecord) -> (&OpNameEntry, u64, bool) {
        let i = record.name as usize;
        let entry = &self.op_names[i];
        (entry, self.op_name_number[i], Self::registered(entry, op))
    }

    pub fn registered(entry: &OpNameEntry, op: &Op) -> bool {
        entry
            .origin_registered
            .unwrap_or_else(|| entry.definition.is_some() || op.opaque_properties.is_some())
    }
}
/// The attribute fields of a registered op's properties in written order:
/// name order, segment sizes among them before version 6 (in version 6
/// they follow natively). An iterator, not a list: it runs twice per op
/// and allocating it showed up in profiles of the writer.
pub fn property_fields(def: &'static ops::OpDefinition, version: u64) -> PropertyFields {
    PropertyFields {
        attributes: def.attributes,
        segments: if version < 6 { def.segments } else { &[] },
    }
}

/// Merges the two name-sorted lists of an op definition.
pub struct PropertyFields {
    attributes: &'static [ops::InherentAttr],
    segments: &'static [ops::Segments],
}

impl Iterator for PropertyFields {
    type Item = (&'static str, bool);

    fn next(&mut self) -> Option<(&'static str, bool)> {
        match (self.attributes.first(), self.segments.first()) {
            (Some(a), Some(s)) if s.name < a.name => {
                self.segments = &self.segments[1..];
                Some((s.name, false))
            }
            (Some(a), _) => {
                self.attributes = &self.attributes[1..];
                Some((a.name, a.optional))
            }
            (None, Some(s)) => {
                self.segments = &self.segments[1..];
                Some((s.name, false))
            }
            (None, None) => None,
        }
    }
}

/// Final order (entry indices) and numbers (by entry index): stable sort
/// by reference count (descending), then group by dialect within each
/// band of indices that share a varint length, preferring the dialect
/// that ended the previous band.
fn finalize<T>(
    entries: &[T],
    refs: impl Fn(&T) -> u64,
    dialect: impl Fn(&T) -> usize,
) -> (Vec<usize>, Vec<u64>) {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| refs(&entries[b]).cmp(&refs(&entries[a])));
    let mut first_dialect = 0usize;
    let mut in_band = 0u64;
    let mut start = 0usize;
    for i in 1..9u32 {
        in_band = (1u64 << (7 * i)) - in_band;
        let end = (start as u64 + in_band).min(order.len() as u64) as usize;
        let band = &mut order[start..end];
        let first = first_dialect;
        band.sort_by(|&a, &b| {
            let (da, db) = (dialect(&entries[a]), dialect(&entries[b]));
            (da != first).cmp(&(db != first)).then(da.cmp(&db))
        });
        if let Some(&last) = band.last() {
            first_dialect = dialect(&entries[last]);
        }
        start = end;
        if start >= order.len() {
            break;
        }
    }
    let mut numbers = vec![0u64; entries.len()];
    for (n, &entry) in order.iter().enumerate() {
        numbers[entry] = n as u64;
    }
    (order, numbers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Block;

    fn with_region(name: &str, ops: Vec<Op>) -> Op {
        let mut op = Op::new(name, Location::Unknown);
        op.regions.push(Region {
            blocks: vec![Block {
                ops,
                ..Block::default()
            }],
        });
        op
    }

    fn isolated(module: &Module) -> Vec<bool> {
        let n = Numbering::new(module, 6, None, false).unwrap();
        n.ops.iter().map(|r| r.isolated).collect()
    }

    #[test]
    fn uses_before_definitions_and_redefinitions_are_seen() {
        let mut m = Module::new(Location::Unknown);
        let ty = Type::Index;
        let (later, twice, own) = (
            m.new_value(ty.clone(), None),
            m.new_value(ty.clone(), None),
            m.new_value(ty, None),
        );
        let user = |v| {
            let mut op = Op::new("test.use", Location::Unknown);
            op.operands.push(v);
            op
        };
        let definer = |v| {
            let mut op = Op::new("test.def", Location::Unknown);
            op.results.push(v);
            op
        };
        // Pre-order ids: module 0, a 1 (use 2), def 3, b 4 (def 5, use 6),
        // c 7 (def 8, use 9), def 10.
        m.body_mut().ops = vec![
            with_region("test.a", vec![user(later)]),
            definer(later),
            with_region("test.b", vec![definer(own), user(own)]),
            with_region("test.c", vec![definer(twice), user(twice)]),
            definer(twice),
        ];
        let iso = isolated(&m);
        assert!(!iso[1], "a uses a value defined after it");
        assert!(iso[4], "b uses only its own value");
        assert!(!iso[7], "c uses a value last defined outside it");
    }

    #[test]
    fn file_locations_of_one_name_in_two_allocations_are_one_entry() {
        let mut m = Module::new(Location::Unknown);
        m.body_mut().ops = vec![
            Op::new("test.a", Location::file_line_col("f.mlir", 1, 2)),
            Op::new("test.b", Location::file_line_col("f.mlir", 1, 2)),
        ];
        let n = Numbering::new(&m, 6, None, false).unwrap();
        let file_locs: Vec<u32> = n
            .attrs
            .iter()
            .filter(|e| matches!(e.key, AttrKey::FileLineCol { .. }))
            .map(|e| e.refs)
            .collect();
        assert_eq!(file_locs, [2]);
        let third = Location::file_line_col("f.mlir", 1, 2);
        assert_eq!(n.loc(&third), n.attr_entry(n.ops[1].location));
    }
}
