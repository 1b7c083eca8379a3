//! The Hex tab: offset, hex and ASCII coloured by structure (each field
//! kind its own colour, unclaimed bytes in their section's), the data
//! inspector at the cursor, and the tree of items holding the cursor.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::PROBLEM;
use crate::app::App;
use crate::model::inspector::{self, WIDTH, ascii};
use crate::ui::palette;

/// The colour of every byte in `window`: its field's, else its section's.
pub fn colours(app: &App<'_, '_>, window: std::ops::Range<usize>) -> Vec<Color> {
    let listing = &app.doc.listing;
    let mut out = vec![Color::Gray; window.len()];
    for s in listing.sections() {
        let start = s.range.start.max(window.start);
        let end = s.range.end.min(window.end);
        for c in out
            .iter_mut()
            .take(end.saturating_sub(window.start))
            .skip(start.saturating_sub(window.start))
        {
            *c = palette::section(s.kind);
        }
    }
    let header = listing.header().range();
    for at in header.start.max(window.start)..header.end.min(window.end) {
        out[at - window.start] = palette::field(bef::inspect::FieldKind::Magic);
    }
    for field in listing.fields_in(window.clone()) {
        let colour = palette::field(field.kind);
        for at in field.range.start.max(window.start)..field.range.end.min(window.end) {
            out[at - window.start] = colour;
        }
    }
    out
}

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let wide = area.width >= 120;
    let (hex_area, side) = if wide {
        let [a, b] = Layout::horizontal([Constraint::Length(78), Constraint::Min(30)]).areas(area);
        (a, b)
    } else {
        let [a, b] = Layout::vertical([Constraint::Min(5), Constraint::Length(8)]).areas(area);
        (a, b)
    };
    draw_bytes(frame, app, hex_area);
    draw_side(frame, app, side, wide);
}

