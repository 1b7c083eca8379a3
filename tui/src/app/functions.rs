//! The Functions tab's state and what its keys do to it: the function
//! table's order and sort, and the function opened.

use bef::inspect::Listing;

use crate::model::profile::ProfileSort;
use crate::model::rows::{ListId, SortKey};

/// The Functions tab's state.
#[derive(Debug, Clone)]
pub struct Functions {
    /// The function opened (function index).
    pub open: Option<usize>,
    /// The function table's row order (function indices).
    pub order: Vec<usize>,
    /// The column the function table is sorted by.
    pub sort: SortKey,
    /// The recorded table shown below the function table while a
    /// recording is open: [`ListId::KernelProfile`] or
    /// [`ListId::FunctionProfile`].
    pub profile: ListId,
    /// The column the recorded tables are sorted by.
    pub profile_sort: ProfileSort,
}

impl Functions {
    /// The table of `listing`'s functions, in index order, none open.
    pub fn new(listing: &Listing<'_>) -> Functions {
        Functions {
            open: None,
            order: (0..listing.function_count()).collect(),
            sort: SortKey::default(),
            profile: ListId::KernelProfile,
            profile_sort: ProfileSort::default(),
        }
    }

    /// The function `r` runs: the open one, else the one at `row` of the
    /// table.
    pub fn selected(&self, row: usize) -> Option<usize> {
        self.open.or_else(|| self.order.get(row).copied())
    }

    /// Sorts the table by the next column (`s`); says by which.
    pub fn sort_next(&mut self, listing: &Listing<'_>) -> String {
        self.sort = self.sort.next();
        self.apply_sort(listing)
    }

    /// Sorts the table by [`sort`](Self::sort); says by which.
    pub fn apply_sort(&mut self, listing: &Listing<'_>) -> String {
        self.sort.sort(listing, &mut self.order);
        format!("sorted by {}", self.sort.name())
    }

    /// Sorts the recorded tables by the next column (`s`); says by which.
    pub fn profile_sort_next(&mut self) -> String {
        self.profile_sort = self.profile_sort.next();
        format!("recorded tables sorted by {}", self.profile_sort.name())
    }

    /// The row of function `index` in the table.
    pub fn row_of(&self, index: usize) -> Option<usize> {
        self.order.iter().position(|&f| f == index)
    }
}
