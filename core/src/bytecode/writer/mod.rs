//! The MLIR bytecode writer: any version 0-6. Sections are written in
//! upstream's order (Dialect, AttrTypeOffset, AttrType, IR,
//! ResourceOffset, Resource, String, Properties) with upstream's numbering
//! (`numbering/`), so that an upstream file re-written at its version
//! keeps its bytes. What a version cannot express is reported in
//! `Written::warnings` (and dropped, as upstream does).

mod numbering;

use rustc_hash::FxHashMap;

use super::builtin_attrs;
use super::builtin_types;
use super::encoding::Emitter;
use super::entries::EntrySink;
use super::error::{BytecodeError, Result};
use super::{DEFAULT_PRODUCER, MAGIC, MAX_VERSION, ops, section};
use crate::ir::{
    Attribute, Location, Module, Op, Region, ResourceOwner, ResourceValue, Type, ValueId,
};
use numbering::{AttrKey, NONE, Numbering, OpRecord, property_fields};

/// How `write` encodes a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOptions {
    /// Format version, 0-6.
    pub version: u64,
    /// Producer string written in the header.
    pub producer: String,
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions {
            version: MAX_VERSION,
            producer: DEFAULT_PRODUCER.to_string(),
        }
    }
}

/// The output of `write`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The encoded file.
    pub bytes: Vec<u8>,
    /// What the requested version could not express (and was dropped).
    pub warnings: Vec<String>,
}

/// Deepest region nesting the (recursive) IR emitter accepts; the reader
/// and the text parser produce shallower modules.
const MAX_REGION_DEPTH: usize = 1024;

/// String section: indices in first-insertion order.
#[derive(Default)]
struct Strings {
    list: Vec<Vec<u8>>,
    index: FxHashMap<Vec<u8>, u64>,
}

impl Strings {
    fn insert(&mut self, s: &[u8]) -> u64 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.list.len() as u64;
        self.list.push(s.to_vec());
        self.index.insert(s.to_vec(), i);
        i
    }
}

/// Sections in written order, kept until all are built so that the output
/// is allocated once.
#[derive(Default)]
struct Sections(Vec<(u8, Emitter)>);

impl Sections {
    fn section(&mut self, id: u8, content: Emitter) {
        self.0.push((id, content));
    }

    /// An upper bound of the file size: header, then each section with
    /// its id, length, alignment and padding.
    fn size(&self, producer_len: usize) -> usize {
        let framing = |e: &Emitter| 1 + 9 + 9 + e.required_alignment as usize;
        MAGIC.len()
            + 9
            + producer_len
            + 1
            + self
                .0
                .iter()
                .map(|(_, e)| framing(e) + e.len())
                .sum::<usize>()
    }
}

/// Properties section: deduplicated blobs in first-use order, each
/// `varint size` then the bytes, kept in one buffer.
#[derive(Default)]
struct Properties {
    entries: Emitter,
    count: usize,
    /// Byte range of each blob in `entries`, by index.
    blobs: Vec<std::ops::Range<usize>>,
    /// (hash, index) of each blob.
    index: hashbrown::HashTable<(u64, usize)>,
}

impl Properties {
    /// The index of `blob`, added if new.
    fn insert(&mut self, blob: &[u8]) -> u64 {
        use std::hash::BuildHasher;
        let hash = rustc_hash::FxBuildHasher.hash_one(blob);
        let (entries, blobs) = (&self.entries.bytes, &self.blobs);
        let found = self.index.find(hash, |&(h, i)| {
            h == hash && entries[blobs[i].clone()] == *blob
        });
        if let Some(&(_, i)) = found {
            return i as u64;
        }
        let i = self.count;
        self.count += 1;
        self.entries.varint(blob.len() as u64);
        let start = self.entries.len();
        self.entries.raw(blob);
        self.blobs.push(start..self.entries.len());
        self.index.insert_unique(hash, (hash, i), |&(h, _)| h);
        i as u64
    }
}

struct EmitSink<'w, 'm> {
    out: &'w mut Emitter,
    n: &'w Numbering<'m>,
    strings: &'w mut Strings,
    /// `dense_resource` key → handle (index among all dialect resources).
    resource_handles: &'w FxHashMap<String, u64>,
    /// The file name written last (address, number): locations of one
    /// file come in runs.
    last_file: &'w mut Option<(*const u8, u64)>,
}

