//! From a byte to the items that hold it, and from items to their bytes
//! and fields.

use std::ops::Range;

use crate::format::SectionId;
use crate::format::reader::Reader;

use super::fields::{Field, FieldKind, Fields, location_field};
use super::functions::Function;
use super::{Listing, span};

/// One step of the path from the file down to the item holding a byte.
/// Items inside a function ([`Register`](Item::Register),
/// [`KernelEntry`](Item::KernelEntry), [`Kernel`](Item::Kernel),
/// [`Result`](Item::Result)) belong to the [`Function`](Item::Function)
/// before them in the path; [`AttributeName`](Item::AttributeName) and
/// [`RegisterType`](Item::RegisterType) to the function of the
/// [`AttributeNames`](Item::AttributeNames) or
/// [`RegisterTypes`](Item::RegisterTypes) entry before them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// The magic number and version.
    Header,
    /// A section, by position in [`Listing::sections`].
    Section(usize),
    /// Bytes after the last section that could be framed.
    Unframed,
    /// A string of the Strings section, by position.
    String(usize),
    /// An attribute's bytes in the Attributes section, by position in
    /// [`Listing::attributes`].
    Attribute(usize),
    /// An attribute's entry in the AttributeTypes section.
    AttributeType(usize),
    /// An entry of the Kernels section (a kernel code).
    KernelName(usize),
    /// An entry of the Types section (a type index).
    Type(usize),
    /// An entry of the FunctionIndex section (a function index).
    IndexEntry(usize),
    /// A function's body in the Functions section (a function index).
    Function(usize),
    /// A register's use count in the register table.
    Register(usize),
    /// A row of the kernel table.
    KernelEntry(usize),
    /// A kernel record in the kernel list.
    Kernel(usize),
    /// A returned register.
    Result(usize),
    /// A string of the LocationStrings section, by position.
    LocationString(usize),
    /// A location record, by position in [`Listing::locations`].
    Location(usize),
    /// A function's entry in the AttributeNames section (a function index).
    AttributeNames(usize),
    /// The name of an attribute of a kernel.
    AttributeName {
        /// The kernel.
        kernel: usize,
        /// The attribute's position in the kernel record.
        attribute: usize,
    },
    /// A function's entry in the RegisterTypes section (a function index).
    RegisterTypes(usize),
    /// A register's type.
    RegisterType(usize),
}

/// The items holding a byte, outermost first, and the field of the
/// innermost item it belongs to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemPath {
    /// The items, outermost first; empty past the end of the file.
    pub items: Vec<Item>,
    /// The field holding the byte, if the byte is in one.
    pub field: Option<Field>,
}

impl<'a> Listing<'a> {
    /// The items holding byte `offset` of the file, and its field. Decodes
    /// what it needs: the table of the section, or the one function whose
    /// body holds the byte.
    pub fn item_at(&self, offset: usize) -> ItemPath {
        let mut path = ItemPath::default();
        if offset >= self.bytes().len() {
            return path;
        }
        path.items = self.items_at(offset);
        let window = offset..offset + 1;
        path.field = self
            .fields_within(&path.items, window)
            .into_iter()
            .find(|f| f.range.contains(&offset));
        path
    }

