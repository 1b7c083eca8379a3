//! The inspector under random files and random keys: opening, the
//! whole-file analysis, and every event followed by a frame must not
//! panic, and the app's state must stay consistent.

use std::path::Path;

use arbitrary::Unstructured;
use bef::tool_io::named_files::{NotRead, Reason};
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

/// Runs `keys` on the Execution tab of recording `file` (its program
/// missing, as when the recording is opened alone).
fn run_recording(file: &[u8], keys: &[u8], wide: bool) {
    let Ok(mut trace) = befview::model::execution::Trace::read(Path::new("fuzz.beftrace"), file)
    else {
        return;
    };
    let missing = NotRead {
        path: trace.recording.header.program_path.clone().into(),
        reason: Reason::Io("No such file or directory".into()),
    };
    trace.check_program(Err(&missing));
    let empty = befview::model::document::empty_program();
    let Ok(loaded) = Loaded::from_bytes(Path::new("fuzz.bef"), &empty) else {
        return;
    };
    let Ok(doc) = Document::new(&loaded) else {
        return;
    };
    let mut app = App::with_trace(&doc, trace);
    let (width, height) = if wide { (200, 60) } else { (80, 24) };
    if let Err(problem) = simulate::run(&mut app, keys, width, height) {
        panic!("{problem}");
    }
}

/// Runs `keys` on `file` (see [`befview_keys`]).
pub fn run(file: &[u8], keys: &[u8], wide: bool) {
    if befview::model::execution::is_recording(file) {
        run_recording(file, keys, wide);
        return;
    }
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