// The methods a location's encoding calls are inlined into the (generic)
// location encoder: a large module has a location per op.
impl EntrySink for EmitSink<'_, '_> {
    #[inline(always)]
    fn varint(&mut self, value: u64) {
        self.out.varint(value);
    }
    fn signed_varint(&mut self, value: i64) {
        self.out.signed_varint(value);
    }
    fn byte(&mut self, value: u8) {
        self.out.byte(value);
    }
    fn blob(&mut self, data: &[u8]) {
        self.out.varint(data.len() as u64);
        self.out.raw(data);
    }
    fn string(&mut self, s: &[u8]) {
        let i = self.strings.insert(s);
        self.out.varint(i);
    }
    fn attribute(&mut self, attr: &Attribute) {
        self.out.varint(self.n.attr(attr));
    }
    fn location(&mut self, loc: &Location) {
        self.out.varint(self.n.loc(loc));
    }
    #[inline(always)]
    fn file_name(&mut self, file: &std::sync::Arc<str>) {
        let key = std::sync::Arc::as_ptr(file) as *const u8;
        let number = match *self.last_file {
            Some((last, number)) if last == key => number,
            _ => self.n.file_name(file),
        };
        *self.last_file = Some((key, number));
        self.out.varint(number);
    }
    fn type_(&mut self, ty: &Type) {
        self.out.varint(self.n.type_(ty));
    }
    fn resource(&mut self, key: &str) {
        let handle = self.resource_handles.get(key).copied().unwrap_or(0);
        self.out.varint(handle);
    }
}

/// Writes `module` as MLIR bytecode.
///
/// A module parsed from text keeps inherent attributes in the dictionary;
/// from version 5 they belong in the properties, so such a module is copied
/// to split them. [`write_splitting`] splits them in place instead.
pub fn write(module: &Module, options: &WriteOptions) -> Result<Written> {
    check_version(options.version)?;
    let version = options.version;
    if let Some(n) = Numbering::new(module, version, module.origin.as_deref(), version >= 5) {
        return write_numbered(module, &n, options);
    }
    let mut copy = module.clone();
    ops::split_all_inherent_attributes(&mut copy);
    let n = Numbering::new(&copy, version, copy.origin.as_deref(), false)
        .expect("numbering without the split check");
    write_numbered(&copy, &n, options)
}

/// [`write()`], splitting inherent attributes into properties in `module`
/// itself when the version needs them there, rather than in a copy: for a
/// caller done with the dictionary form, this saves a second module at
/// the peak (on a large program parsed from text, about a third of the
/// writer's memory).
pub fn write_splitting(module: &mut Module, options: &WriteOptions) -> Result<Written> {
    check_version(options.version)?;
    let version = options.version;
    if let Some(n) = Numbering::new(module, version, module.origin.as_deref(), version >= 5) {
        return write_numbered(module, &n, options);
    }
    ops::split_all_inherent_attributes(module);
    let n = Numbering::new(module, version, module.origin.as_deref(), false)
        .expect("numbering without the split check");
    write_numbered(module, &n, options)
}

fn check_version(version: u64) -> Result<()> {
    if version > MAX_VERSION {
        return Err(BytecodeError::new(
            0,
            format!("bytecode version {version} is newer than the current version {MAX_VERSION}"),
        ));
    }
    Ok(())
}

/// Writes `module`, numbered by `n`, whose inherent attributes are where
/// the version wants them.
fn write_numbered(module: &Module, n: &Numbering<'_>, options: &WriteOptions) -> Result<Written> {
    let version = options.version;
    let mut w = Writer {
        n,
        module,
        version,
        strings: Strings::default(),
        properties: Properties::default(),
        property_scratch: Emitter::new(),
        property_memo: vec![None; n.op_names.len()],
        next_op: 0,
        region_buffers: Vec::new(),
        last_file: None,
        warnings: Vec::new(),
        builtin_resources: Vec::new(),
        resource_handles: FxHashMap::default(),
    };
    w.number_builtin_resources();
    let mut sections = Sections::default();
    w.write_dialect_section(&mut sections);
    w.write_attr_type_sections(&mut sections);
    w.write_ir_section(&mut sections)?;
    w.write_resource_sections(&mut sections);
    w.write_string_section(&mut sections);
    if version >= 5 {
        let mut props = Emitter::new();
        props.varint(w.properties.count as u64);
        props.raw(&w.properties.entries.bytes);
        sections.section(section::PROPERTIES, props);
    }
    let mut out = Emitter::with_capacity(sections.size(options.producer.len()));
    out.raw(&MAGIC);
    out.varint(version);
    out.nul_terminated(options.producer.as_bytes());
    for (id, content) in &sections.0 {
        out.section(*id, content);
    }
    Ok(Written {
        bytes: out.bytes,
        warnings: w.warnings,
    })
}

