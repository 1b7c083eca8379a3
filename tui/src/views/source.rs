//! The Source tab: every kernel with its decoded location beside the
//! source text; moving through kernels moves through the source and back.

use std::ops::Range;

use bef::format::Location;
use bef::tool_io::named_files::MAX_NAMED_FILE_BYTES;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{ListId, draw_list};
use crate::analysis::SourceKernel;
use crate::app::App;
use crate::names::{function_ref, kernel_name, short_location_text};

/// The line (1-based) of file `file` a location points at: its first
/// position in that file, looking through names, the callee then the
/// caller of a call site, and fused parts.
pub fn line_of(location: &Location, file: &str) -> Option<u64> {
    match location {
        Location::Unknown => None,
        Location::FileLineCol { file: f, line, .. } => (**f == *file).then_some(*line),
        Location::Name { child, .. } => line_of(child, file),
        Location::CallSite { callee, caller } => {
            line_of(callee, file).or_else(|| line_of(caller, file))
        }
        Location::Fused(parts) => parts.iter().find_map(|p| line_of(p, file)),
    }
}

/// The number of rows.
pub fn len(app: &mut App<'_, '_>, id: ListId) -> usize {
    match id {
        ListId::SourceKernels => app.source_kernels().len(),
        _ => app.doc.loaded.source.as_ref().map_or(0, |s| s.lines.len()),
    }
}

/// The cells of a row.
pub fn cells(app: &mut App<'_, '_>, id: ListId, row: usize) -> Vec<String> {
    let listing = &app.doc.listing;
    if id == ListId::SourceLines {
        let text = app
            .doc
            .loaded
            .source
            .as_ref()
            .and_then(|s| s.lines.get(row))
            .cloned()
            .unwrap_or_default();
        return vec![(row + 1).to_string(), text];
    }
    let Some(&SourceKernel {
        function: f,
        kernel: k,
        ..
    }) = app.source_kernels().get(row)
    else {
        return Vec::new();
    };
    let Some(kernel) = listing.function(f).and_then(|f| f.kernel(k)) else {
        return Vec::new();
    };
    vec![
        function_ref(listing, f as u32),
        k.to_string(),
        kernel_name(kernel),
        kernel
            .location_offset()
            .map_or_else(String::new, |l| short_location_text(listing, l)),
    ]
}

/// The bytes of a row: the kernel's record (for a source line, the
/// selected kernel's).
pub fn range(app: &mut App<'_, '_>, id: ListId, row: usize) -> Option<Range<usize>> {
    let row = if id == ListId::SourceLines {
        app.cursor(ListId::SourceKernels).selected
    } else {
        row
    };
    let k = app.source_kernels().get(row)?;
    Some(
        app.doc
            .listing
            .function(k.function)?
            .kernel(k.kernel)?
            .range
            .clone(),
    )
}

/// Why there is no source text, in a sentence.
pub fn missing_source(app: &App<'_, '_>) -> String {
    if app.doc.loaded.source_not_read.is_empty() {
        "No source text: no file the locations name was found (as given, or beside this file)."
            .to_owned()
    } else {
        format!(
            "No source text: the files the locations name were not read (only regular .mlir \
             files, never under /proc, /sys or /dev, at most {} MiB):",
            MAX_NAMED_FILE_BYTES >> 20
        )
    }
}

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
    draw_list(frame, app, ListId::SourceKernels, left, 0);
    if app.doc.loaded.source.is_some() {
        draw_list(frame, app, ListId::SourceLines, right, 1);
    } else {
        let mut note = vec![
            Line::from(missing_source(app)),
            Line::from(""),
            Line::from(
                "Open the .mlir program (befview translates it on the fly) to see each \
                 kernel's source line; the kernels' locations are decoded on the left.",
            ),
        ];
        if !app.doc.loaded.source_not_read.is_empty() {
            note.push(Line::from(""));
        }
        for refused in &app.doc.loaded.source_not_read {
            // Escaped by its Display.
            note.push(Line::from(refused.to_string()));
        }
        frame.render_widget(
            Paragraph::new(note)
                .wrap(Wrap { trim: true })
                .style(Style::default().fg(Color::DarkGray))
                .block(Block::default().borders(Borders::ALL).title("Source")),
            right,
        );
    }
}
