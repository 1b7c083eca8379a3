//! The app's behaviour without a screen: paths in the status line, rows ⇄
//! bytes, the hex view's goto, search and bookmarks, copying, sorting.

mod common;

use befview::app::Pane;
use befview::app::events::Effect;
use befview::app::keys::Action;
use befview::model::names;
use befview::model::rows::ListId;
use befview::{App, Document, Tab};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn typed(app: &mut App<'_, '_>, text: &str) {
    for c in text.chars() {
        app.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    app.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
}

/// The function index of `@name`.
fn function(doc: &Document<'_>, name: &str) -> usize {
    doc.listing
        .index_entries()
        .find(|e| e.name == name)
        .map(|e| e.index)
        .expect("function exists")
}

#[test]
fn the_path_of_an_attribute_reference_names_the_attribute() {
    let loaded = common::open("befview/inspect.mlir");
    let doc = Document::new(&loaded).expect("lists");
    let main = doc.listing.function(function(&doc, "main")).expect("body");
    let kernel = main
        .kernels()
        .iter()
        .find(|k| k.name == Some("tfrt_test.report_error_sync"))
        .expect("kernel");
    let slot = kernel.attributes[0].slot.start;
    assert_eq!(
        names::path_at(&doc.listing, slot),
        format!(
            "functions › @main › kernel {} tfrt_test.report_error_sync › attribute \"message\"",
            kernel.index
        )
    );
    assert_eq!(
        names::path_at(&doc.listing, doc.bytes().len()),
        "end of file"
    );
}

#[test]
fn rows_frame_their_bytes_and_the_hex_cursor_selects_rows() {
    let loaded = common::open("befview/inspect.mlir");
    let doc = Document::new(&loaded).expect("lists");
    doc.analysis();
    let mut app = App::new(&doc);
    // Functions → @main → kernel 5 (tfrt.call) → its bytes.
    app.act(Action::Tab(2));
    let row = app
        .functions
        .order
        .iter()
        .position(|&f| f == function(&doc, "main"))
        .expect("row");
    app.cursor_mut(ListId::Functions).selected = row;
    app.act(Action::Enter);
    assert_eq!(app.functions.open, Some(function(&doc, "main")));
    app.cursor_mut(ListId::Kernels).selected = 5;
    app.act(Action::Enter);
    let kernel = doc
        .listing
        .function(function(&doc, "main"))
        .and_then(|f| f.kernel(5))
        .expect("kernel 5");
    assert_eq!(app.tab, Tab::Hex);
    assert_eq!(app.hex.frame, Some(kernel.range.clone()));
    assert_eq!(app.hex.cursor, kernel.range.start);
    // Back in the table, leaving the function, then from hex again: the
    // rows holding the cursor are selected.
    app.act(Action::Tab(2));
    app.act(Action::Back);
    assert_eq!(app.functions.open, None);
    app.act(Action::Tab(1));
    app.hex.cursor = kernel.range.start + 4;
    app.act(Action::Tab(2));
    assert_eq!(app.functions.open, Some(function(&doc, "main")));
    assert_eq!(app.cursor(ListId::Kernels).selected, 5);
    assert_eq!(app.pane, Pane::First);
}

#[test]
fn hex_goto_search_and_bookmarks() {
    let loaded = common::open("befview/inspect.mlir");
    let doc = Document::new(&loaded).expect("lists");
    let mut app = App::new(&doc);
    app.act(Action::Tab(1));
    app.on_key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::NONE));
    typed(&mut app, "0x20");
    assert_eq!(app.hex.cursor, 0x20);
    app.on_key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::NONE));
    typed(&mut app, "99999999");
    assert_eq!(app.hex.cursor, 0x20, "past the end: unchanged");
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("past the end"))
    );
    // `gg` in the hex view: the prompt's `g` goes to the top.
    app.on_key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::NONE));
    app.on_key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::NONE));
    assert_eq!(app.hex.cursor, 0);
    assert!(app.prompt.is_none());
    // Text, hex bytes and a VBR value.
    let hello = doc
        .bytes()
        .windows(5)
        .position(|w| w == b"hello")
        .expect("the attribute's text");
    app.act(Action::Search);
    typed(&mut app, "hello");
    assert_eq!(app.hex.cursor, hello);
    app.act(Action::Search);
    typed(&mut app, "#0b ef");
    assert_eq!(app.hex.cursor, 0, "wraps round to the magic number");
    // The Strings section's length field holds a VBR; search for its value.
    let field = doc.listing.sections()[0].length_range.clone();
    let (value, len) =
        befview::model::inspector::vbr_at(&doc.bytes()[field.clone()]).expect("a VBR");
    app.act(Action::Search);
    typed(&mut app, &format!("={value}"));
    assert_eq!(
        &doc.bytes()[app.hex.cursor..app.hex.cursor + len],
        &befview::model::inspector::vbr_encode(value)[..]
    );
    let first = app.hex.cursor;
    app.act(Action::SearchNext);
    app.act(Action::SearchPrev);
    assert_eq!(app.hex.cursor, first);
    app.act(Action::Search);
    typed(&mut app, "no such text anywhere");
    assert_eq!(app.hex.cursor, first);
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("not found"))
    );
    // Bookmarks: toggle, jump, untoggle.
    app.hex.cursor = 3;
    app.act(Action::Bookmark);
    app.hex.cursor = 40;
    app.act(Action::Bookmark);
    app.act(Action::NextBookmark);
    assert_eq!(app.hex.cursor, 3);
    app.act(Action::NextBookmark);
    assert_eq!(app.hex.cursor, 40);
    app.act(Action::Bookmark);
    assert_eq!(
        app.hex.bookmarks.iter().copied().collect::<Vec<_>>(),
        vec![3]
    );
}

