//! The MLIR bytecode reader. `Structure::parse` frames the file (header,
//! sections, string table, dialects, op names, attribute/type entries,
//! resources, properties) without decoding any attribute; `read` then
//! decodes the IR into an `ir::Module`. Strings, entry bytes and resource
//! blobs are borrowed from the input until the module is built.

mod ir;
mod lazy;
mod parallel;
mod table;

pub use lazy::{LazyModule, read_lazy};

pub use table::MAX_NESTING;
pub(crate) use table::{EntrySpan, Table};

use std::collections::{HashMap, HashSet};

use super::encoding::Reader;
use super::error::{BytecodeError, Result};
use super::{MAGIC, MAX_VERSION, SECTION_NAMES, section};
use crate::ir::{
    BytecodeOrigin, Module, ResourceEntry, ResourceGroup, ResourceOwner, ResourceValue,
};

/// An op name of the Dialect section.
#[derive(Debug, Clone)]
pub struct OpName<'a> {
    pub dialect: usize,
    /// Without the dialect prefix; empty when the op is named just the
    /// dialect.
    pub name: &'a str,
    /// From version 5; `false` before.
    pub registered: bool,
}

impl OpName<'_> {
    pub fn full_name(&self, dialects: &[&str]) -> String {
        let dialect = dialects[self.dialect];
        if self.name.is_empty() {
            dialect.to_string()
        } else {
            format!("{dialect}.{}", self.name)
        }
    }
}

/// One resource entry as framed in the file.
#[derive(Debug, Clone)]
pub struct RawResource<'a> {
    pub key: &'a str,
    pub kind: u8,
    /// Absolute offset of the entry data.
    pub offset: usize,
    pub value: ResourceValue,
    pub data: &'a [u8],
}

#[derive(Debug, Clone)]
pub struct RawResourceGroup<'a> {
    pub owner: ResourceOwner,
    pub entries: Vec<RawResource<'a>>,
}

/// A top-level section: id, header offset, data.
#[derive(Debug, Clone, Copy)]
pub struct SectionInfo<'a> {
    pub id: u8,
    pub header_offset: usize,
    pub data: Reader<'a>,
    pub aligned: bool,
}

