//! The inspector under random files and random keys: opening, the
//! whole-file analysis, and every event followed by a frame must not
//! panic, and the app's state must stay consistent.

use std::path::Path;

use arbitrary::Unstructured;
use befview::{App, Document, Loaded, simulate};

/// Splits the input into a file and a key sequence, opens the file as
/// `befview` does and runs the keys, drawing after each at a size the
/// input chooses. Panics when the state becomes inconsistent.
pub fn befview_keys(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let file: Vec<u8> = u.arbitrary()?;
    let wide: bool = u.arbitrary()?;
    let keys: Vec<u8> = u.arbitrary()?;
    run(&file, &keys, wide);
    Ok(())
}

/// Runs `keys` on `file` (see [`befview_keys`]).
pub fn run(file: &[u8], keys: &[u8], wide: bool) {
    let Ok(loaded) = Loaded::from_bytes(Path::new("fuzz.bef"), file) else {
        return;
    };
    let Ok(doc) = Document::new(&loaded) else {
        return;
    };
    doc.analysis();
    let mut app = App::new(&doc);
    let (width, height) = if wide { (200, 60) } else { (80, 24) };
    if let Err(problem) = simulate::run(&mut app, keys, width, height) {
        panic!("{problem}");
    }
}
