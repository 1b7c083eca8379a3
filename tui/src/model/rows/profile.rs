//! The Kernels view of the Functions tab, with a recording open: the
//! recording's statistics per kernel name and per function
//! ([`crate::model::profile`]), sorted by the column `s` chose.

use super::{ListId, State};
use crate::model::profile::ProfileRow;

fn kernels(id: ListId) -> bool {
    id == ListId::KernelProfile
}

/// The number of rows.
pub fn len(app: &State<'_, '_>, id: ListId) -> usize {
    app.trace.map_or(0, |t| t.profile.rows(kernels(id)).len())
}

/// Row `row` as sorted.
pub fn row<'v>(app: &State<'v, '_>, id: ListId, row: usize) -> Option<&'v ProfileRow> {
    app.trace?.profile.row(kernels(id), app.profile_sort, row)
}

/// The cells of a row.
pub fn cells(app: &State<'_, '_>, id: ListId, at: usize) -> Vec<String> {
    match (app.trace, row(app, id, at)) {
        (Some(trace), Some(r)) => trace.profile.cells(r),
        _ => Vec::new(),
    }
}
