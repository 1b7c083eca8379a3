//! Numbering of everything the writer refers to by index, done the way
//! upstream's `IRNumberingState` does it so that re-writing an upstream
//! file gives its bytes back: one traversal in upstream's order records
//! first uses and reference counts, then entries are sorted by reference
//! count (stable) and grouped by dialect within each varint byte-length
//! band.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::super::builtin_attrs;
use super::super::builtin_types;
use super::super::entries::EntrySink;
use super::super::ops;
use crate::ir::{
    Attribute, Block, BytecodeOrigin, Location, Module, NamedAttribute, Op, Region, Type,
    ValueData, ValueId,
};

/// An attribute-table entry: locations are attributes in MLIR.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AttrKey {
    Attr(Attribute),
    Loc(Location),
}

pub struct Entry<K> {
    pub key: K,
    pub dialect: usize,
    pub refs: u64,
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
}

/// Per op (pre-order id): whether its regions are isolated from above.
pub struct Numbering<'m> {
    values: &'m [ValueData],
    pub dialects: Vec<String>,
    dialect_index: FxHashMap<String, usize>,
    pub op_names: Vec<OpNameEntry>,
    op_name_index: FxHashMap<String, usize>,
    pub attrs: Vec<Entry<AttrKey>>,
    /// Attributes and locations indexed apart, so lookups borrow the key
    /// instead of cloning it into an `AttrKey`.
    attr_index: FxHashMap<Attribute, usize>,
    /// Dictionaries apart, so an op's dictionary is found without wrapping
    /// (cloning) it into an `Attribute`.
    dict_index: FxHashMap<Vec<NamedAttribute>, usize>,
    loc_index: FxHashMap<Location, usize>,
    /// Attribute entry of each location file name, by its shared
    /// allocation (the `Arc` is held so the address stays its own).
    file_index: FxHashMap<*const u8, (Arc<str>, usize)>,
    pub types: Vec<Entry<Type>>,
    type_index: FxHashMap<Type, usize>,
    /// Final positions (after sorting) of attrs / types / op names by
    /// entry index.
    attr_number: Vec<u64>,
    type_number: Vec<u64>,
    op_name_number: Vec<u64>,
    /// `builtin` resources referenced by `dense_resource`, first use order.
    pub resources: Vec<String>,
    resource_index: FxHashMap<String, usize>,
    /// Value id of each module value within its value scope.
    pub value_ids: Vec<u64>,
    /// (blocks, values defined directly) per region, keyed by address.
    pub region_counts: FxHashMap<*const Region, (u64, u64)>,
    pub isolated: FxHashMap<*const Op, bool>,
    /// Pre-order id of every op, for use-list reference orders.
    pub op_ids: FxHashMap<*const Op, u64>,
    version: u64,
    /// Registration as recorded by the file the module was read from.
    origin: Option<&'m BytecodeOrigin>,
}

/// Counts one more use of the entry `index` gives for `key`; false when
/// `key` has no entry yet (the caller adds it).
fn count_use<K, Q, E>(index: &FxHashMap<K, usize>, entries: &mut [Entry<E>], key: &Q) -> bool
where
    K: std::borrow::Borrow<Q> + std::hash::Hash + Eq,
    Q: std::hash::Hash + Eq + ?Sized,
{
    match index.get(key) {
        Some(&i) => {
            entries[i].refs += 1;
            true
        }
        None => false,
    }
}

fn attr_dialect(attr: &Attribute) -> &str {
    match attr {
        Attribute::Dialect { dialect, .. } => dialect,
        Attribute::Shape(_) => "corert",
        _ => "builtin",
    }
}