#[test]
fn copy_sort_and_row_search() {
    let loaded = common::open("befview/inspect.mlir");
    let doc = Document::new(&loaded).expect("lists");
    doc.analysis();
    let mut app = App::new(&doc);
    app.act(Action::Tab(2));
    app.act(Action::Search);
    typed(&mut app, "@fails");
    app.act(Action::Copy);
    assert_eq!(copied(&mut app).as_deref(), Some("@fails"));
    // Sorting keeps every function, ordered by the column.
    for _ in 0..befview::model::rows::SortKey::ALL.len() {
        app.act(Action::Sort);
        let mut order = app.functions.order.clone();
        order.sort_unstable();
        assert_eq!(order, (0..doc.listing.function_count()).collect::<Vec<_>>());
    }
    app.functions.sort = befview::model::rows::SortKey::Registers; // most first
    app.functions.apply_sort(&doc.listing);
    let registers: Vec<usize> = app
        .functions
        .order
        .iter()
        .map(|&f| doc.listing.function(f).map_or(0, |f| f.register_count()))
        .collect();
    assert!(registers.windows(2).all(|w| w[0] >= w[1]), "{registers:?}");
    // The attribute table's value column is what `y` copies.
    app.act(Action::Tab(4));
    app.act(Action::Right);
    app.act(Action::Search);
    typed(&mut app, "befview says");
    app.act(Action::Copy);
    assert_eq!(copied(&mut app).as_deref(), Some("\"befview says hello\""));
}

#[test]
fn y_copies_names_with_their_control_characters_escaped() {
    let loaded = common::open("fuzz/befview/names_with_terminal_escapes.mlir");
    let doc = Document::new(&loaded).expect("lists");
    doc.analysis();
    let mut app = App::new(&doc);
    app.act(Action::Tab(2));
    app.act(Action::Search);
    typed(&mut app, "OWNED-TITLE");
    app.act(Action::Copy);
    assert_eq!(
        copied(&mut app).as_deref(),
        Some(r"@title\u{1b}]0;OWNED-TITLE\u{7}")
    );
    // The Strings table, where the clipboard sequence is a string.
    app.act(Action::Tab(4));
    app.act(Action::Search);
    typed(&mut app, "52;c");
    app.act(Action::Copy);
    assert_eq!(
        copied(&mut app).as_deref(),
        Some(r#""\u{1b}]52;c;T1dORUQ=\u{7}""#)
    );
}

/// The text the last effect asks to copy.
fn copied(app: &mut App<'_, '_>) -> Option<String> {
    match app.take_effects().pop() {
        Some(Effect::Copy(text)) => Some(text),
        _ => None,
    }
}
