//! Table columns sized from what they hold. Each column says how it may be
//! shortened: names and values are elided in the middle
//! (`tfrt.const…i32`, both ends kept), while numbers, offsets and
//! `file:line:col` are shown whole or not at all, since a cut number reads
//! as another number. When the screen is too narrow, columns are given room
//! in priority order (names and locations before counts); the ones left
//! out are hidden, and moving the column cursor onto one shows it (the
//! table's horizontal scroll).

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// How a column's text may be shortened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Elided in the middle: names, values, messages.
    Elide,
    /// Shown whole or hidden: numbers, offsets, times.
    Whole,
    /// A location: elided before its `:line:col`, which is kept whole.
    Location,
}

/// What the layout needs to know of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    /// Its widest cell or header, in terminal cells.
    pub want: usize,
    /// The fewest cells an elided column is drawn in (its text is still
    /// recognisable there); a column with less room is hidden.
    pub least: usize,
    /// Lower goes first when room is short.
    pub priority: u8,
    /// How it may be shortened.
    pub fit: Fit,
}

/// How many terminal cells `text` takes.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// How wide a first-priority column may want to be before lower columns
/// are hidden for it: past this, a long value does not push out the rest.
pub const NAME_ROOM: usize = 32;

/// The widths of columns needing `needs` in `available` cells, `spacing`
/// cells between neighbours: `None` for a hidden column. Column `focus`
/// (the column cursor) is placed first whatever its priority, so that it
/// is always shown. Columns of priority 0 (what a row is) get their whole
/// width, up to [`NAME_ROOM`], before columns of lower priority are shown.
pub fn layout(
    needs: &[Need],
    available: usize,
    spacing: usize,
    focus: Option<usize>,
) -> Vec<Option<usize>> {
    let short = |widths: &[Option<usize>]| {
        (0..needs.len()).any(|i| {
            needs[i].priority == 0 && widths[i].is_some_and(|w| w < needs[i].want.min(NAME_ROOM))
        })
    };
    let mut hidden = vec![false; needs.len()];
    let mut widths = fill(needs, &hidden, available, spacing, focus);
    // Hide columns from the lowest priority up until the first-priority
    // ones have their room...
    while short(&widths) {
        let victim = (0..needs.len())
            .filter(|&i| widths[i].is_some() && needs[i].priority > 0 && Some(i) != focus)
            .max_by_key(|&i| (needs[i].priority, i));
        let Some(victim) = victim else { break };
        hidden[victim] = true;
        widths = fill(needs, &hidden, available, spacing, focus);
    }
    // ...then show again, from the highest priority down, those that
    // still fit beside them.
    let mut again: Vec<usize> = (0..needs.len()).filter(|&i| hidden[i]).collect();
    again.sort_by_key(|&i| (needs[i].priority, i));
    for i in again {
        hidden[i] = false;
        let tried = fill(needs, &hidden, available, spacing, focus);
        if tried[i].is_some() && !short(&tried) {
            widths = tried;
        } else {
            hidden[i] = true;
        }
    }
    widths
}

/// One try of [`layout`] without the columns marked `hidden`: each column
/// at its least in priority order while they fit, then grown in the same
/// order.
fn fill(
    needs: &[Need],
    hidden: &[bool],
    available: usize,
    spacing: usize,
    focus: Option<usize>,
) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..needs.len()).filter(|&i| !hidden[i]).collect();
    order.sort_by_key(|&i| (Some(i) != focus, needs[i].priority, i));
    let least = |n: &Need| match n.fit {
        Fit::Whole => n.want,
        Fit::Elide | Fit::Location => n.want.min(n.least),
    };
    let mut widths: Vec<Option<usize>> = vec![None; needs.len()];
    let mut used = 0usize;
    // Once a column is left out, columns of lower priority are too: their
    // room goes to the columns before them.
    let mut cut_off: Option<u8> = None;
    for &i in &order {
        let gap = if used == 0 { 0 } else { spacing };
        let cost = gap + least(&needs[i]);
        let below = cut_off.is_some_and(|p| needs[i].priority > p);
        // The focused column is shown even when it alone is too wide; it
        // is elided (or, whole, cut by the screen edge) rather than hidden.
        if (!below && used + cost <= available) || Some(i) == focus {
            widths[i] = Some(least(&needs[i]));
            used += cost;
        } else {
            cut_off.get_or_insert(needs[i].priority);
        }
    }
    // First-priority columns grow to their room first, a cell each in
    // turn so that a name and a location share it.
    let mut spare = available.saturating_sub(used);
    let first: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| needs[i].priority == 0 && widths[i].is_some())
        .collect();
    while spare > 0 {
        let mut grew = false;
        for &i in &first {
            if let Some(w) = widths[i].as_mut()
                && *w < needs[i].want.min(NAME_ROOM)
                && spare > 0
            {
                *w += 1;
                spare -= 1;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    // The columns closest to whole first: what cannot all fit is cut
    // from the widest, and every other column is shown whole.
    let mut rest: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| widths[i].is_some())
        .collect();
    rest.sort_by_key(|&i| needs[i].want - widths[i].unwrap_or(0).min(needs[i].want));
    for i in rest {
        if let Some(w) = widths[i].as_mut() {
            let grow = needs[i].want.saturating_sub(*w).min(spare);
            *w += grow;
            spare -= grow;
        }
    }
    widths
}

/// `text` fitted to `cells` terminal cells as a column of kind `fit`
/// shows it. A whole column's text is returned as it is: the layout gave it
/// its width, or the screen edge cuts it.
pub fn fit_cell(text: &str, cells: usize, fit: Fit) -> Cow<'_, str> {
    match fit {
        Fit::Whole => Cow::Borrowed(text),
        Fit::Elide => elide_middle(text, cells),
        Fit::Location => elide_location(text, cells),
    }
}

