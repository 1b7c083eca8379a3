//! The Source tab: every kernel with its decoded location beside the
//! source text; moving through kernels moves through the source and back.

use std::ops::Range;

use bef::tool_io::named_files::MAX_NAMED_FILE_BYTES;

use super::{ListId, State};
use crate::model::analysis::SourceKernel;
use crate::model::names::{function_ref, kernel_name, short_location_text};

/// The number of rows.
pub fn len(app: &State<'_, '_>, id: ListId) -> usize {
    match id {
        ListId::SourceKernels => app.source_kernels().len(),
        _ => app.doc.loaded.source.as_ref().map_or(0, |s| s.lines.len()),
    }
}

/// The cells of a row.
pub fn cells(app: &State<'_, '_>, id: ListId, row: usize) -> Vec<String> {
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
pub fn range(app: &State<'_, '_>, id: ListId, row: usize) -> Option<Range<usize>> {
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
pub fn missing_source(app: &State<'_, '_>) -> String {
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
