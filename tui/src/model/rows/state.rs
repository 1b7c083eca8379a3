//! What the lists are read from: the document, the recording, the list
//! cursors and the function table's order, borrowed from the app (or from
//! a [`Snapshot`] a background search owns), never changed by reading.

use std::sync::Arc;

use crate::model::analysis::SourceKernel;
use crate::model::document::Document;
use crate::model::execution::Trace;

use super::ListId;
use super::functions::SortKey;
use crate::model::profile::ProfileSort;

/// A selection in a list, and the first row shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The selected row.
    pub selected: usize,
    /// The first visible row.
    pub scroll: usize,
    /// The column cursor (`<` `>`), once moved; else the list's main
    /// column is the selected cell.
    pub column: Option<usize>,
}

impl Cursor {
    /// Moves by `delta` rows within `len` rows.
    pub fn step(&mut self, delta: isize, len: usize) {
        let last = len.saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }

    /// Keeps the selection within `len` rows and visible in `height`.
    pub fn fit(&mut self, len: usize, height: usize) {
        self.selected = self.selected.min(len.saturating_sub(1));
        let height = height.max(1);
        if self.selected < self.scroll {
            self.scroll = self.selected;
        } else if self.selected >= self.scroll + height {
            self.scroll = self.selected + 1 - height;
        }
        self.scroll = self.scroll.min(len.saturating_sub(1));
    }
}

/// Everything a list's rows depend on, borrowed.
#[derive(Clone, Copy)]
pub struct State<'v, 'a> {
    /// The file.
    pub doc: &'v Document<'a>,
    /// The recording the Execution tab shows, if any.
    pub trace: Option<&'v Trace>,
    /// The function table's row order (function indices).
    pub function_order: &'v [usize],
    /// The function opened on the Functions tab (function index).
    pub open_function: Option<usize>,
    /// The column the function table is sorted by.
    pub sort: SortKey,
    /// The column the recording's kernel and function tables are sorted by.
    pub profile_sort: ProfileSort,
    /// The list cursors, by [`ListId`].
    pub cursors: &'v [Cursor; ListId::COUNT],
}

impl<'v, 'a> State<'v, 'a> {
    /// The cursor of list `id`.
    pub fn cursor(&self, id: ListId) -> Cursor {
        self.cursors[id as usize]
    }

    /// The event under the time cursor (an index into the trace's steps).
    pub fn time_cursor(&self) -> usize {
        self.cursor(ListId::Events).selected
    }

    /// The execution of the event under the time cursor.
    pub fn selected_execution(&self) -> Option<u64> {
        Some(self.trace?.steps.get(self.time_cursor())?.event.execution)
    }

    /// The kernels the Source tab lists; empty until the analysis is done.
    pub fn source_kernels(&self) -> &'v [SourceKernel] {
        self.doc
            .analysis_ready()
            .map_or(&[][..], |a| a.kernels.as_slice())
    }
}

/// What a [`State`] borrows besides the document, owned, for work on
/// another thread while the app moves on.
#[derive(Clone)]
pub struct Snapshot {
    trace: Option<Arc<Trace>>,
    function_order: Vec<usize>,
    open_function: Option<usize>,
    sort: SortKey,
    profile_sort: ProfileSort,
    cursors: [Cursor; ListId::COUNT],
}

impl Snapshot {
    /// A copy of what `state` borrows (the recording shared, not copied).
    pub fn of(state: &State<'_, '_>, trace: Option<Arc<Trace>>) -> Snapshot {
        Snapshot {
            trace,
            function_order: state.function_order.to_vec(),
            open_function: state.open_function,
            sort: state.sort,
            profile_sort: state.profile_sort,
            cursors: *state.cursors,
        }
    }

    /// The state over `doc`.
    pub fn state<'v, 'a>(&'v self, doc: &'v Document<'a>) -> State<'v, 'a> {
        State {
            doc,
            trace: self.trace.as_deref(),
            function_order: &self.function_order,
            open_function: self.open_function,
            sort: self.sort,
            profile_sort: self.profile_sort,
            cursors: &self.cursors,
        }
    }
}
