//! Searching a list's rows for text: the same scan whether it runs inside
//! a key press (short lists) or on a worker (long ones, with a progress
//! count, stopped by Esc).

use crate::model::rows::{self, ListId, State};

/// Lists up to this many rows are searched inside the key press: a few
/// milliseconds at most. Longer ones go to a worker.
pub const INLINE_ROWS: usize = 20_000;

/// Rows between two progress reports of a search on a worker.
pub const PROGRESS_ROWS: usize = 16_384;

/// One search through a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Tells this search's reports from an older one's.
    pub id: u64,
    /// The list searched.
    pub list: ListId,
    /// The row the search starts after (before, backward).
    pub start: usize,
    /// Whether it goes up.
    pub backward: bool,
    /// What was typed.
    pub query: String,
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The first matching row.
    Found(usize),
    /// No row matches.
    NotFound,
    /// Stopped before the end.
    Cancelled,
}

/// Scans the rows of `job.list` in `state`, case-insensitively, wrapping
/// around; every [`PROGRESS_ROWS`] rows `progress(scanned, total)` is told
/// and the search stops if it returns false.
pub fn run(
    state: &State<'_, '_>,
    job: &Job,
    mut progress: impl FnMut(usize, usize) -> bool,
) -> Outcome {
    let len = rows::len(state, job.list);
    let needle = job.query.to_lowercase();
    let start = job.start;
    for i in 1..=len {
        if i % PROGRESS_ROWS == 0 && !progress(i, len) {
            return Outcome::Cancelled;
        }
        let row = if job.backward {
            (start + len - i % len) % len
        } else {
            (start + i) % len
        };
        let text = rows::cells(state, job.list, row).join(" ").to_lowercase();
        if text.contains(&needle) {
            return Outcome::Found(row);
        }
    }
    Outcome::NotFound
}
