//! The Attributes section, attribute by attribute as the AttributeTypes
//! section lists them.

use std::ops::Range;

use crate::format::attr::attribute_extent;
use crate::format::dtype::AttrType;
use crate::format::{AttributeTypeTable, BefFile, DecodeError, SectionId};

use super::span;

/// The attributes listed by the AttributeTypes section (without it, the
/// Attributes section is bytes whose types are unknown).
#[derive(Debug, Clone)]
pub struct Attributes {
    table: Option<AttributeTypeTable>,
    /// The Attributes section data (absolute).
    data: Range<usize>,
    /// Each attribute's extent in bytes.
    lengths: Vec<usize>,
}

/// One attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeRow {
    /// Position in the AttributeTypes section.
    pub index: usize,
    /// Offset in the Attributes section, as kernels refer to it.
    pub offset: u32,
    /// The attribute's type.
    pub ty: AttrType,
    /// The attribute's bytes (clipped to the Attributes section).
    pub range: Range<usize>,
    /// Its entry in the AttributeTypes section.
    pub entry: Range<usize>,
}

impl Attributes {
    pub(super) fn read(file: &BefFile<'_>) -> Attributes {
        let table = file.read_attribute_types();
        let bytes = file.section_data(SectionId::Attributes);
        let data = match file.section(SectionId::Attributes) {
            Some(s) => s.data_offset as usize..(s.data_offset + s.len) as usize,
            None => file.bytes().len()..file.bytes().len(),
        };
        let lengths = table
            .iter()
            .flat_map(|t| &t.entries)
            .map(|e| attribute_extent(bytes, e.offset as usize, e.ty))
            .collect();
        Attributes {
            table,
            data,
            lengths,
        }
    }

    /// Whether the file has an AttributeTypes section (without it, no
    /// attribute can be listed or decoded).
    pub fn has_types(&self) -> bool {
        self.table.is_some()
    }

    /// The number of attributes listed.
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Whether no attributes are listed.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Attribute `index`.
    pub fn get(&self, index: usize) -> Option<AttributeRow> {
        let table = self.table.as_ref()?;
        let entry = table.entries.get(index)?;
        let start = (self.data.start + entry.offset as usize).min(self.data.end);
        Some(AttributeRow {
            index,
            offset: entry.offset,
            ty: entry.ty,
            range: start..start + self.lengths[index],
            entry: span(table.entry_range(index)),
        })
    }

    /// The attributes in AttributeTypes order (increasing offset).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = AttributeRow> + '_ {
        (0..self.len()).map(|i| self.get(i).expect("index in range"))
    }

    /// The attribute at `offset` of the Attributes section (a kernel's
    /// attribute field), if one is listed there.
    pub fn find(&self, offset: u32) -> Option<usize> {
        let entries = &self.table.as_ref()?.entries;
        entries.binary_search_by_key(&offset, |e| e.offset).ok()
    }

    /// The entry count field of the AttributeTypes section.
    pub fn count_range(&self) -> Option<Range<usize>> {
        Some(span(self.table.as_ref()?.count.clone()))
    }

    /// Why the AttributeTypes section stops before its end, if it does.
    pub fn error(&self) -> Option<&DecodeError> {
        self.table.as_ref()?.error.as_ref()
    }

    /// The attribute whose bytes hold absolute offset `at`: the one
    /// starting last at or before it (attributes may nest in damaged files).
    pub(super) fn index_containing(&self, at: usize) -> Option<usize> {
        let entries = &self.table.as_ref()?.entries;
        let relative = at.checked_sub(self.data.start)?;
        let i = entries.partition_point(|e| e.offset as usize <= relative);
        let i = i.checked_sub(1)?;
        self.get(i)?.range.contains(&at).then_some(i)
    }

    /// The attribute whose AttributeTypes entry holds absolute offset `at`.
    pub(super) fn entry_containing(&self, at: usize) -> Option<usize> {
        let table = self.table.as_ref()?;
        let i = table.entries.partition_point(|e| e.at as usize <= at);
        let i = i.checked_sub(1)?;
        span(table.entry_range(i)).contains(&at).then_some(i)
    }
}