/// The framing of a bytecode file.
#[derive(Clone)]
pub struct Structure<'a> {
    /// Bytecode format version of the file.
    pub version: u64,
    /// Producer string of the header.
    pub producer: &'a str,
    /// In file order.
    pub sections: Vec<SectionInfo<'a>>,
    /// Strings, dialect names and attribute/type entries, decoded on demand.
    pub table: Table<'a>,
    /// Per dialect with a version: its index and the encoded version blob.
    pub dialect_versions: Vec<(usize, &'a [u8])>,
    /// The op names of the Dialect section, in numbering order.
    pub op_names: Vec<OpName<'a>>,
    /// Per op name: full name, registration and definition.
    op_kinds: Vec<ir::OpKind>,
    /// Resource groups of the Resource section, in file order.
    pub resources: Vec<RawResourceGroup<'a>>,
    /// Property blobs (version 5+), with their absolute offsets.
    pub properties: Vec<(usize, &'a [u8])>,
    /// The IR section, undecoded.
    pub ir: Reader<'a>,
}

/// Whether `bytes` start with the MLIR bytecode magic.
pub fn is_bytecode(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// Reads a whole MLIR bytecode file into a module.
pub fn read(bytes: &[u8]) -> Result<Module> {
    let structure = Structure::parse(bytes)?;
    structure.into_module()
}

/// Largest alignment `read_aligned` provides.
pub const MAX_BUFFER_ALIGNMENT: usize = 4096;

/// Like `read`, for input whose address may be less aligned than its
/// sections and blobs require (alignment is checked against the absolute
/// address, as upstream does): reads from a copy aligned to
/// `MAX_BUFFER_ALIGNMENT`.
pub fn read_aligned(bytes: &[u8]) -> Result<Module> {
    if (bytes.as_ptr() as usize).is_multiple_of(MAX_BUFFER_ALIGNMENT) {
        return read(bytes);
    }
    let mut storage = vec![0u8; bytes.len() + MAX_BUFFER_ALIGNMENT];
    let start = storage.as_ptr().align_offset(MAX_BUFFER_ALIGNMENT);
    storage[start..start + bytes.len()].copy_from_slice(bytes);
    read(&storage[start..start + bytes.len()])
}

fn section_name(id: u8) -> String {
    let name = SECTION_NAMES.get(id as usize).copied().unwrap_or("?");
    format!("{name} ({id})")
}

impl<'a> Structure<'a> {
    /// Frames `bytes` (header and every section) and checks the sections
    /// present and their tables, without decoding the IR.
    pub fn parse(bytes: &'a [u8]) -> Result<Structure<'a>> {
        let mut r = Reader::new(bytes, 0);
        if !is_bytecode(bytes) {
            return Err(BytecodeError::new(
                0,
                "not MLIR bytecode: the magic 'ML\\xefR' is missing",
            ));
        }
        r.bytes(MAGIC.len())?;
        let version_at = r.offset();
        let version = r.varint()?;
        if version > MAX_VERSION {
            return Err(BytecodeError::new(
                version_at,
                format!(
                    "bytecode version {version} is newer than the current version {MAX_VERSION}"
                ),
            ));
        }
        let producer_at = r.offset();
        let producer = std::str::from_utf8(r.nul_terminated()?)
            .map_err(|_| BytecodeError::new(producer_at, "producer string is not UTF-8"))?;
        let context = |e: BytecodeError| {
            BytecodeError::new(
                e.offset,
                format!(
                    "{} (in bytecode version {version} produced by: {producer})",
                    e.message
                ),
            )
        };
        Self::parse_sections(r, version, producer).map_err(context)
    }

    fn parse_sections(mut r: Reader<'a>, version: u64, producer: &'a str) -> Result<Structure<'a>> {
        let input_len = r.offset() + r.rest().len();
        let mut sections: Vec<SectionInfo<'a>> = Vec::new();
        let mut by_id: [Option<Reader<'a>>; 9] = [None; 9];
        while !r.is_empty() {
            let header_offset = r.offset();
            let aligned = r.rest()[0] & 0x80 != 0;
            let (id, data) = r.section()?;
            if id as usize >= by_id.len() {
                return Err(BytecodeError::new(
                    header_offset,
                    format!("invalid section ID: {id}"),
                ));
            }
            if id == section::DIALECT_VERSIONS {
                return Err(BytecodeError::new(
                    header_offset,
                    "the DialectVersions section may only appear inside the Dialect section",
                ));
            }
            if by_id[id as usize].is_some() {
                return Err(BytecodeError::new(
                    header_offset,
                    format!("duplicate top-level section: {}", section_name(id)),
                ));
            }
            by_id[id as usize] = Some(data);
            sections.push(SectionInfo {
                id,
                header_offset,
                data,
                aligned,
            });
        }
        let end = r.offset();
        let mut required = vec![
            section::STRING,
            section::DIALECT,
            section::ATTR_TYPE,
            section::ATTR_TYPE_OFFSET,
            section::IR,
        ];
        if version >= 5 {
            required.push(section::PROPERTIES);
        }
        for id in required {
            if by_id[id as usize].is_none() {
                return Err(BytecodeError::new(
                    end,
                    format!("missing data for top-level section: {}", section_name(id)),
                ));
            }
        }
        let resources_present = (
            by_id[section::RESOURCE as usize].is_some(),
            by_id[section::RESOURCE_OFFSET as usize].is_some(),
        );
        if resources_present.0 != resources_present.1 {
            return Err(BytecodeError::new(
                end,
                "the Resource and ResourceOffset sections must appear together",
            ));
        }
        let get = |id: u8| by_id[id as usize].expect("checked above");
        let strings = parse_strings(get(section::STRING))?;
        let (dialect_names, dialect_versions, op_names) =
            parse_dialects(get(section::DIALECT), version, &strings)?;
        let (attrs, types) = parse_entry_offsets(
            get(section::ATTR_TYPE_OFFSET),
            get(section::ATTR_TYPE),
            dialect_names.len(),
        )?;
        let mut table = Table::new(strings, dialect_names, attrs, types, input_len);
        let resources = match (
            by_id[section::RESOURCE_OFFSET as usize],
            by_id[section::RESOURCE as usize],
        ) {
            (Some(offsets), Some(data)) => parse_resources(offsets, data, &table)?,
            _ => Vec::new(),
        };
        // Handles index all dialect resources; `dense_resource`, the only
        // attribute that reads them, takes `builtin` ones only (upstream
        // rejects a handle of another dialect's resource).
        // A key repeated in the `builtin` group names another resource:
        // upstream's blob manager renames it `key_1`, `key_2`, ...
        let mut taken: HashSet<String> = HashSet::new();
        let mut next_suffix: HashMap<String, u64> = HashMap::new();
        let mut unique = |key: &str| {
            if taken.insert(key.to_string()) {
                return key.to_string();
            }
            let n = next_suffix.entry(key.to_string()).or_insert(1);
            loop {
                let name = format!("{key}_{n}");
                *n += 1;
                if taken.insert(name.clone()) {
                    return name;
                }
            }
        };
        table.resource_keys = resources
            .iter()
            .filter_map(|g| match &g.owner {
                ResourceOwner::Dialect(d) => Some((d == "builtin", g)),
                ResourceOwner::External(_) => None,
            })
            .flat_map(|(builtin, g)| g.entries.iter().map(move |e| (builtin, e.key)))
            .map(|(builtin, key)| builtin.then(|| unique(key)))
            .collect();
        let properties = match by_id[section::PROPERTIES as usize] {
            Some(p) if version >= 5 => parse_properties(p)?,
            _ => Vec::new(),
        };
        let op_kinds = ir::op_kinds(&op_names, &table.dialects, version);
        Ok(Structure {
            version,
            producer,
            sections,
            table,
            dialect_versions,
            op_kinds,
            op_names,
            resources,
            properties,
            ir: get(section::IR),
        })
    }

    /// Decodes the IR section into a module.
    pub fn into_module(mut self) -> Result<Module> {
        let mut module = parallel::read_ir_parallel(&mut self, parallel::MIN_PARALLEL_BYTES)?;
        self.attach_metadata(&mut module);
        Ok(module)
    }

    /// Origin (version, producer, registered ops, dialect versions) and
    /// resources.
    fn attach_metadata(&self, module: &mut Module) {
        let dialects = &self.table.dialects;
        let mut registered: Vec<String> = self
            .op_kinds
            .iter()
            .filter(|k| k.registered)
            .map(|k| k.full_name.clone())
            .collect();
        registered.sort();
        registered.dedup();
        module.origin = Some(Box::new(BytecodeOrigin {
            version: self.version,
            producer: self.producer.to_string(),
            registered_ops: registered,
            dialect_versions: self
                .dialect_versions
                .iter()
                .map(|(d, v)| (dialects[*d].to_string(), v.to_vec()))
                .collect(),
        }));
        // One group per dialect, none empty: a dialect's groups are
        // written as one and an empty one not at all (as upstream does),
        // so this keeps read → write → read a fixed point.
        module.resources.clear();
        let mut builtin_keys = self.table.resource_keys.iter().flatten();
        for g in &self.resources {
            let builtin = matches!(&g.owner, ResourceOwner::Dialect(d) if d == "builtin");
            let entries = g.entries.iter().map(|e| ResourceEntry {
                key: match builtin.then(|| builtin_keys.next()).flatten() {
                    Some(unique) => unique.clone(),
                    None => e.key.to_string(),
                },
                value: e.value.clone(),
            });
            let merge_into = match &g.owner {
                ResourceOwner::Dialect(_) => {
                    module.resources.iter().position(|m| m.owner == g.owner)
                }
                ResourceOwner::External(_) => None,
            };
            match merge_into {
                Some(i) => module.resources[i].entries.extend(entries),
                None if g.entries.is_empty() && matches!(g.owner, ResourceOwner::Dialect(_)) => {}
                None => module.resources.push(ResourceGroup {
                    owner: g.owner.clone(),
                    entries: entries.collect(),
                }),
            }
        }
    }
}

/// String section: count, sizes in reverse order, then the NUL-terminated
/// strings back to back.
fn parse_strings(mut r: Reader<'_>) -> Result<Vec<&[u8]>> {
    let n = r.count(2, "string")?;
    let mut sizes = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.offset();
        sizes.push((at, r.index()?));
    }
    let data_start = r.offset();
    let data = r.rest();
    let mut strings = vec![&data[..0]; n];
    let mut end = data.len();
    // The first size belongs to the last string.
    for (slot, (at, size)) in strings.iter_mut().rev().zip(sizes) {
        if size == 0 || size > end {
            return Err(BytecodeError::new(
                at,
                format!("string size {size} exceeds the available data size"),
            ));
        }
        let start = end - size;
        if data[end - 1] != 0 {
            return Err(BytecodeError::new(
                data_start + end - 1,
                "string is not NUL-terminated",
            ));
        }
        *slot = &data[start..end - 1];
        end = start;
    }
    if end != 0 {
        return Err(BytecodeError::new(
            data_start,
            "unexpected trailing data between the offsets for strings and their data",
        ));
    }
    Ok(strings)
}

fn utf8<'a>(bytes: &'a [u8], at: usize, what: &str) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|_| BytecodeError::new(at, format!("{what} is not UTF-8")))
}

