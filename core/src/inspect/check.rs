//! A self-check of the lookups, for tests and fuzzing.

use super::Listing;

/// Checks that the listing's lookups agree with its ranges: the items
/// [`Listing::item_at`] gives for every `step`th byte hold it, its field
/// lies inside the innermost item, [`Listing::fields_in`] gives fields in
/// order without overlaps, and every error points inside the file. Returns
/// the first disagreement found.
pub fn check_lookups(listing: &Listing<'_>, step: usize) -> Result<(), String> {
    let len = listing.bytes().len();
    for offset in (0..len).step_by(step.max(1)) {
        let path = listing.item_at(offset);
        let Some(range) = listing.range_of(&path.items) else {
            return Err(format!("no range for the items at {offset:#x}: {path:?}"));
        };
        if !range.contains(&offset) {
            return Err(format!("{path:?} at {offset:#x} spans {range:?}"));
        }
        if let Some(field) = &path.field {
            let inside = range.start <= field.range.start && field.range.end <= range.end;
            if !field.range.contains(&offset) || !inside {
                return Err(format!(
                    "field {field:?} at {offset:#x} is not inside {range:?}"
                ));
            }
        }
    }
    let fields = listing.fields_in(0..len);
    if let Some(pair) = fields
        .windows(2)
        .find(|pair| pair[0].range.end > pair[1].range.start)
    {
        return Err(format!("fields overlap: {pair:?}"));
    }
    match listing.errors().iter().find(|e| e.offset > len as u64) {
        Some(error) => Err(format!("error past the end: {error}")),
        None => Ok(()),
    }
}