fn draw_bytes(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let bytes = app.doc.bytes();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::Cyan))
        .title(format!(
            "Hex ({} bytes{})",
            bytes.len(),
            if app.hex.bookmarks.is_empty() {
                String::new()
            } else {
                format!(", {} bookmarks", app.hex.bookmarks.len())
            }
        ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    app.hex.width = WIDTH;
    let height = inner.height as usize;
    app.page = height.max(1);
    let lines_total = bytes.len().div_ceil(WIDTH);
    let cursor_line = app.hex.cursor / WIDTH;
    if app.hex.reveal_frame
        && let Some(frame) = &app.hex.frame
    {
        app.hex.reveal_frame = false;
        app.hex.scroll = reveal(app.hex.scroll, frame, height);
    }
    if cursor_line < app.hex.scroll {
        app.hex.scroll = cursor_line;
    } else if height > 0 && cursor_line >= app.hex.scroll + height {
        app.hex.scroll = cursor_line + 1 - height;
    }
    let first = app.hex.scroll.min(lines_total);
    let last = (first + height).min(lines_total);
    let window = first * WIDTH..(last * WIDTH).min(bytes.len());
    let colours = colours(app, window.clone());
    let findings = app
        .doc
        .analysis_ready()
        .map(|a| a.findings_in(window.clone()).to_vec())
        .unwrap_or_default();
    let mut lines = Vec::new();
    for line in first..last {
        let mut hex = vec![Span::styled(
            format!("{:08x}: ", line * WIDTH),
            Style::default().fg(Color::DarkGray),
        )];
        let mut text = vec![Span::raw(" ")];
        for at in line * WIDTH..(line + 1) * WIDTH {
            let Some(&b) = bytes.get(at) else {
                hex.push(Span::raw("   "));
                continue;
            };
            let mut style = Style::default().fg(colours[at - window.start]);
            if app.hex.frame.as_ref().is_some_and(|f| f.contains(&at)) {
                style = style.bg(Color::Rgb(50, 50, 70));
            }
            if findings.iter().any(|f| f.offset == at) {
                style = style.bg(PROBLEM).fg(Color::White);
            }
            if app.hex.bookmarks.contains(&at) {
                style = style.add_modifier(Modifier::UNDERLINED);
            }
            if at == app.hex.cursor {
                style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
            }
            hex.push(Span::styled(format!("{b:02x}"), style));
            hex.push(Span::raw(" "));
            text.push(Span::styled(ascii(b).to_string(), style));
        }
        hex.extend(text);
        lines.push(Line::from(hex));
    }
    frame.render_widget(Paragraph::new(lines), inner);
    app.areas.hex = inner;
}

/// The first line to show so that all of `frame` is visible in `height`
/// lines (its start when it is taller), moving from `scroll` only when
/// part of it is off screen.
pub fn reveal(scroll: usize, frame: &std::ops::Range<usize>, height: usize) -> usize {
    let first = frame.start / WIDTH;
    let last = frame.end.saturating_sub(1).max(frame.start) / WIDTH;
    let height = height.max(1);
    if first >= scroll && last < scroll + height {
        scroll
    } else if last - first < height {
        // The item a third of the way down, where the eye looks first.
        let margin = (height - (last - first + 1)) / 3;
        first.saturating_sub(margin)
    } else {
        first
    }
}

/// The decoded value of an item, where the path does not already say it.
fn decoded(app: &App<'_, '_>, item: bef::inspect::Item) -> Option<String> {
    use bef::inspect::Item;
    let listing = &app.doc.listing;
    match item {
        Item::Attribute(i) | Item::AttributeType(i) => {
            Some(crate::model::names::attribute_text(listing, Some(i)))
        }
        Item::Location(i) => {
            let row = listing.locations().get(i)?;
            Some(crate::model::names::location_text(listing, row.offset))
        }
        Item::IndexEntry(i) => {
            let e = listing.index_entry(i)?;
            Some(format!(
                "{} ({}) -> ({})",
                crate::model::names::function_ref(listing, i as u32),
                crate::model::names::type_list(listing, e.argument_types),
                crate::model::names::type_list(listing, e.result_types)
            ))
        }
        _ => None,
    }
}

fn draw_side(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect, wide: bool) {
    let listing = &app.doc.listing;
    let at = app.hex.cursor;
    let readings = inspector::readings(app.doc.bytes(), at);
    let path = crate::model::names::path_at(listing, at);
    let item = listing.item_at(at);
    let field = item.field.as_ref().map(|f| {
        format!(
            "{} at {:#x}..{:#x}",
            f.kind.label(),
            f.range.start,
            f.range.end
        )
    });
    let mut lines: Vec<Line<'_>> = Vec::new();
    let label = Style::default().fg(Color::Cyan);
    if wide {
        lines.push(Line::styled(format!("offset {at:#x} ({at})"), label));
        for (name, value) in &readings {
            lines.push(Line::from(vec![
                Span::styled(format!("{name:>6} "), label),
                Span::raw(value.clone()),
            ]));
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled("item tree", label));
        for (depth, step) in path.split(" › ").enumerate() {
            lines.push(Line::raw(format!("{}{step}", "  ".repeat(depth))));
        }
        if let Some(field) = field {
            lines.push(Line::styled(field, Style::default().fg(Color::Yellow)));
        }
        if let Some(range) = listing.range_of(&item.items) {
            lines.push(Line::raw(format!(
                "item bytes {:#x}..{:#x}",
                range.start, range.end
            )));
        }
        if let Some(value) = item.items.last().and_then(|i| decoded(app, *i)) {
            lines.push(Line::from(vec![
                Span::styled("value ", label),
                Span::raw(crate::model::names::clip(&value, 200)),
            ]));
        }
        if let Some(a) = app.doc.analysis_ready() {
            for f in a.findings_in(at..at + 1) {
                lines.push(Line::styled(
                    format!("! {}", f.message),
                    Style::default().fg(PROBLEM),
                ));
            }
        }
        if !app.hex.bookmarks.is_empty() {
            lines.push(Line::raw(""));
            lines.push(Line::styled("bookmarks", label));
            for b in app.hex.bookmarks.iter().take(8) {
                lines.push(Line::raw(format!("{b:#x}")));
            }
        }
    } else {
        let mut row = Vec::new();
        for (i, (name, value)) in readings.iter().enumerate() {
            row.push(Span::styled(format!("{name} "), label));
            row.push(Span::raw(format!(
                "{}  ",
                crate::model::names::clip(value, 22)
            )));
            if i % 4 == 3 {
                lines.push(Line::from(std::mem::take(&mut row)));
            }
        }
        if !row.is_empty() {
            lines.push(Line::from(row));
        }
        if let Some(field) = field {
            lines.push(Line::styled(field, Style::default().fg(Color::Yellow)));
        }
    }
    let block = Block::default().borders(Borders::ALL).title("Inspector");
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