type Dialects<'a> = (Vec<&'a str>, Vec<(usize, &'a [u8])>, Vec<OpName<'a>>);

fn parse_dialects<'a>(
    mut r: Reader<'a>,
    version: u64,
    strings: &[&'a [u8]],
) -> Result<Dialects<'a>> {
    let string = |at: usize, index: u64| -> Result<&'a [u8]> {
        usize::try_from(index)
            .ok()
            .and_then(|i| strings.get(i).copied())
            .ok_or_else(|| BytecodeError::new(at, format!("invalid string index {index}")))
    };
    let n = r.count(1, "dialect")?;
    let mut names = Vec::with_capacity(n);
    let mut versions = Vec::new();
    for i in 0..n {
        let at = r.offset();
        let (index, has_version) = if version >= 1 {
            r.varint_with_flag()?
        } else {
            (r.varint()?, false)
        };
        let name = utf8(string(at, index)?, at, "dialect name")?;
        // An op's full name is its dialect, a dot and the rest: a dot in
        // the dialect would make the split ambiguous (MLIR's namespaces
        // have none).
        if name.contains('.') {
            return Err(BytecodeError::new(
                at,
                format!("dialect name '{name}' contains '.'"),
            ));
        }
        names.push(name);
        if has_version {
            let section_at = r.offset();
            let (id, data) = r.section()?;
            if id != super::section::DIALECT_VERSIONS {
                return Err(BytecodeError::new(
                    section_at,
                    format!(
                        "expected a DialectVersions section, found {}",
                        section_name(id)
                    ),
                ));
            }
            versions.push((i, data.rest()));
        }
    }
    let declared_ops = if version >= 4 {
        Some(r.count(1, "op name")?)
    } else {
        None
    };
    let mut op_names = Vec::with_capacity(declared_ops.unwrap_or(0));
    while !r.is_empty() {
        let at = r.offset();
        let dialect = r.index()?;
        if dialect >= names.len() {
            return Err(BytecodeError::new(
                at,
                format!("invalid dialect index {dialect}"),
            ));
        }
        let count = r.count(1, "op name")?;
        for _ in 0..count {
            let at = r.offset();
            let (index, registered) = if version >= 5 {
                r.varint_with_flag()?
            } else {
                (r.varint()?, false)
            };
            let name = utf8(string(at, index)?, at, "op name")?;
            op_names.push(OpName {
                dialect,
                name,
                registered,
            });
        }
    }
    if let Some(declared) = declared_ops
        && declared != op_names.len()
    {
        return Err(BytecodeError::new(
            r.offset(),
            format!("{declared} op names declared, {} present", op_names.len()),
        ));
    }
    Ok((names, versions, op_names))
}

