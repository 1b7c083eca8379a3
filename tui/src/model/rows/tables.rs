//! The Strings·Attributes·Types tab: one table at a time (`h`/`l`), each
//! row with its offset, decoded value and users; also the Locations
//! section, every kind decoded.

use std::ops::Range;

use super::{ListId, State};
use crate::model::analysis::{User, users_text};
use crate::model::document::Document;
use crate::model::names::{attribute_text, clip};

/// The number of rows.
pub fn len(app: &State<'_, '_>, id: ListId) -> usize {
    let listing = &app.doc.listing;
    match id {
        ListId::Strings => listing.strings().len(),
        ListId::Attributes => listing.attributes().len(),
        ListId::Types => listing.types().len(),
        _ => listing.locations().len(),
    }
}

/// Every user of row `row` of table `id` (strings, attributes, types),
/// once the analysis is done; the table's cell names only the first few.
pub fn users<'v>(doc: &'v Document<'_>, id: ListId, row: usize) -> &'v [User] {
    let Some(analysis) = doc.analysis_ready() else {
        return &[];
    };
    let listing = &doc.listing;
    let users = match id {
        ListId::Strings => {
            let strings = listing.strings();
            strings
                .get(row)
                .and_then(|s| analysis.string_users.get(&(strings.offset_of(s) as u64)))
        }
        ListId::Attributes => analysis.attribute_users.get(&row),
        ListId::Types => analysis.type_users.get(&(row as u32)),
        _ => None,
    };
    users.map_or(&[][..], Vec::as_slice)
}

/// The cells of a row.
pub fn cells(app: &State<'_, '_>, id: ListId, row: usize) -> Vec<String> {
    let listing = &app.doc.listing;
    let analysis = app.doc.analysis_ready();
    let pending = || "…".to_owned();
    match id {
        ListId::Strings => {
            let strings = listing.strings();
            let Some(s) = strings.get(row) else {
                return Vec::new();
            };
            let offset = strings.offset_of(s) as u64;
            vec![
                row.to_string(),
                format!("{:#x}", s.range.start),
                s.bytes.len().to_string(),
                format!("{:?}", clip(&s.text(), 200)),
                analysis.map_or_else(pending, |a| {
                    users_text(listing, a.string_users.get(&offset))
                }),
            ]
        }
        ListId::Attributes => {
            let Some(a) = listing.attributes().get(row) else {
                return Vec::new();
            };
            vec![
                row.to_string(),
                format!("{:#x}", a.range.start),
                a.ty.name(),
                a.range.len().to_string(),
                attribute_text(listing, Some(row)),
                analysis.map_or_else(pending, |an| {
                    users_text(listing, an.attribute_users.get(&row))
                }),
            ]
        }
        ListId::Types => {
            let Some(t) = listing.types().get(row) else {
                return Vec::new();
            };
            vec![
                row.to_string(),
                format!("{:#x}", t.range.start),
                t.name.map_or_else(
                    || format!("<no string at {:#x}>", t.string_offset),
                    str::to_owned,
                ),
                analysis.map_or_else(pending, |a| {
                    users_text(listing, a.type_users.get(&(row as u32)))
                }),
            ]
        }
        _ => {
            let Some(l) = listing.locations().get(row) else {
                return Vec::new();
            };
            let (kind, text) = match listing.location(l.offset) {
                Ok(Some(location)) => (location_kind(&location), location.to_string()),
                Ok(None) => ("virtual", String::new()),
                Err(e) => ("error", e.to_string()),
            };
            vec![
                row.to_string(),
                format!("{:#x}", l.range.start),
                kind.to_owned(),
                clip(&text, 300),
            ]
        }
    }
}

fn location_kind(location: &bef::format::Location) -> &'static str {
    use bef::format::Location;
    match location {
        Location::Unknown => "unknown",
        Location::FileLineCol { .. } => "file",
        Location::Name { .. } => "name",
        Location::CallSite { .. } => "call site",
        Location::Fused(_) => "fused",
    }
}

/// The bytes of a row.
pub fn range(app: &State<'_, '_>, id: ListId, row: usize) -> Option<Range<usize>> {
    let listing = &app.doc.listing;
    match id {
        ListId::Strings => listing.strings().get(row).map(|s| s.range.clone()),
        ListId::Attributes => listing.attributes().get(row).map(|a| a.range.clone()),
        ListId::Types => listing.types().get(row).map(|t| t.range),
        _ => listing.locations().get(row).map(|l| l.range),
    }
}
