//! The Sections tab: every section with its framing and a size bar, and
//! below it the decoder's and verifier's findings with their offsets.

use std::ops::Range;

use super::{ListId, State};
use crate::model::analysis::FindingSource;

/// Width of the size bar, in characters.
const BAR: usize = 12;

/// A bar of `part` out of `whole`, at least one block when non-empty.
pub fn size_bar(part: usize, whole: usize) -> String {
    if whole == 0 {
        return String::new();
    }
    let filled = (part as u128 * BAR as u128).div_ceil(whole as u128) as usize;
    let filled = filled.min(BAR);
    format!("{}{}", "█".repeat(filled), "·".repeat(BAR - filled))
}

/// The cells of a row.
pub fn cells(app: &State<'_, '_>, id: ListId, row: usize) -> Vec<String> {
    let listing = &app.doc.listing;
    if id == ListId::Findings {
        let Some(f) = app.doc.analysis_ready().and_then(|a| a.findings.get(row)) else {
            return Vec::new();
        };
        let by = match f.source {
            FindingSource::Decoder => "decoder",
            FindingSource::Verifier => "verifier",
        };
        return vec![format!("{:#x}", f.offset), by.to_owned(), f.message.clone()];
    }
    let Some(s) = listing.sections().get(row) else {
        return Vec::new();
    };
    let items = match app.doc.analysis_ready() {
        Some(a) => a
            .section_items
            .get(row)
            .copied()
            .flatten()
            .map_or_else(|| "-".to_owned(), |n| n.to_string()),
        None => "…".to_owned(),
    };
    let mut name = s.name().into_owned();
    if !s.used {
        name.push_str(" (unused)");
    }
    if s.is_truncated() {
        name.push_str(" (cut)");
    }
    vec![
        row.to_string(),
        s.id.to_string(),
        name,
        format!("{:#x}", s.range.start),
        s.length.to_string(),
        s.alignment
            .map_or_else(|| "-".to_owned(), |a| a.to_string()),
        items,
        size_bar(s.range.len(), listing.bytes().len()),
    ]
}

/// The bytes of a row.
pub fn range(app: &State<'_, '_>, id: ListId, row: usize) -> Option<Range<usize>> {
    if id == ListId::Findings {
        let f = app.doc.analysis_ready()?.findings.get(row)?;
        return Some(f.offset..f.offset + 1);
    }
    app.doc.listing.sections().get(row).map(|s| s.range.clone())
}

#[cfg(test)]
mod tests {
    use super::size_bar;

    #[test]
    fn bars_scale_and_never_vanish() {
        assert_eq!(size_bar(0, 0), "");
        assert_eq!(size_bar(10, 10).chars().filter(|&c| c == '█').count(), 12);
        assert_eq!(size_bar(1, 1000).chars().filter(|&c| c == '█').count(), 1);
        assert_eq!(size_bar(0, 1000).chars().filter(|&c| c == '█').count(), 0);
    }
}