type Entries<'a> = (Vec<EntrySpan<'a>>, Vec<EntrySpan<'a>>);

fn parse_entry_offsets<'a>(
    mut offsets: Reader<'a>,
    data: Reader<'a>,
    num_dialects: usize,
) -> Result<Entries<'a>> {
    let num_attrs = offsets.count(1, "attribute")?;
    let num_types = offsets.count(1, "type")?;
    if num_attrs + num_types > offsets.remaining() {
        return Err(offsets.error("more attribute and type entries than offset bytes"));
    }
    let mut spans = Vec::with_capacity(num_attrs + num_types);
    let mut data_cursor = data;
    while spans.len() < num_attrs + num_types {
        let at = offsets.offset();
        let dialect = offsets.index()?;
        if dialect >= num_dialects {
            return Err(BytecodeError::new(
                at,
                format!("invalid dialect index {dialect}"),
            ));
        }
        let count = offsets.count(1, "entry")?;
        // Each group stays within attributes or within types.
        let limit = if spans.len() < num_attrs {
            num_attrs
        } else {
            num_attrs + num_types
        };
        if spans.len() + count > limit {
            return Err(BytecodeError::new(
                at,
                "entry group crosses the attribute/type boundary",
            ));
        }
        for _ in 0..count {
            let (size, custom) = offsets.varint_with_flag()?;
            let size =
                usize::try_from(size).map_err(|_| offsets.error("entry size out of range"))?;
            let base = data_cursor.offset();
            let bytes = data_cursor.bytes(size)?;
            spans.push(EntrySpan {
                dialect,
                custom,
                data: Reader::new(bytes, base),
            });
        }
    }
    if !offsets.is_empty() {
        return Err(offsets.error("unexpected trailing data in the AttrTypeOffset section"));
    }
    if !data_cursor.is_empty() {
        return Err(data_cursor.error("unexpected trailing data in the AttrType section"));
    }
    let types = spans.split_off(num_attrs);
    Ok((spans, types))
}