struct Writer<'w, 'm> {
    n: &'w Numbering<'m>,
    module: &'m Module,
    version: u64,
    strings: Strings,
    properties: Properties,
    /// Where each op's property blob is built.
    property_scratch: Emitter,
    /// By op name entry: where the property entries of the last op of
    /// that name start, and its properties index.
    property_memo: Vec<Option<(usize, u64)>>,
    /// Pre-order id of the next op `write_op` writes.
    next_op: usize,
    /// Free buffers for the contents of isolated regions.
    region_buffers: Vec<Emitter>,
    /// See `EmitSink::last_file`.
    last_file: Option<(*const u8, u64)>,
    warnings: Vec<String>,
    /// The `builtin` group as written: referenced entries with data, then
    /// the data-less ones, like upstream.
    builtin_resources: Vec<(String, ResourceValue)>,
    resource_handles: FxHashMap<String, u64>,
}

/// Consecutive entries of the same dialect: `{dialect, count, entries}`,
/// as runs of `order` (a large module has one run of tens of thousands).
fn dialect_groups(order: &[usize], dialect_of: impl Fn(usize) -> usize) -> Vec<(usize, &[usize])> {
    let mut groups: Vec<(usize, &[usize])> = Vec::new();
    let mut rest = order;
    while let Some(&first) = rest.first() {
        let d = dialect_of(first);
        let len = rest
            .iter()
            .position(|&e| dialect_of(e) != d)
            .unwrap_or(rest.len());
        let (run, tail) = rest.split_at(len);
        groups.push((d, run));
        rest = tail;
    }
    groups
}

impl Writer<'_, '_> {
    fn write_dialect_section(&mut self, out: &mut Sections) {
        let mut e = Emitter::new();
        e.varint(self.n.dialects.len() as u64);
        let versions = self
            .module
            .origin
            .as_ref()
            .map(|o| o.dialect_versions.clone())
            .unwrap_or_default();
        for name in &self.n.dialects {
            let id = self.strings.insert(name.as_bytes());
            if self.version < 1 {
                e.varint(id);
                continue;
            }
            match versions.iter().find(|(d, _)| d == name) {
                Some((_, bytes)) if !bytes.is_empty() => {
                    e.varint_with_flag(id, true);
                    let mut v = Emitter::new();
                    v.raw(bytes);
                    e.section(section::DIALECT_VERSIONS, &v);
                }
                _ => e.varint_with_flag(id, false),
            }
        }
        if self.version >= 4 {
            e.varint(self.n.op_names.len() as u64);
        }
        let order = self.n.op_name_order();
        for (dialect, names) in dialect_groups(order, |i| self.n.op_names[i].dialect) {
            e.varint(dialect as u64);
            e.varint(names.len() as u64);
            for &i in names {
                let full = &self.n.op_names[i].name;
                let stripped = full.split_once('.').map_or("", |(_, rest)| rest);
                let id = self.strings.insert(stripped.as_bytes());
                if self.version < 5 {
                    e.varint(id);
                } else {
                    let probe = Op::new(full.clone(), Location::Unknown);
                    let registered = Numbering::registered(&self.n.op_names[i], &probe);
                    e.varint_with_flag(id, registered);
                }
            }
        }
        out.section(section::DIALECT, e);
    }

    fn write_attr_type_sections(&mut self, out: &mut Sections) {
        // Entries take a few bytes each (locations most often), their
        // offsets one or two: room for most without growing.
        let entries = self.n.attrs.len() + self.n.types.len();
        let mut offsets = Emitter::with_capacity(2 * entries + 16);
        let mut data = Emitter::with_capacity(8 * entries);
        offsets.varint(self.n.attrs.len() as u64);
        offsets.varint(self.n.types.len() as u64);
        let mut prev = 0usize;
        let attr_order = self.n.attr_order();
        for (dialect, entries) in dialect_groups(attr_order, |i| self.n.attrs[i].dialect as usize) {
            offsets.varint(dialect as u64);
            offsets.varint(entries.len() as u64);
            for &i in entries {
                let custom = {
                    let mut sink = EmitSink {
                        out: &mut data,
                        n: self.n,
                        strings: &mut self.strings,
                        resource_handles: &self.resource_handles,
                        last_file: &mut self.last_file,
                    };
                    match &self.n.attrs[i].key {
                        AttrKey::Loc(loc) => {
                            builtin_attrs::encode_location(loc, &mut sink);
                            true
                        }
                        AttrKey::Dict(entries) => {
                            builtin_attrs::encode_dictionary(entries, &mut sink);
                            true
                        }
                        &AttrKey::FileLineCol { file, line, column } => {
                            let file = self.n.attr_entry(file);
                            builtin_attrs::encode_numbered_file_line_col(
                                file, line, column, &mut sink,
                            );
                            true
                        }
                        AttrKey::Attr(attr) => builtin_attrs::encode(attr, &mut sink),
                    }
                };
                if !custom && let AttrKey::Attr(attr) = &self.n.attrs[i].key {
                    data.nul_terminated(crate::text::print_attribute(attr).as_bytes());
                }
                offsets.varint_with_flag((data.len() - prev) as u64, custom);
                prev = data.len();
            }
        }
        let type_order = self.n.type_order();
        for (dialect, entries) in dialect_groups(type_order, |i| self.n.types[i].dialect as usize) {
            offsets.varint(dialect as u64);
            offsets.varint(entries.len() as u64);
            for &i in entries {
                let ty = &self.n.types[i].key;
                let custom = builtin_types::encode(
                    ty,
                    &mut EmitSink {
                        out: &mut data,
                        n: self.n,
                        strings: &mut self.strings,
                        resource_handles: &self.resource_handles,
                        last_file: &mut self.last_file,
                    },
                );
                if !custom {
                    data.nul_terminated(ty.to_string().as_bytes());
                }
                offsets.varint_with_flag((data.len() - prev) as u64, custom);
                prev = data.len();
            }
        }
        out.section(section::ATTR_TYPE_OFFSET, offsets);
        out.section(section::ATTR_TYPE, data);
    }

