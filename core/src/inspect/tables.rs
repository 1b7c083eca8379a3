//! The Kernels and Types sections: a count, then string offsets.

use std::ops::Range;

use crate::format::{BefFile, DecodeError, NameTable, SectionId};

use super::span;

/// The Kernels or Types section: the names read before any damage.
#[derive(Debug, Clone)]
pub struct Names<'a> {
    table: NameTable<'a>,
}

/// One entry of the Kernels or Types section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameRow<'a> {
    /// Kernel code or type index.
    pub index: usize,
    /// The entry (a string offset).
    pub range: Range<usize>,
    /// Offset of the name in the Strings section.
    pub string_offset: u64,
    /// The name; `None` when the offset is not the start of a string.
    pub name: Option<&'a str>,
}

impl<'a> Names<'a> {
    pub(super) fn read(file: &BefFile<'a>, id: SectionId) -> Names<'a> {
        Names {
            table: file.read_name_table(id),
        }
    }

    /// The number of entries read.
    pub fn len(&self) -> usize {
        self.table.entries.len()
    }

    /// Whether no entries were read.
    pub fn is_empty(&self) -> bool {
        self.table.entries.is_empty()
    }

    /// Entry `index`.
    pub fn get(&self, index: usize) -> Option<NameRow<'a>> {
        let entry = self.table.entries.get(index)?;
        Some(NameRow {
            index,
            range: span(self.table.entry_range(index)),
            string_offset: entry.string_offset,
            name: entry.name,
        })
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = NameRow<'a>> + '_ {
        (0..self.len()).map(|i| self.get(i).expect("index in range"))
    }

    /// The entry count field (empty for an empty section).
    pub fn count_range(&self) -> Range<usize> {
        span(self.table.count.clone())
    }

    /// Why the table stops before the end of its section, if it does.
    pub fn error(&self) -> Option<&DecodeError> {
        self.table.error.as_ref()
    }

    /// The index of the entry whose bytes hold absolute offset `at`.
    pub fn index_containing(&self, at: usize) -> Option<usize> {
        let entries = &self.table.entries;
        let i = entries.partition_point(|e| e.at as usize <= at);
        let i = i.checked_sub(1)?;
        span(self.table.entry_range(i)).contains(&at).then_some(i)
    }

    /// The table's problems: why it stops early, and each name that is not
    /// a string.
    pub(super) fn errors(&self, file: &BefFile<'_>) -> Vec<DecodeError> {
        let mut errors: Vec<DecodeError> = self
            .table
            .entries
            .iter()
            .filter(|e| e.name.is_none())
            .filter_map(|e| {
                let problem = file.string(e.string_offset).err()?;
                Some(DecodeError::new(e.at, problem.message))
            })
            .collect();
        errors.extend(self.table.error.clone());
        errors
    }
}
