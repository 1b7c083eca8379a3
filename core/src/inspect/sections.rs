//! The header and the section table.

use std::borrow::Cow;
use std::ops::Range;

use crate::format::reader::Reader;
use crate::format::{BefFile, SectionId};

/// The file header: magic number and format version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The magic number `0b ef`.
    pub magic: Range<usize>,
    /// The format version.
    pub version: u8,
    /// The version byte.
    pub version_range: Range<usize>,
}

impl Header {
    /// The header of bytes that have been checked to start with the magic
    /// number and a version.
    pub(super) fn new(bytes: &[u8]) -> Header {
        Header {
            magic: 0..2,
            version: bytes.get(2).copied().unwrap_or_default(),
            version_range: 2..3,
        }
    }

    /// The whole header.
    pub fn range(&self) -> Range<usize> {
        self.magic.start..self.version_range.end
    }
}

/// The name of section id `id`: the [`SectionId::name`] of a known id,
/// `Unknown(N)` otherwise. `bef dump` headings and `--section` use the
/// same names.
pub fn section_name(id: u8) -> Cow<'static, str> {
    match SectionId::from_u8(id) {
        Some(known) => Cow::Borrowed(known.name()),
        None => Cow::Owned(format!("Unknown({id})")),
    }
}

/// One section as framed in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Position in the file's section table.
    pub index: usize,
    /// The id byte.
    pub id: u8,
    /// The section the id names, if known.
    pub kind: Option<SectionId>,
    /// False for a second section with an id already seen (readers use the
    /// first).
    pub used: bool,
    /// Everything: header, padding and data.
    pub range: Range<usize>,
    /// The length field.
    pub length_range: Range<usize>,
    /// The length the header declares (more than the data when the file
    /// ends early).
    pub length: u64,
    /// The alignment, when the header uses the alignment form.
    pub alignment: Option<u8>,
    /// The alignment byte, then the padding up to the data.
    pub alignment_range: Option<Range<usize>>,
    /// The data.
    pub data: Range<usize>,
}

impl Section {
    /// The section's name (see [`section_name`]).
    pub fn name(&self) -> Cow<'static, str> {
        section_name(self.id)
    }

    /// The header: id, length, alignment and padding.
    pub fn header(&self) -> Range<usize> {
        self.range.start..self.data.start
    }

    /// The padding between the alignment byte and the data.
    pub fn padding(&self) -> Range<usize> {
        match &self.alignment_range {
            Some(range) => range.start + 1..self.data.start,
            None => self.data.start..self.data.start,
        }
    }

    /// Whether the file ends before the declared length.
    pub fn is_truncated(&self) -> bool {
        (self.data.len() as u64) < self.length
    }
}

/// The sections of `file`, with the length field read again to find where
/// it ends.
pub(super) fn sections(file: &BefFile<'_>) -> Vec<Section> {
    let bytes = file.bytes();
    let mut seen = [false; SectionId::ALL.len()];
    file.sections()
        .iter()
        .enumerate()
        .map(|(index, info)| {
            let start = info.header_offset as usize;
            let data = info.data_offset as usize..(info.data_offset + info.len) as usize;
            // Framing read this field already; reading it again cannot fail.
            let mut r = Reader::new(&bytes[start + 1..data.start], start as u64 + 1);
            let length = r.vbr("section length").map_or(0, |v| v >> 1);
            let length_end = r.offset() as usize;
            let kind = info.known();
            let used = kind.is_none_or(|id| !std::mem::replace(&mut seen[id.index()], true));
            Section {
                index,
                id: info.id,
                kind,
                used,
                range: start..data.end,
                length_range: start + 1..length_end,
                length,
                alignment: info.alignment,
                alignment_range: info.alignment.map(|_| length_end..data.start),
                data,
            }
        })
        .collect()
}