    fn items_at(&self, offset: usize) -> Vec<Item> {
        if self.header().range().contains(&offset) {
            return vec![Item::Header];
        }
        let sections = self.sections();
        let i = sections.partition_point(|s| s.range.start <= offset);
        let Some(section) = i
            .checked_sub(1)
            .map(|i| &sections[i])
            .filter(|s| s.range.contains(&offset))
        else {
            return vec![Item::Unframed];
        };
        let mut items = vec![Item::Section(section.index)];
        if offset < section.data.start || !section.used {
            return items;
        }
        let Some(kind) = section.kind else {
            return items;
        };
        match kind {
            SectionId::Strings => {
                items.extend(self.strings().index_containing(offset).map(Item::String));
            }
            SectionId::LocationStrings => items.extend(
                self.location_strings()
                    .index_containing(offset)
                    .map(Item::LocationString),
            ),
            SectionId::Attributes => items.extend(
                self.attributes()
                    .index_containing(offset)
                    .map(Item::Attribute),
            ),
            SectionId::AttributeTypes => items.extend(
                self.attributes()
                    .entry_containing(offset)
                    .map(Item::AttributeType),
            ),
            SectionId::Kernels => items.extend(
                self.kernel_names()
                    .index_containing(offset)
                    .map(Item::KernelName),
            ),
            SectionId::Types => items.extend(self.types().index_containing(offset).map(Item::Type)),
            SectionId::FunctionIndex => {
                let functions = self.file().functions();
                let i = functions.partition_point(|f| f.entry_offset as usize <= offset);
                if let Some(i) = i.checked_sub(1)
                    && offset < functions[i].layout.end as usize
                {
                    items.push(Item::IndexEntry(i));
                }
            }
            SectionId::Functions => self.function_items(offset, &mut items),
            SectionId::Locations => items.extend(
                self.locations()
                    .index_containing(offset)
                    .map(Item::Location),
            ),
            SectionId::AttributeNames => {
                if let Some(entry) = self.attribute_names.containing(self.file(), offset) {
                    items.push(Item::AttributeNames(entry.function));
                    let i = entry.names.partition_point(|n| n.at as usize <= offset);
                    if let Some(i) = i.checked_sub(1)
                        && span(entry.name_range(i)).contains(&offset)
                    {
                        let kernel = entry.kernel_starts.partition_point(|&s| s <= i) - 1;
                        let attribute = i - entry.kernel_starts[kernel];
                        items.push(Item::AttributeName { kernel, attribute });
                    }
                }
            }
            // Entries are listed whole, by function (`inspect::functions`).
            SectionId::Signatures => {}
            SectionId::RegisterTypes => {
                if let Some(entry) = self.register_types.containing(self.file(), offset) {
                    items.push(Item::RegisterTypes(entry.function));
                    let i = entry.starts.partition_point(|&s| s as usize <= offset);
                    if let Some(i) = i.checked_sub(1)
                        && span(entry.type_range(i)).contains(&offset)
                    {
                        items.push(Item::RegisterType(i));
                    }
                }
            }
        }
        items
    }

    fn function_items(&self, offset: usize, items: &mut Vec<Item>) {
        let bodies = self.function_bodies();
        let i = bodies.partition_point(|&(start, _)| start <= offset);
        let Some(&(_, index)) = i.checked_sub(1).map(|i| &bodies[i]) else {
            return;
        };
        let Some(function) = self.function(index) else {
            return;
        };
        if !function.range.contains(&offset) {
            return;
        }
        items.push(Item::Function(index));
        let inner = if let Some(k) = function.kernel_containing(offset) {
            Item::Kernel(k)
        } else if let Some(k) = function.kernel_entry_containing(offset) {
            Item::KernelEntry(k)
        } else if let Some(r) = function.register_containing(offset) {
            Item::Register(r)
        } else if let Some(r) = function.result_containing(offset) {
            Item::Result(r)
        } else {
            return;
        };
        items.push(inner);
    }

    /// The function an item path is inside.
    fn function_of(&self, items: &[Item]) -> Option<usize> {
        items.iter().rev().find_map(|item| match *item {
            Item::Function(f) | Item::AttributeNames(f) | Item::RegisterTypes(f) => Some(f),
            _ => None,
        })
    }