    fn write_ir_section(&mut self, out: &mut Sections) -> Result<()> {
        let mut e = Emitter::with_capacity(self.ir_capacity());
        e.varint_with_flag(1, false);
        self.write_op(&mut e, &self.module.op, 0)?;
        out.section(section::IR, e);
        Ok(())
    }

    /// Room for the IR section: about eleven bytes per op with
    /// locations, so that it is not copied while growing.
    fn ir_capacity(&self) -> usize {
        self.n.ops.len() * 12 + 64
    }

    fn value_id(&self, v: ValueId) -> u64 {
        self.n.value_records.get(v.index()).map_or(0, |r| r.id)
    }

    /// The number of the type of value `v`.
    fn value_type(&self, v: ValueId) -> u64 {
        match self.n.value_records.get(v.index()) {
            Some(r) => self.n.type_entry(r.ty),
            None => self.n.type_(self.module.value_type(v)),
        }
    }

    fn write_op(&mut self, e: &mut Emitter, op: &Op, depth: usize) -> Result<()> {
        if depth > MAX_REGION_DEPTH {
            return Err(BytecodeError::new(
                0,
                format!("regions nested deeper than {MAX_REGION_DEPTH}"),
            ));
        }
        // Ops are written in pre-order, the order of their ids.
        let record = self.n.ops[self.next_op];
        self.next_op += 1;
        let (kind, name_number, registered) = self.n.op_kind(op, &record);
        let definition = kind.definition;
        e.varint(name_number);
        let mask_at = e.len();
        e.byte(0);
        let mut mask = 0u8;
        e.varint(self.n.attr_entry(record.location));
        if record.dictionary != NONE {
            mask |= 0x01;
            e.varint(self.n.attr_entry(record.dictionary));
        }
        if self.version >= 5 {
            if let Some(index) = self.emit_properties(op, &record, registered, definition)? {
                mask |= 0x40;
                e.varint(index);
            }
        } else if !registered && op.properties.is_some() {
            self.warnings.push(format!(
                "properties of unregistered op '{}' cannot be expressed before version 5 and were dropped",
                op.name
            ));
        } else if op.opaque_properties.is_some() {
            self.warnings.push(format!(
                "opaque properties of '{}' cannot be expressed before version 5 and were dropped",
                op.name
            ));
        }
        if !op.results.is_empty() {
            mask |= 0x02;
            e.varint(op.results.len() as u64);
            for &r in &op.results {
                e.varint(self.value_type(r));
            }
        }
        if !op.operands.is_empty() {
            mask |= 0x04;
            e.varint(op.operands.len() as u64);
            for &v in &op.operands {
                e.varint(self.value_id(v));
            }
        }
        if !op.successors.is_empty() {
            mask |= 0x08;
            e.varint(op.successors.len() as u64);
            for &s in &op.successors {
                e.varint(u64::from(s));
            }
        }
        if self.version >= 3
            && record.result_use_orders
            && self.write_use_list_orders(e, &op.results)
        {
            mask |= 0x20;
        }
        if !op.regions.is_empty() {
            mask |= 0x10;
        }
        e.bytes[mask_at] = mask;
        if op.regions.is_empty() {
            return Ok(());
        }
        let isolated = record.isolated;
        e.varint_with_flag(op.regions.len() as u64, isolated);
        let slots = record.regions as usize..;
        if isolated && self.version >= 2 {
            // Buffers are reused: a module has an isolated region per
            // function, and growing a fresh one for each showed in profiles.
            // The root's holds nearly the whole section: sized for it.
            let mut nested = self.region_buffers.pop().unwrap_or_else(|| {
                Emitter::with_capacity(if depth == 0 { self.ir_capacity() } else { 0 })
            });
            nested.clear();
            for (r, slot) in op.regions.iter().zip(slots) {
                self.write_region(&mut nested, r, slot, depth + 1)?;
            }
            e.section(section::IR, &nested);
            self.region_buffers.push(nested);
        } else {
            for (r, slot) in op.regions.iter().zip(slots) {
                self.write_region(e, r, slot, depth + 1)?;
            }
        }
        Ok(())
    }

