//! The Hex tab's state and what its keys do to it: the byte cursor, the
//! first line shown, the bytes framed by Enter, and the marks.

use std::collections::BTreeSet;
use std::ops::Range;

use bef::inspect::Listing;
use ratatui::layout::Rect;

use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::inspector;

/// The Hex tab's state.
#[derive(Debug, Clone)]
pub struct Hex {
    /// The cursor (byte offset).
    pub cursor: usize,
    /// The first line shown.
    pub scroll: usize,
    /// Bytes per line, from the last frame.
    pub width: usize,
    /// Bytes framed by Enter on a row.
    pub frame: Option<Range<usize>>,
    /// Whether the next frame scrolls to show all of `frame`.
    pub reveal_frame: bool,
    /// Bookmarked offsets.
    pub bookmarks: BTreeSet<usize>,
}

impl Default for Hex {
    fn default() -> Hex {
        Hex {
            cursor: 0,
            scroll: 0,
            width: 16,
            frame: None,
            reveal_frame: false,
            bookmarks: BTreeSet::new(),
        }
    }
}

impl Hex {
    /// Moves the cursor `delta` lines, within `len` bytes.
    pub fn step(&mut self, delta: isize, len: usize) {
        let width = self.width.max(1) as isize;
        let last = len.saturating_sub(1);
        self.cursor = self
            .cursor
            .saturating_add_signed(delta.saturating_mul(width))
            .min(last);
    }

    /// Moves the cursor `delta` bytes, within `len` bytes.
    pub fn side(&mut self, delta: isize, len: usize) {
        let last = len.saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(delta).min(last);
    }

    /// Frames the innermost field or item at the cursor (Enter).
    pub fn frame_item(&mut self, listing: &Listing<'_>) {
        let path = listing.item_at(self.cursor);
        self.frame = path
            .field
            .map(|f| f.range)
            .or_else(|| listing.range_of(&path.items));
    }

    /// Frames `range` (Enter on a row of another tab), the cursor at its
    /// start, within `len` bytes.
    pub fn show(&mut self, range: Range<usize>, len: usize) {
        self.cursor = range.start.min(len.saturating_sub(1));
        self.frame = Some(range);
        self.reveal_frame = true;
    }

    /// Sets or removes the mark at the cursor; says which.
    pub fn toggle_mark(&mut self) -> String {
        let at = self.cursor;
        let set = !self.bookmarks.remove(&at);
        if set {
            self.bookmarks.insert(at);
        }
        let count = self.bookmarks.len();
        let next = keys::label(Action::NextBookmark, Some(Tab::Hex));
        if set {
            format!("mark set at {at:#x} ({count} marks; {next} goes to the next)")
        } else {
            format!("mark at {at:#x} removed ({count} marks left)")
        }
    }

    /// Moves to the next mark, round to the first; says so when there is
    /// none.
    pub fn next_mark(&mut self) -> Option<String> {
        let next = self
            .bookmarks
            .range(self.cursor + 1..)
            .next()
            .or_else(|| self.bookmarks.iter().next());
        match next {
            Some(&at) => {
                self.cursor = at;
                None
            }
            None => Some(format!(
                "no bookmarks: press {}",
                keys::label(Action::Bookmark, Some(Tab::Hex))
            )),
        }
    }

    /// Moves to the offset typed at the `g` prompt; says why not when it
    /// is not one within `len` bytes.
    pub fn goto(&mut self, text: &str, len: usize) -> Option<String> {
        match inspector::parse_offset(text) {
            Some(at) if at < len => {
                self.cursor = at;
                None
            }
            Some(at) => Some(format!("offset {at:#x} is past the end")),
            None => Some(format!("'{text}' is not an offset")),
        }
    }

    /// Moves to the next (or previous) match of `query` in `bytes` and
    /// frames it; says why not when there is none.
    pub fn find(&mut self, bytes: &[u8], query: &str, backward: bool) -> Option<String> {
        match inspector::parse_pattern(query) {
            Err(e) => Some(e),
            Ok(needle) => match inspector::find(bytes, &needle, self.cursor, backward) {
                Some(at) => {
                    self.cursor = at;
                    self.frame = Some(at..at + needle.len());
                    None
                }
                None => Some(format!("{query} not found")),
            },
        }
    }

    /// Moves the cursor to the byte drawn at `x`, `y` in `area`, if it is
    /// one of the `len` bytes.
    pub fn click(&mut self, area: Rect, x: u16, y: u16, len: usize) {
        let line = self.scroll + (y - area.y) as usize;
        // Cells are "hh " after a 10-column offset.
        let column = (x - area.x).saturating_sub(10) as usize / 3;
        let at = line * self.width + column.min(self.width - 1);
        if at < len {
            self.cursor = at;
        }
    }
}
