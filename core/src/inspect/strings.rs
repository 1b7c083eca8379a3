//! The Strings and LocationStrings sections: NUL-terminated strings.

use std::borrow::Cow;
use std::ops::Range;

use crate::format::{BefFile, SectionId};

/// A string table, string by string.
#[derive(Debug, Clone, Default)]
pub struct Strings<'a> {
    /// Absolute offset of the section data.
    base: usize,
    rows: Vec<StringRow<'a>>,
}

/// One string of a string table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringRow<'a> {
    /// The string's bytes and its NUL terminator.
    pub range: Range<usize>,
    /// The string's bytes, without the terminator.
    pub bytes: &'a [u8],
}

impl StringRow<'_> {
    /// Whether a NUL byte ends the string (only the last string of a
    /// damaged table can lack one).
    pub fn is_terminated(&self) -> bool {
        self.range.len() > self.bytes.len()
    }

    /// The text, with invalid UTF-8 replaced.
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.bytes)
    }

    /// The bytes without the terminator.
    pub fn text_range(&self) -> Range<usize> {
        self.range.start..self.range.start + self.bytes.len()
    }
}

impl<'a> Strings<'a> {
    pub(super) fn read(file: &BefFile<'a>, id: SectionId) -> Strings<'a> {
        let data = file.section_data(id);
        let base = file.section(id).map_or(0, |s| s.data_offset as usize);
        let count = data.split_inclusive(|&b| b == 0).count();
        let mut rows = Vec::with_capacity(count);
        let mut offset = base;
        for piece in data.split_inclusive(|&b| b == 0) {
            let bytes = piece.strip_suffix(&[0]).unwrap_or(piece);
            rows.push(StringRow {
                range: offset..offset + piece.len(),
                bytes,
            });
            offset += piece.len();
        }
        Strings { base, rows }
    }

    /// The number of strings.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no strings.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The strings in table order.
    pub fn rows(&self) -> &[StringRow<'a>] {
        &self.rows
    }

    /// String `index`.
    pub fn get(&self, index: usize) -> Option<&StringRow<'a>> {
        self.rows.get(index)
    }

    /// The offset of a string relative to the section start, as names
    /// refer to it.
    pub fn offset_of(&self, row: &StringRow<'_>) -> usize {
        row.range.start - self.base
    }

    /// The index of the string that starts at `offset` of the section (a
    /// name's string offset); `None` if no string starts there.
    pub fn index_of_offset(&self, offset: u64) -> Option<usize> {
        let at = usize::try_from(offset).ok()?.checked_add(self.base)?;
        self.rows.binary_search_by_key(&at, |r| r.range.start).ok()
    }

    /// The index of the string whose bytes hold absolute offset `at`.
    pub fn index_containing(&self, at: usize) -> Option<usize> {
        let i = self.rows.partition_point(|r| r.range.start <= at);
        let i = i.checked_sub(1)?;
        self.rows[i].range.contains(&at).then_some(i)
    }
}