    /// `slot`: the region's index in the numbering's `region_counts`.
    fn write_region(
        &mut self,
        e: &mut Emitter,
        region: &Region,
        slot: usize,
        depth: usize,
    ) -> Result<()> {
        if region.blocks.is_empty() {
            e.varint(0);
            return Ok(());
        }
        let (blocks, values) = self.n.region_counts[slot];
        e.varint(blocks);
        e.varint(values);
        for block in &region.blocks {
            let has_args = !block.arguments.is_empty();
            e.varint_with_flag(block.ops.len() as u64, has_args);
            if has_args {
                e.varint(block.arguments.len() as u64);
                for &a in &block.arguments {
                    let data = &self.module.values[a.index()];
                    let value = &self.n.value_records[a.index()];
                    let ty = self.n.type_entry(value.ty);
                    let loc = self.n.attr_entry(value.location);
                    if self.version >= 4 {
                        let known = data
                            .location
                            .as_ref()
                            .is_some_and(|l| **l != Location::Unknown);
                        e.varint_with_flag(ty, known);
                        if known {
                            e.varint(loc);
                        }
                    } else {
                        e.varint(ty);
                        e.varint(loc);
                    }
                }
                if self.version >= 3 {
                    let flag_at = e.len();
                    e.byte(0);
                    if self.write_use_list_orders(e, &block.arguments) {
                        e.bytes[flag_at] = 0x20;
                    }
                }
            }
            for op in &block.ops {
                self.write_op(e, op, depth)?;
            }
        }
        Ok(())
    }

    /// Use-list orders of `values` that differ from the reference order,
    /// in the order of upstream's `DenseMap<unsigned, ...>`.
    fn write_use_list_orders(&mut self, e: &mut Emitter, values: &[ValueId]) -> bool {
        let mut orders: Vec<(u32, &[u32])> = Vec::new();
        for (i, &v) in values.iter().enumerate() {
            let Some(order) = self.module.values[v.index()].use_list_order.as_deref() else {
                continue;
            };
            let identity = order.iter().enumerate().all(|(k, &p)| p as usize == k);
            if order.len() < 2 || identity {
                continue;
            }
            orders.push((i as u32, order));
        }
        if orders.is_empty() {
            return false;
        }
        let keys: Vec<u32> = orders.iter().map(|(k, _)| *k).collect();
        let iteration = dense_map_iteration_order(&keys);
        if values.len() != 1 {
            e.varint(orders.len() as u64);
        }
        for key in iteration {
            let (index, order) = orders.iter().find(|(k, _)| *k == key).expect("key");
            if values.len() != 1 {
                e.varint(u64::from(*index));
            }
            let shuffled = order
                .iter()
                .enumerate()
                .filter(|(k, p)| **p as usize != *k)
                .count();
            if shuffled < order.len() / 2 {
                e.varint_with_flag((shuffled * 2) as u64, true);
                for (k, &p) in order.iter().enumerate() {
                    if p as usize != k {
                        e.varint(u64::from(p));
                        e.varint(k as u64);
                    }
                }
            } else {
                e.varint_with_flag(order.len() as u64, false);
                for &p in order.iter() {
                    e.varint(u64::from(p));
                }
            }
        }
        true
    }

    /// The properties entry of `op` (version 5+), deduplicated.
    fn emit_properties(
        &mut self,
        op: &Op,
        record: &OpRecord,
        registered: bool,
        definition: Option<&'static ops::OpDefinition>,
    ) -> Result<Option<u64>> {
        // Ops of one kind mostly repeat their properties: an op whose
        // property entries equal those of the last op of its name has its
        // blob. (In version 6 segment sizes come from elsewhere.)
        let n = self.n;
        let start = record.properties as usize;
        let fields = match definition {
            Some(def) if registered && (self.version < 6 || def.segments.is_empty()) => {
                Some(&n.property_attrs[start..start + property_fields(def, self.version).count()])
            }
            _ => None,
        };
        let memo = &mut self.property_memo[record.name as usize];
        if let (Some(fields), Some((last, index))) = (fields, *memo)
            && n.property_attrs[last..last + fields.len()] == *fields
        {
            return Ok(Some(index));
        }
        // One buffer serves every op's blob.
        let mut blob = std::mem::take(&mut self.property_scratch);
        blob.bytes.clear();
        let encoded = self.encode_properties(&mut blob, op, record, registered, definition);
        let index = match encoded {
            Ok(true) => Some(self.properties.insert(&blob.bytes)),
            Ok(false) => None,
            Err(e) => {
                self.property_scratch = blob;
                return Err(e);
            }
        };
        self.property_scratch = blob;
        if let (Some(_), Some(index)) = (fields, index) {
            self.property_memo[record.name as usize] = Some((start, index));
        }
        Ok(index)
    }

