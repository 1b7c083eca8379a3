//! The Strings·Attributes·Types tab: one table at a time (`h`/`l`), each
//! row with its offset, decoded value and users; also the Locations
//! section, every kind decoded.

use std::ops::Range;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{ListId, TABLES, draw_list, title};
use crate::analysis::users_text;
use crate::app::App;
use crate::names::{attribute_text, clip};

/// The number of rows.
pub fn len(app: &mut App<'_, '_>, id: ListId) -> usize {
    let listing = &app.doc.listing;
    match id {
        ListId::Strings => listing.strings().len(),
        ListId::Attributes => listing.attributes().len(),
        ListId::Types => listing.types().len(),
        _ => listing.locations().len(),
    }
}

/// The cells of a row.
pub fn cells(app: &mut App<'_, '_>, id: ListId, row: usize) -> Vec<String> {
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
                analysis.map_or_else(pending, |a| users_text(a.string_users.get(&offset))),
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
                analysis.map_or_else(pending, |an| users_text(an.attribute_users.get(&row))),
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
                analysis.map_or_else(pending, |a| users_text(a.type_users.get(&(row as u32)))),
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
pub fn range(app: &mut App<'_, '_>, id: ListId, row: usize) -> Option<Range<usize>> {
    let listing = &app.doc.listing;
    match id {
        ListId::Strings => listing.strings().get(row).map(|s| s.range.clone()),
        ListId::Attributes => listing.attributes().get(row).map(|a| a.range.clone()),
        ListId::Types => listing.types().get(row).map(|t| t.range),
        _ => listing.locations().get(row).map(|l| l.range),
    }
}

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let [bar, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(3)]).areas(area);
    let mut spans = vec![Span::raw(" ")];
    for id in TABLES {
        let style = if id == app.table {
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            Style::default().fg(Color::Gray)
        };
        spans.push(Span::styled(title(app, id), style));
        spans.push(Span::raw("  "));
    }
    spans.push(Span::styled("(h/l)", Style::default().fg(Color::DarkGray)));
    frame.render_widget(Paragraph::new(Line::from(spans)), bar);
    let table = app.table;
    draw_list(frame, app, table, body, 0);
}