    fn function_in(&self, items: &[Item]) -> Option<&Function<'a>> {
        self.function(self.function_of(items)?)
    }

    /// The bytes of the innermost item of `items` (a path from
    /// [`item_at`](Self::item_at) or built by hand); `None` if it does not
    /// exist. A section's range includes its header.
    pub fn range_of(&self, items: &[Item]) -> Option<Range<usize>> {
        let len = self.bytes().len();
        Some(match *items.last()? {
            Item::Header => self.header().range(),
            Item::Section(i) => self.sections().get(i)?.range.clone(),
            Item::Unframed => {
                let start = self.sections().last().map_or(3, |s| s.range.end);
                (start < len).then_some(start..len)?
            }
            Item::String(i) => self.strings().get(i)?.range.clone(),
            Item::LocationString(i) => self.location_strings().get(i)?.range.clone(),
            Item::Attribute(i) => self.attributes().get(i)?.range,
            Item::AttributeType(i) => self.attributes().get(i)?.entry,
            Item::KernelName(i) => self.kernel_names().get(i)?.range,
            Item::Type(i) => self.types().get(i)?.range,
            Item::IndexEntry(i) => self.index_entry(i)?.range,
            Item::Function(f) => self.function(f)?.range.clone(),
            Item::Register(r) => self.function_in(items)?.register(r)?.range,
            Item::KernelEntry(k) => {
                let [row, ..] = self.function_in(items)?.kernel_entry_ranges(k)?;
                row
            }
            Item::Kernel(k) => self.function_in(items)?.kernel(k)?.range.clone(),
            Item::Result(r) => self.function_in(items)?.result_range(r)?,
            Item::Location(i) => self.locations().get(i)?.range,
            Item::AttributeNames(f) => span(self.attribute_names(f)?.range()),
            Item::AttributeName { kernel, attribute } => {
                let entry = self.attribute_names(self.function_of(items)?)?;
                let first = *entry.kernel_starts.get(kernel)?;
                (attribute < entry.kernel(kernel).len())
                    .then(|| span(entry.name_range(first + attribute)))?
            }
            Item::RegisterTypes(f) => span(self.register_types(f)?.range()),
            Item::RegisterType(r) => {
                let entry = self.register_types(self.function_of(items)?)?;
                (r < entry.types.len()).then(|| span(entry.type_range(r)))?
            }
        })
    }

    /// The fields of the innermost item of `items`. An item's fields cover
    /// the bytes that are not in an item inside it (a section's fields are
    /// its header and its entry count; a function's are its location,
    /// counts and padding).
    pub fn fields_of(&self, items: &[Item]) -> Vec<Field> {
        self.fields_within(items, 0..usize::MAX)
    }

    /// The fields of every item overlapping `window`, in file order, for
    /// colouring a hex view: only the fields that overlap the window are
    /// computed, so large kernel records cost only what is visible.
    pub fn fields_in(&self, window: Range<usize>) -> Vec<Field> {
        let mut out: Vec<Field> = Vec::new();
        let end = window.end.min(self.bytes().len());
        let mut pos = window.start;
        while pos < end {
            let items = self.items_at(pos);
            let leaf = items.last().is_some_and(|item| !has_children(item));
            let mut next = pos + 1;
            let mut fields = self.fields_within(&items, pos..end);
            fields.sort_by_key(|f| f.range.start);
            for field in fields {
                let last_end = out.last().map_or(0, |f| f.range.end);
                if field.range.start < last_end || field.range.end <= pos {
                    continue;
                }
                // A leaf's fields all at once; otherwise only the field at
                // `pos`, as items inside may come before the next field.
                if field.range.contains(&pos) {
                    next = next.max(field.range.end);
                } else if !leaf {
                    continue;
                }
                out.push(field);
            }
            if leaf {
                // Nothing inside a leaf item: skip to its end.
                if let Some(range) = self.range_of(&items) {
                    next = next.max(range.end);
                }
            }
            pos = next;
        }
        out.retain(|f| f.range.start < window.end && window.start < f.range.end);
        out
    }

    fn fields_within(&self, items: &[Item], window: Range<usize>) -> Vec<Field> {
        let mut fields = Fields::new(window);
        self.collect_fields(items, &mut fields);
        fields.out
    }

    fn collect_fields(&self, items: &[Item], out: &mut Fields) -> Option<()> {
        let bytes = self.bytes();
        match *items.last()? {
            Item::Header => {
                let header = self.header();
                out.push(Field::new(FieldKind::Magic, header.magic.clone()));
                out.push(Field::new(FieldKind::Version, header.version_range.clone()));
            }
            Item::Section(i) => {
                let section = self.sections().get(i)?;
                let start = section.range.start;
                out.push(Field::new(FieldKind::SectionId, start..start + 1));
                out.push(Field::new(
                    FieldKind::SectionLength,
                    section.length_range.clone(),
                ));
                if let Some(range) = &section.alignment_range {
                    out.push(Field::new(
                        FieldKind::SectionAlignment,
                        range.start..range.start + 1,
                    ));
                    out.push(Field::new(FieldKind::Padding, section.padding()));
                }
                let counted = matches!(
                    section.kind,
                    Some(
                        SectionId::Kernels
                            | SectionId::Types
                            | SectionId::FunctionIndex
                            | SectionId::AttributeTypes
                            | SectionId::AttributeNames
                            | SectionId::RegisterTypes
                    )
                );
                if counted && section.used && !section.data.is_empty() {
                    // The entry count at the start of the data.
                    out.vbrs(bytes, section.data.clone(), &[FieldKind::Count]);
                }
            }
            Item::Unframed => {}
            Item::String(i) => string_fields(self.strings().get(i)?, out),
            Item::LocationString(i) => string_fields(self.location_strings().get(i)?, out),
            Item::Attribute(i) => {
                out.push(Field::new(
                    FieldKind::AttributeBytes,
                    self.attributes().get(i)?.range,
                ));
            }
            Item::AttributeType(i) => {
                let entry = self.attributes().get(i)?.entry;
                out.vbrs(
                    bytes,
                    entry,
                    &[FieldKind::AttributeRef, FieldKind::AttributeType],
                );
            }
            Item::KernelName(i) => {
                out.push(Field::new(
                    FieldKind::StringRef,
                    self.kernel_names().get(i)?.range,
                ));
            }
            Item::Type(i) => {
                out.push(Field::new(FieldKind::StringRef, self.types().get(i)?.range));
            }
            Item::IndexEntry(i) => {
                let entry = self.index_entry(i)?;
                out.push(Field::new(FieldKind::FunctionKind, entry.kind_range));
                out.push(Field::new(FieldKind::BodyOffset, entry.body_offset_range));
                out.push(Field::new(FieldKind::StringRef, entry.name_range));
                out.counted_vbrs(bytes, entry.arguments_range, FieldKind::TypeRef);
                out.counted_vbrs(bytes, entry.results_range, FieldKind::TypeRef);
            }
            Item::Function(f) => {
                let function = self.function(f)?;
                out.push(Field::new(
                    FieldKind::LocationRef,
                    function.location_range(),
                ));
                out.push(Field::new(
                    FieldKind::Count,
                    function.register_count_range(),
                ));
                out.push(Field::new(FieldKind::Count, function.kernel_count_range()));
                out.push(Field::new(FieldKind::Padding, function.padding_range()));
            }
            Item::Register(r) => {
                let register = self.function_in(items)?.register(r)?;
                out.push(Field::new(FieldKind::UseCount, register.range));
            }
            Item::KernelEntry(k) => {
                let [_, offset, operands, stream] =
                    self.function_in(items)?.kernel_entry_ranges(k)?;
                out.push(Field::new(FieldKind::KernelOffset, offset));
                out.push(Field::new(FieldKind::OperandCount, operands));
                out.push(Field::new(FieldKind::StreamId, stream));
            }
            Item::Kernel(k) => out.kernel(self.function_in(items)?.kernel(k)?),
            Item::Result(r) => {
                let range = self.function_in(items)?.result_range(r)?;
                out.push(Field::nth(FieldKind::ReturnRegister, r, range));
            }
            Item::Location(i) => {
                let row = self.locations().get(i)?;
                let decoder = self.file().location_decoder();
                let data = bytes.get(row.range.clone())?;
                let mut r = Reader::new(data, row.range.start as u64);
                let mut trace =
                    |field, range| out.push(Field::new(location_field(field), span(range)));
                let _ = decoder.read_traced(&mut r, 0, &mut trace);
            }
            Item::AttributeNames(f) => {
                let entry = self.attribute_names(f)?;
                out.push(Field::new(
                    FieldKind::Count,
                    span(entry.kernel_count.clone()),
                ));
            }
            Item::AttributeName { .. } | Item::RegisterType(_) => {
                let kind = match items.last()? {
                    Item::RegisterType(_) => FieldKind::TypeRef,
                    _ => FieldKind::StringRef,
                };
                out.push(Field::new(kind, self.range_of(items)?));
            }
            Item::RegisterTypes(f) => {
                let entry = self.register_types(f)?;
                out.push(Field::new(FieldKind::Count, span(entry.count.clone())));
            }
        }
        Some(())
    }
}

fn string_fields(row: &super::StringRow<'_>, out: &mut Fields) {
    let text = row.text_range();
    out.push(Field::new(FieldKind::StringText, text.clone()));
    out.push(Field::new(
        FieldKind::StringTerminator,
        text.end..row.range.end,
    ));
}

/// Whether other items lie inside `item`.
pub(super) fn has_children(item: &Item) -> bool {
    matches!(
        item,
        Item::Section(_) | Item::Function(_) | Item::AttributeNames(_) | Item::RegisterTypes(_)
    )
}