fn parse_resources<'a>(
    mut offsets: Reader<'a>,
    data: Reader<'a>,
    table: &Table<'a>,
) -> Result<Vec<RawResourceGroup<'a>>> {
    let mut data = data;
    let mut groups = Vec::new();
    let num_external = offsets.count(2, "external resource group")?;
    let mut index = 0usize;
    while !offsets.is_empty() {
        let at = offsets.offset();
        let owner = if index < num_external {
            let key = table.string_at(offsets.varint()?, at)?;
            ResourceOwner::External(utf8(key, at, "resource group key")?.to_string())
        } else {
            let dialect = offsets.index()?;
            let name = table.dialects.get(dialect).ok_or_else(|| {
                BytecodeError::new(at, format!("invalid dialect index {dialect}"))
            })?;
            ResourceOwner::Dialect(name.to_string())
        };
        index += 1;
        let count = offsets.count(3, "resource")?;
        let mut entries = Vec::with_capacity(count);
        for _ in 0..count {
            let at = offsets.offset();
            let key = utf8(table.string_at(offsets.varint()?, at)?, at, "resource key")?;
            let size = offsets.index()?;
            let kind_at = offsets.offset();
            let kind = offsets.byte()?;
            let offset = data.offset();
            let bytes = data.bytes(size)?;
            let mut er = Reader::new(bytes, offset);
            let value = if size == 0 {
                ResourceValue::Declared
            } else {
                match kind {
                    0 => {
                        let alignment = er.varint()?;
                        let len = er.index()?;
                        er.align_to(alignment)?;
                        ResourceValue::Blob {
                            alignment,
                            data: er.bytes(len)?.to_vec(),
                        }
                    }
                    1 => ResourceValue::Bool(er.byte()? != 0),
                    2 => {
                        let at = er.offset();
                        let s = table.string_at(er.varint()?, at)?;
                        ResourceValue::String(utf8(s, at, "resource string")?.to_string())
                    }
                    _ => {
                        return Err(BytecodeError::new(
                            kind_at,
                            format!("invalid resource kind {kind}"),
                        ));
                    }
                }
            };
            if !er.is_empty() {
                return Err(er.error(format!("unexpected trailing data in resource '{key}'")));
            }
            entries.push(RawResource {
                key,
                kind,
                offset,
                value,
                data: bytes,
            });
        }
        groups.push(RawResourceGroup { owner, entries });
    }
    if index < num_external {
        return Err(offsets.error(format!(
            "{num_external} external resource groups declared, {index} present"
        )));
    }
    if !data.is_empty() {
        return Err(data.error("unexpected trailing data in the Resource section"));
    }
    Ok(groups)
}

fn parse_properties(mut r: Reader<'_>) -> Result<Vec<(usize, &[u8])>> {
    let n = r.count(1, "properties entry")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let size = r.index()?;
        let at = r.offset();
        out.push((at, r.bytes(size)?));
    }
    if !r.is_empty() {
        return Err(r.error("unexpected trailing data in the Properties section"));
    }
    Ok(out)
}