fn type_dialect(ty: &Type) -> &str {
    match ty {
        Type::Dialect { dialect, .. } => dialect,
        _ => "builtin",
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

impl EntrySink for NumberingSink<'_, '_> {
    fn varint(&mut self, _: u64) {}
    fn signed_varint(&mut self, _: i64) {}
    fn byte(&mut self, _: u8) {}
    fn blob(&mut self, _: &[u8]) {}
    fn string(&mut self, _: &[u8]) {}
    fn attribute(&mut self, attr: &Attribute) {
        self.n.number_attr(attr);
    }
    fn location(&mut self, loc: &Location) {
        self.n.number_loc(loc);
    }
    fn file_name(&mut self, file: &Arc<str>) {
        let key = Arc::as_ptr(file) as *const u8;
        if let Some(&(_, i)) = self.n.file_index.get(&key) {
            self.n.attrs[i].refs += 1;
            return;
        }
        let attr = builtin_attrs::string_attribute(file);
        self.n.number_attr(&attr);
        let i = self.n.attr_index[&attr];
        self.n.file_index.insert(key, (file.clone(), i));
    }
    fn type_(&mut self, ty: &Type) {
        self.n.number_type(ty);
    }
    fn resource(&mut self, key: &str) {
        if !self.n.resource_index.contains_key(key) {
            self.n
                .resource_index
                .insert(key.to_string(), self.n.resources.len());
            self.n.resources.push(key.to_string());
        }
        self.n.number_dialect("builtin");
    }
}

impl<'m> Numbering<'m> {
    /// `origin`: the file the module was read from, whose op registration
    /// is kept when re-writing at version 5 or later.
    pub fn new(
        module: &'m Module,
        version: u64,
        origin: Option<&'m BytecodeOrigin>,
    ) -> Numbering<'m> {
        let mut n = Numbering {
            values: &module.values,
            dialects: Vec::new(),
            dialect_index: FxHashMap::default(),
            op_names: Vec::new(),
            op_name_index: FxHashMap::default(),
            attrs: Vec::new(),
            attr_index: FxHashMap::default(),
            dict_index: FxHashMap::default(),
            loc_index: FxHashMap::default(),
            file_index: FxHashMap::default(),
            types: Vec::new(),
            type_index: FxHashMap::default(),
            attr_number: Vec::new(),
            type_number: Vec::new(),
            op_name_number: Vec::new(),
            resources: Vec::new(),
            resource_index: FxHashMap::default(),
            value_ids: vec![u64::MAX; module.values.len()],
            region_counts: FxHashMap::default(),
            isolated: FxHashMap::default(),
            op_ids: FxHashMap::default(),
            version,
            origin: origin.filter(|o| o.version >= 5),
        };
        // Every op gets an id and (nearly always) a location entry.
        let num_ops = count_ops(&module.op);
        n.op_ids.reserve(num_ops);
        n.loc_index.reserve(num_ops);
        n.attrs.reserve(num_ops);
        n.compute_isolation(module);
        n.number_ir(module);
        n.attr_number = finalize(&n.attrs, |e| e.refs, |e| e.dialect);
        n.type_number = finalize(&n.types, |e| e.refs, |e| e.dialect);
        n.op_name_number = finalize(&n.op_names, |e| e.refs, |e| e.dialect);
        n
    }

    pub fn attr_order(&self) -> Vec<usize> {
        order_of(&self.attr_number)
    }

    pub fn type_order(&self) -> Vec<usize> {
        order_of(&self.type_number)
    }

    pub fn op_name_order(&self) -> Vec<usize> {
        order_of(&self.op_name_number)
    }

    pub fn attr(&self, attr: &Attribute) -> u64 {
        match attr {
            Attribute::Location(loc) => self.loc(loc),
            Attribute::Dictionary(entries) => self.dict(entries),
            _ => self.attr_number[self.attr_index[attr]],
        }
    }

    pub fn dict(&self, entries: &[NamedAttribute]) -> u64 {
        self.attr_number[self.dict_index[entries]]
    }

    /// The number of the string attribute naming `file`.
    pub fn file_name(&self, file: &Arc<str>) -> u64 {
        match self.file_index.get(&(Arc::as_ptr(file) as *const u8)) {
            Some(&(_, i)) => self.attr_number[i],
            None => self.attr(&builtin_attrs::string_attribute(file)),
        }
    }

    pub fn loc(&self, loc: &Location) -> u64 {
        self.attr_number[self.loc_index[loc]]
    }

    pub fn type_(&self, ty: &Type) -> u64 {
        self.type_number[self.type_index[ty]]
    }

    /// The numbered name of `op` and whether it is written as registered.
    pub fn op_kind(&self, op: &Op) -> (&OpNameEntry, u64, bool) {
        let i = self.op_name_index[op.name.as_str()];
        let entry = &self.op_names[i];
        (entry, self.op_name_number[i], Self::registered(entry, op))
    }

    pub fn is_registered(&self, op: &Op) -> bool {
        self.op_kind(op).2
    }

    fn registered(entry: &OpNameEntry, op: &Op) -> bool {
        entry
            .origin_registered
            .unwrap_or_else(|| entry.definition.is_some() || op.opaque_properties.is_some())
    }

    fn number_dialect(&mut self, name: &str) -> usize {
        if let Some(&i) = self.dialect_index.get(name) {
            return i;
        }
        let i = self.dialects.len();
        self.dialects.push(name.to_string());
        self.dialect_index.insert(name.to_string(), i);
        i
    }

    pub fn number_attr(&mut self, attr: &Attribute) {
        match attr {
            Attribute::Location(loc) => return self.number_loc(loc),
            Attribute::Dictionary(entries) => return self.number_dict(entries),
            _ => {}
        }
        if count_use(&self.attr_index, &mut self.attrs, attr) {
            return;
        }
        let dialect = self.number_dialect(attr_dialect(attr));
        self.attr_index.insert(attr.clone(), self.attrs.len());
        self.attrs.push(Entry {
            key: AttrKey::Attr(attr.clone()),
            dialect,
            refs: 1,
        });
        // Nested entries are numbered by a dry run of the encoder.
        builtin_attrs::encode(attr, &mut NumberingSink { n: self });
    }

    fn number_dict(&mut self, entries: &[NamedAttribute]) {
        if count_use(&self.dict_index, &mut self.attrs, entries) {
            return;
        }
        let dialect = self.number_dialect("builtin");
        self.dict_index.insert(entries.to_vec(), self.attrs.len());
        self.attrs.push(Entry {
            key: AttrKey::Attr(Attribute::Dictionary(entries.to_vec())),
            dialect,
            refs: 1,
        });
        builtin_attrs::encode_dictionary(entries, &mut NumberingSink { n: self });
    }

    pub fn number_loc(&mut self, loc: &Location) {
        if count_use(&self.loc_index, &mut self.attrs, loc) {
            return;
        }
        let dialect = self.number_dialect("builtin");
        self.loc_index.insert(loc.clone(), self.attrs.len());
        self.attrs.push(Entry {
            key: AttrKey::Loc(loc.clone()),
            dialect,
            refs: 1,
        });
        builtin_attrs::encode_location(loc, &mut NumberingSink { n: self });
    }

    pub fn number_type(&mut self, ty: &Type) {
        if count_use(&self.type_index, &mut self.types, ty) {
            return;
        }
        let dialect = self.number_dialect(type_dialect(ty));
        self.type_index.insert(ty.clone(), self.types.len());
        self.types.push(Entry {
            key: ty.clone(),
            dialect,
            refs: 1,
        });
        builtin_types::encode(ty, &mut NumberingSink { n: self });
    }

    /// Counts a use of op name `name`; its entry index.
    fn number_op_name(&mut self, name: &str) -> usize {
        if let Some(&i) = self.op_name_index.get(name) {
            self.op_names[i].refs += 1;
            return i;
        }
        let dialect_name = name.split_once('.').map_or(name, |(d, _)| d);
        let dialect = self.number_dialect(dialect_name);
        self.op_name_index
            .insert(name.to_string(), self.op_names.len());
        self.op_names.push(OpNameEntry {
            name: name.to_string(),
            dialect,
            refs: 1,
            origin_registered: self.origin.map(|o| o.is_registered(name)),
            definition: ops::lookup(name),
        });
        self.op_names.len() - 1
    }

    /// Pre-order op ids, and which ops with regions use no value defined
    /// outside them (their regions are written as isolated).
    fn compute_isolation(&mut self, module: &Module) {
        // Pass 1: pre-order ids, and the op whose region defines each value
        // (uses may come before definitions).
        let mut owner: Vec<*const Op> = vec![std::ptr::null(); module.values.len()];
        let mut set_owner = |v: &ValueId, op: *const Op| {
            if let Some(slot) = owner.get_mut(v.index()) {
                *slot = op;
            }
        };
        let mut next_id = 0u64;
        let mut work: Vec<(&Op, *const Op)> = vec![(&module.op, std::ptr::null())];
        while let Some((op, parent)) = work.pop() {
            let ptr = op as *const Op;
            self.op_ids.insert(ptr, next_id);
            next_id += 1;
            op.results.iter().for_each(|r| set_owner(r, parent));
            for region in op.regions.iter().rev() {
                for block in region.blocks.iter().rev() {
                    block.arguments.iter().for_each(|a| set_owner(a, ptr));
                    work.extend(block.ops.iter().rev().map(|inner| (inner, ptr)));
                }
            }
        }
        // Pass 2: a use marks every enclosing op strictly inside the
        // defining region's op as not isolated.
        enum Item<'a> {
            Enter(&'a Op),
            Leave,
        }
        let mut open: Vec<*const Op> = Vec::new();
        let mut work = vec![Item::Enter(&module.op)];
        while let Some(item) = work.pop() {
            match item {
                Item::Leave => {
                    let op = open.pop().expect("open op");
                    self.isolated.entry(op).or_insert(true);
                }
                Item::Enter(op) => {
                    for v in &op.operands {
                        let def = owner.get(v.index()).copied().unwrap_or(std::ptr::null());
                        for &anc in open.iter().rev() {
                            if anc == def {
                                break;
                            }
                            self.isolated.insert(anc, false);
                        }
                    }
                    if op.regions.is_empty() {
                        continue;
                    }
                    open.push(op as *const Op);
                    work.push(Item::Leave);
                    for region in op.regions.iter().rev() {
                        for block in region.blocks.iter().rev() {
                            work.extend(block.ops.iter().rev().map(Item::Enter));
                        }
                    }
                }
            }
        }
    }

    pub fn is_isolated(&self, op: &Op) -> bool {
        self.isolated
            .get(&(op as *const Op))
            .copied()
            .unwrap_or(false)
    }

    /// Upstream's order: the root op, then regions from a stack (each
    /// region's ops first, then the regions nested in them pushed in order,
    /// so the last one is numbered next).
    fn number_ir(&mut self, module: &Module) {
        self.number_op(&module.op, &mut 0);
        let mut pending: Vec<(&Region, u64)> = module.op.regions.iter().map(|r| (r, 0)).collect();
        while let Some((region, mut next)) = pending.pop() {
            self.number_region(region, &mut next);
            for block in &region.blocks {
                for op in &block.ops {
                    let first = if self.is_isolated(op) { 0 } else { next };
                    pending.extend(op.regions.iter().map(|r| (r, first)));
                }
            }
        }
    }

    fn number_region(&mut self, region: &Region, next: &mut u64) {
        if region.blocks.is_empty() {
            return;
        }
        let first = *next;
        for block in &region.blocks {
            self.number_block(block, next);
        }
        self.region_counts.insert(
            region as *const Region,
            (region.blocks.len() as u64, *next - first),
        );
    }

    fn number_block(&mut self, block: &Block, next: &mut u64) {
        let values = self.values;
        for &arg in &block.arguments {
            self.set_value(arg, next);
            match values.get(arg.index()) {
                Some(data) => {
                    match &data.location {
                        Some(loc) => self.number_loc(loc),
                        None => self.number_loc(&Location::Unknown),
                    }
                    self.number_type(&data.ty);
                }
                None => {
                    self.number_loc(&Location::Unknown);
                    self.number_type(&Type::None);
                }
            }
        }
        for op in &block.ops {
            self.number_op(op, next);
        }
    }

    fn set_value(&mut self, v: ValueId, next: &mut u64) {
        if let Some(slot) = self.value_ids.get_mut(v.index()) {
            *slot = *next;
        }
        *next += 1;
    }

    fn number_op(&mut self, op: &Op, next: &mut u64) {
        let name = self.number_op_name(&op.name);
        let values = self.values;
        for &r in &op.results {
            self.set_value(r, next);
            match values.get(r.index()) {
                Some(data) => self.number_type(&data.ty),
                None => self.number_type(&Type::None),
            }
        }
        let entry = &self.op_names[name];
        let (registered, definition) = (Self::registered(entry, op), entry.definition);
        let dict = written_dictionary(op, self.version, registered);
        if !dict.is_empty() {
            self.number_dict(&dict);
        }
        if self.version >= 5 {
            if registered {
                if let (Some(def), Some(Attribute::Dictionary(props))) =
                    (definition, op.properties.as_deref())
                {
                    for (name, _) in property_fields(def, self.version) {
                        if let Some(v) = crate::ir::find_attribute(props, name) {
                            self.number_attr(v);
                        }
                    }
                }
            } else if let Some(p) = op.properties.as_deref() {
                self.number_attr(p);
            }
        }
        self.number_loc(&op.location);
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

fn count_ops(root: &Op) -> usize {
    let mut count = 0;
    let mut work = vec![root];
    while let Some(op) = work.pop() {
        count += 1;
        for region in &op.regions {
            for block in &region.blocks {
                work.extend(block.ops.iter());
            }
        }
    }
    count
}

fn order_of(numbers: &[u64]) -> Vec<usize> {
    let mut order = vec![0usize; numbers.len()];
    for (entry, &n) in numbers.iter().enumerate() {
        order[n as usize] = entry;
    }
    order
}

/// Final numbers: stable sort by reference count (descending), then
/// group by dialect within each band of indices that share a varint
/// length, preferring the dialect that ended the previous band.
fn finalize<T>(entries: &[T], refs: impl Fn(&T) -> u64, dialect: impl Fn(&T) -> usize) -> Vec<u64> {
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
    numbers
}