    /// Encodes the properties of `op` into `blob`; false when it has none
    /// to write.
    fn encode_properties(
        &mut self,
        blob: &mut Emitter,
        op: &Op,
        record: &OpRecord,
        registered: bool,
        definition: Option<&'static ops::OpDefinition>,
    ) -> Result<bool> {
        let n = self.n;
        // The entries the numbering gave the op's property values, in
        // written order.
        let mut entries = n.property_attrs[record.properties as usize..].iter();
        let mut next_entry = || *entries.next().expect("numbered property");
        if !registered {
            if op.properties.is_none() {
                return Ok(false);
            }
            blob.varint(n.attr_entry(next_entry()));
        } else if let Some(def) = definition {
            if !def.has_properties() {
                return Ok(false);
            }
            let empty = Vec::new();
            let props = match op.properties.as_deref() {
                Some(Attribute::Dictionary(entries)) => entries,
                _ => &empty,
            };
            for (name, optional) in property_fields(def, self.version) {
                let entry = next_entry();
                match (entry != NONE, optional) {
                    (true, false) => blob.varint(n.attr_entry(entry)),
                    (true, true) => blob.varint_with_flag(n.attr_entry(entry), true),
                    (false, true) => blob.varint(0),
                    (false, false) => {
                        return Err(BytecodeError::new(
                            0,
                            format!("op '{}' lacks its required attribute '{name}'", op.name),
                        ));
                    }
                }
            }
            if self.version >= 6 {
                for seg in def.segments {
                    let sizes = match crate::ir::find_attribute(props, seg.name) {
                        Some(Attribute::DenseArray { data, .. }) => data
                            .chunks_exact(4)
                            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                            .collect(),
                        _ => vec![0; seg.len],
                    };
                    write_segment_sizes(blob, &sizes);
                }
            }
        } else if let Some(raw) = op.opaque_properties.as_deref() {
            blob.raw(raw);
        } else {
            if op.properties.is_some() {
                // A damaged file can name one op both registered and not:
                // its dictionary has no registered layout to be written in.
                self.warnings.push(format!(
                    "properties of '{}' were dropped: the op is registered but its property layout is unknown",
                    op.name
                ));
            }
            return Ok(false);
        }
        Ok(true)
    }

    /// Orders the `builtin` group as upstream writes it (entries the
    /// blob manager builds, i.e. those with data, in first-reference
    /// order, then the declarations without data) and gives each
    /// referenced key its handle: the index among all dialect resources,
    /// counting the groups of the dialects numbered before `builtin`.
    fn number_builtin_resources(&mut self) {
        let stored = self.stored_group("builtin");
        let value_of = |key: &str| {
            stored
                .iter()
                .find(|e| e.key == key)
                .map_or(ResourceValue::Declared, |e| e.value.clone())
        };
        let (mut with_data, declared): (Vec<_>, Vec<_>) = self
            .n
            .resources
            .iter()
            .map(|key| (key.clone(), value_of(key)))
            .partition(|(_, v)| !matches!(v, ResourceValue::Declared));
        with_data.extend(declared);
        let mut base = 0u64;
        for d in &self.n.dialects {
            if d == "builtin" {
                break;
            }
            base += self.stored_group(d).len() as u64;
        }
        self.resource_handles = with_data
            .iter()
            .enumerate()
            .map(|(i, (key, _))| (key.clone(), base + i as u64))
            .collect();
        self.builtin_resources = with_data;
    }

    /// The entries of `dialect`'s stored groups (a file may split one
    /// dialect's resources over several groups; they are written as one).
    fn stored_group(&self, dialect: &str) -> Vec<&crate::ir::ResourceEntry> {
        self.module
            .resources
            .iter()
            .filter(|g| matches!(&g.owner, ResourceOwner::Dialect(d) if d == dialect))
            .flat_map(|g| &g.entries)
            .collect()
    }