/// Where the `:line:col` that ends a location begins, if it ends with one.
pub fn line_col_start(text: &str) -> Option<usize> {
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let col = text.rfind(':')?;
    let line = text[..col].rfind(':')?;
    (numeric(&text[line + 1..col]) && numeric(&text[col + 1..])).then_some(line)
}

/// The fewest cells that show `text`'s `:line:col` whole after at least
/// one character of the file name and the `…`.
pub fn location_least(text: &str) -> usize {
    line_col_start(text).map_or(0, |at| width(&text[at..]) + 2)
}

/// A location fitted to `cells`: the file name elided in the middle, the
/// `:line:col` kept. With no room for the `:line:col`, the whole text is
/// elided, which shows that something is missing (`a.mlir:24:1` for
/// `24:10` would not).
fn elide_location(text: &str, cells: usize) -> Cow<'_, str> {
    if width(text) <= cells {
        return Cow::Borrowed(text);
    }
    match line_col_start(text) {
        Some(at) if width(&text[at..]) + 2 <= cells => {
            // The file name is wider than what is left (the whole text
            // is not), so it is elided and carries the `…`.
            let tail = &text[at..];
            let head = elide_middle(&text[..at], cells - width(tail));
            Cow::Owned(format!("{head}{tail}"))
        }
        _ => elide_middle(text, cells),
    }
}

/// `text` fitted to `cells` terminal cells: itself when it fits, else its
/// start and end around `…`, the start getting the odd cell.
pub fn elide_middle(text: &str, cells: usize) -> Cow<'_, str> {
    if width(text) <= cells {
        return Cow::Borrowed(text);
    }
    if cells == 0 {
        return Cow::Borrowed("");
    }
    let room = cells - 1;
    let head_room = room - room / 2;
    let mut head = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > head_room {
            break;
        }
        head.push(c);
        used += w;
    }
    // What a wide character left unused at the head goes to the tail.
    let tail_room = room - used;
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in text.chars().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > tail_room {
            break;
        }
        tail.push(c);
        used += w;
    }
    head.push('…');
    head.extend(tail.into_iter().rev());
    Cow::Owned(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(want: usize, priority: u8, fit: Fit) -> Need {
        Need {
            want,
            least: 12,
            priority,
            fit,
        }
    }

    #[test]
    fn elides_in_the_middle_keeping_both_ends() {
        assert_eq!(elide_middle("tfrt.constant.i32", 15), "tfrt.co…ant.i32");
        assert_eq!(elide_middle("tfrt.constant.i32", 17), "tfrt.constant.i32");
        assert_eq!(elide_middle("abcdef", 1), "…");
        assert_eq!(elide_middle("abcdef", 0), "");
        assert_eq!(elide_middle("日本語のテキスト", 7), "日…スト");
        assert!(width(&elide_middle("日本語のテキスト", 7)) <= 7);
    }

    #[test]
    fn locations_keep_line_and_column() {
        let at = "some/dir/async.mlir:24:10";
        assert_eq!(line_col_start(at), Some(19));
        assert_eq!(location_least(at), 8);
        assert_eq!(fit_cell(at, 30, Fit::Location), at);
        assert_eq!(fit_cell(at, 14, Fit::Location), "some…lir:24:10");
        assert_eq!(fit_cell(at, 8, Fit::Location), "s…:24:10");
        // No room for the line and column: elided, never cut to `24:1`.
        assert_eq!(fit_cell(at, 6, Fit::Location), "som…10");
        assert_eq!(line_col_start("fused[a:1:2, b]"), None);
        assert_eq!(line_col_start("loc(\"x\")"), None);
    }

    #[test]
    fn everything_fits_when_there_is_room() {
        let needs = [need(10, 2, Fit::Whole), need(30, 0, Fit::Elide)];
        assert_eq!(layout(&needs, 80, 1, None), [Some(10), Some(30)]);
    }

    #[test]
    fn whole_columns_are_hidden_not_cut_and_names_come_first() {
        let needs = [
            need(10, 2, Fit::Whole),
            need(40, 0, Fit::Elide),
            need(15, 1, Fit::Whole),
        ];
        // The name gets its room (NAME_ROOM) before the time column is
        // shown; then there is room for all three.
        assert_eq!(layout(&needs, 60, 1, None), [Some(10), Some(33), Some(15)]);
        // Less room: the time column is hidden, not cut.
        assert_eq!(layout(&needs, 50, 1, None), [None, Some(34), Some(15)]);
        // With room for all three, all three.
        assert_eq!(layout(&needs, 67, 1, None), [Some(10), Some(40), Some(15)]);
        // Narrower than the name: the name takes it all.
        assert_eq!(layout(&needs, 30, 1, None), [None, Some(30), None]);
        // The column cursor on the time column shows it.
        assert_eq!(layout(&needs, 30, 1, Some(0)), [Some(10), Some(19), None]);
        // A small column of low priority is not shown once one before it
        // was left out: the room goes to the name.
        let needs = [
            need(30, 0, Fit::Elide),
            need(20, 1, Fit::Whole),
            need(4, 2, Fit::Whole),
        ];
        assert_eq!(layout(&needs, 30, 1, None), [Some(30), None, None]);
        // Short of room, the widest column is cut and the others whole.
        let needs = [
            need(20, 1, Fit::Elide),
            need(60, 1, Fit::Elide),
            need(14, 1, Fit::Elide),
        ];
        assert_eq!(layout(&needs, 80, 1, None), [Some(20), Some(44), Some(14)]);
    }
}
