//! The Locations section, record by record.

use std::ops::Range;

use crate::format::reader::Reader;
use crate::format::{BefFile, DecodeError, SectionId};

/// The location records of the Locations section, up to any damage.
/// Records are listed by their bytes; [`Listing::location`] decodes one.
///
/// [`Listing::location`]: super::Listing::location
#[derive(Debug, Clone, Default)]
pub struct Locations {
    /// Absolute offset of the section data.
    base: usize,
    /// Absolute start of each record.
    starts: Vec<usize>,
    /// Just past the last record read.
    end: usize,
    error: Option<DecodeError>,
}

/// One location record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocationRow {
    /// Position in the section.
    pub index: usize,
    /// Offset in the Locations section, as location fields refer to it.
    pub offset: u64,
    /// The record's bytes (nested locations included).
    pub range: Range<usize>,
}

impl Locations {
    pub(super) fn read(file: &BefFile<'_>) -> Locations {
        let decoder = file.location_decoder();
        let base = file
            .section(SectionId::Locations)
            .map_or(0, |s| s.data_offset as usize);
        let mut r = Reader::new(decoder.locations, base as u64);
        let mut locations = Locations {
            base,
            starts: Vec::new(),
            end: base,
            error: None,
        };
        while !r.is_empty() {
            let start = r.offset() as usize;
            if let Err(e) = decoder.read(&mut r, 0) {
                locations.error = Some(e);
                break;
            }
            locations.starts.push(start);
            locations.end = r.offset() as usize;
        }
        locations
    }

    /// The number of records read.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether no records were read.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Record `index`.
    pub fn get(&self, index: usize) -> Option<LocationRow> {
        let start = *self.starts.get(index)?;
        let end = self.starts.get(index + 1).copied().unwrap_or(self.end);
        Some(LocationRow {
            index,
            offset: (start - self.base) as u64,
            range: start..end,
        })
    }

    /// The records in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = LocationRow> + '_ {
        (0..self.len()).map(|i| self.get(i).expect("index in range"))
    }

    /// The record starting at `offset` of the section (a location field),
    /// if a record starts there.
    pub fn index_of_offset(&self, offset: u64) -> Option<usize> {
        let at = usize::try_from(offset).ok()?.checked_add(self.base)?;
        self.starts.binary_search(&at).ok()
    }

    /// The record whose bytes hold absolute offset `at`.
    pub fn index_containing(&self, at: usize) -> Option<usize> {
        let i = self.starts.partition_point(|&s| s <= at);
        let i = i.checked_sub(1)?;
        self.get(i)?.range.contains(&at).then_some(i)
    }

    /// Why the listing stops before the end of the section, if it does.
    pub fn error(&self) -> Option<&DecodeError> {
        self.error.as_ref()
    }
}