    fn write_resource_sections(&mut self, out: &mut Sections) {
        let mut offsets = Emitter::new();
        let mut data = Emitter::new();
        let externals: Vec<_> = self
            .module
            .resources
            .iter()
            .filter_map(|g| match &g.owner {
                ResourceOwner::External(k) => Some((k.clone(), g.entries.clone())),
                ResourceOwner::Dialect(_) => None,
            })
            .collect();
        offsets.varint(externals.len() as u64);
        for (key, entries) in externals {
            let built = self.build_entries(
                &mut data,
                entries.iter().map(|e| (e.key.as_str(), &e.value)),
            );
            let key_id = self.strings.insert(key.as_bytes());
            self.emit_group(&mut offsets, key_id, built);
        }
        let dialects = self.n.dialects.clone();
        for (index, d) in dialects.iter().enumerate() {
            let entries: Vec<(String, ResourceValue)> = if d == "builtin" {
                self.builtin_resources.clone()
            } else {
                self.stored_group(d)
                    .iter()
                    .map(|e| (e.key.clone(), e.value.clone()))
                    .collect()
            };
            if entries.is_empty() {
                continue;
            }
            let built = self.build_entries(&mut data, entries.iter().map(|(k, v)| (k.as_str(), v)));
            self.emit_group(&mut offsets, index as u64, built);
        }
        // Dialect resources go out only for dialects the IR uses, and
        // builtin ones only when an attribute refers to them: say what
        // that leaves behind rather than lose it silently.
        for group in &self.module.resources {
            let ResourceOwner::Dialect(d) = &group.owner else {
                continue;
            };
            let used = dialects.contains(d);
            for entry in &group.entries {
                if !used || (d == "builtin" && !self.n.resources.contains(&entry.key)) {
                    self.warnings.push(format!(
                        "resource '{}' of dialect '{d}' is not referenced by the IR and was dropped",
                        entry.key
                    ));
                }
            }
        }
        out.section(section::RESOURCE_OFFSET, offsets);
        out.section(section::RESOURCE, data);
    }

    /// Writes entry data; returns (key, kind, size) per entry.
    fn build_entries<'k>(
        &mut self,
        data: &mut Emitter,
        entries: impl Iterator<Item = (&'k str, &'k ResourceValue)>,
    ) -> Vec<(String, u8, u64)> {
        let mut out = Vec::new();
        for (key, value) in entries {
            let start = data.len();
            let kind = match value {
                ResourceValue::Blob {
                    alignment,
                    data: bytes,
                } => {
                    data.varint(*alignment);
                    data.varint(bytes.len() as u64);
                    data.align_to(*alignment);
                    data.raw(bytes);
                    0
                }
                ResourceValue::Bool(b) => {
                    data.byte(u8::from(*b));
                    1
                }
                ResourceValue::String(s) => {
                    let id = self.strings.insert(s.as_bytes());
                    data.varint(id);
                    2
                }
                ResourceValue::Declared => 0,
            };
            out.push((key.to_string(), kind, (data.len() - start) as u64));
        }
        out
    }

    fn emit_group(&mut self, offsets: &mut Emitter, key: u64, entries: Vec<(String, u8, u64)>) {
        offsets.varint(key);
        offsets.varint(entries.len() as u64);
        for (k, kind, size) in entries {
            let id = self.strings.insert(k.as_bytes());
            offsets.varint(id);
            offsets.varint(size);
            offsets.byte(kind);
        }
    }

    fn write_string_section(&mut self, out: &mut Sections) {
        let mut e = Emitter::new();
        e.varint(self.strings.list.len() as u64);
        for s in self.strings.list.iter().rev() {
            e.varint(s.len() as u64 + 1);
        }
        for s in &self.strings.list {
            e.nul_terminated(s);
        }
        out.section(section::STRING, e);
    }
}

/// Segment sizes in version 6's native form (see the reader).
fn write_segment_sizes(e: &mut Emitter, sizes: &[i32]) {
    let nonzero: Vec<(usize, i32)> = sizes
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, v)| *v != 0)
        .collect();
    if nonzero.len() * 2 > sizes.len() {
        e.varint_with_flag(sizes.len() as u64, false);
        for &s in sizes {
            e.varint(s as u32 as u64);
        }
        return;
    }
    e.varint_with_flag(nonzero.len() as u64, true);
    let max_index = nonzero.last().map_or(0, |(i, _)| *i) as u64;
    let width = 64 - max_index.leading_zeros() as u64;
    e.varint(width);
    for (i, v) in nonzero {
        e.varint(((v as u32 as u64) << width) | i as u64);
    }
}

/// Iteration order of LLVM's `DenseMap<unsigned, T>` after inserting
/// `keys` in order: hash `k * 37`, quadratic probing, 64 buckets growing
/// by doubling at three-quarters load.
fn dense_map_iteration_order(keys: &[u32]) -> Vec<u32> {
    let mut buckets: Vec<Option<u32>> = vec![None; 64];
    let mut len = 0usize;
    let insert = |buckets: &mut Vec<Option<u32>>, k: u32| {
        let mask = buckets.len() - 1;
        let mut b = (k.wrapping_mul(37) as usize) & mask;
        let mut probe = 1;
        while buckets[b].is_some() {
            b = (b + probe) & mask;
            probe += 1;
        }
        buckets[b] = Some(k);
    };
    for &k in keys {
        if (len + 1) * 4 >= buckets.len() * 3 {
            let old = std::mem::replace(&mut buckets, vec![None; 0]);
            buckets = vec![None; old.len() * 2];
            for k in old.into_iter().flatten() {
                insert(&mut buckets, k);
            }
        }
        insert(&mut buckets, k);
        len += 1;
    }
    buckets.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_map_order_follows_hash_buckets() {
        // 0 → bucket 0, 1 → 37, 2 → 10: iteration 0, 2, 1.
        assert_eq!(dense_map_iteration_order(&[1, 0, 2]), vec![0, 2, 1]);
    }

    #[test]
    fn segment_sizes_dense_and_sparse() {
        let mut e = Emitter::new();
        write_segment_sizes(&mut e, &[1, 1, 2]);
        assert_eq!(e.bytes, [0x0d, 0x03, 0x03, 0x05]);
        let mut e = Emitter::new();
        write_segment_sizes(&mut e, &[1, 1, 0, 0]);
        assert_eq!(e.bytes, [0x0b, 0x03, 0x05, 0x07]);
        let mut e = Emitter::new();
        write_segment_sizes(&mut e, &[1, 0, 0]);
        assert_eq!(e.bytes, [0x07, 0x01, 0x03]);
    }

    #[test]
    fn unreferenced_dialect_resources_are_dropped_with_a_warning() {
        use crate::ir::{Location, Module, ResourceEntry, ResourceGroup};
        let mut m = Module::new(Location::Unknown);
        m.resources.push(ResourceGroup {
            owner: ResourceOwner::Dialect("builtin".into()),
            entries: vec![ResourceEntry {
                key: "unused".into(),
                value: ResourceValue::Bool(true),
            }],
        });
        let w = write(&m, &WriteOptions::default()).unwrap();
        assert_eq!(w.warnings.len(), 1, "{:?}", w.warnings);
        assert!(w.warnings[0].contains("'unused' of dialect 'builtin'"));
        assert!(
            crate::bytecode::read_aligned(&w.bytes)
                .unwrap()
                .resources
                .is_empty()
        );
    }

    #[test]
    fn text_parsed_inherent_attributes_go_to_properties_from_version_5() {
        let src = "func.func @f() {\n  tfrt.return\n}\n";
        let parsed = crate::text::parse_module(src, "t.mlir").unwrap();
        for version in 0..=MAX_VERSION {
            let options = WriteOptions {
                version,
                ..WriteOptions::default()
            };
            let mut back =
                crate::bytecode::read_aligned(&write(&parsed, &options).unwrap().bytes).unwrap();
            let func = &back.op.regions[0].blocks[0].ops[0];
            assert!(func.attributes.is_empty(), "v{version}");
            assert!(func.properties.is_some(), "v{version}");
            // Joining gives back the text parser's form.
            back.origin = None;
            crate::bytecode::ops::join_all_inherent_attributes(&mut back);
            assert_eq!(back, parsed, "v{version}");
        }
    }

    /// Splitting in place writes what splitting a copy writes, for every
    /// corpus program at the oldest and newest versions, and leaves the
    /// module split from version 5 (so a second write copies nothing).
    #[test]
    fn writing_with_an_in_place_split_gives_the_same_bytes() {
        let mut compared = 0;
        for (path, chunk) in crate::test_corpus::corpus_chunks() {
            let Ok(parsed) = crate::text::parse_module(&chunk, "t.mlir") else {
                continue;
            };
            for version in [0, 4, MAX_VERSION] {
                let options = WriteOptions {
                    version,
                    ..WriteOptions::default()
                };
                let copied = write(&parsed, &options);
                let mut module = parsed.clone();
                let in_place = write_splitting(&mut module, &options);
                match (copied, in_place) {
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a.bytes, b.bytes, "{} v{version}", path.display());
                        assert_eq!(a.warnings, b.warnings, "{} v{version}", path.display());
                    }
                    (a, b) => assert_eq!(
                        a.err().map(|e| e.to_string()),
                        b.err().map(|e| e.to_string()),
                        "{} v{version}",
                        path.display()
                    ),
                }
                if version >= 5 {
                    let keeps = Numbering::new(&module, version, None, true).is_none();
                    assert!(!keeps, "{} v{version}: not split", path.display());
                }
                compared += 1;
            }
        }
        assert!(compared > 100, "only {compared} programs compared");
    }
}
