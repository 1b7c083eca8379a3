//! A recording written without its program's table (`--no-embed`) reads
//! back whole with the program it ran, and only with that program.

mod common;

use bef_trace::capture::program_file::{self, ProgramError, ProgramFile};
use bef_trace::capture::recording::{EventKind, Header};

/// The corpus program at `relative`, as the recording with `header` ran
/// it.
fn program(relative: &str, header: &Header) -> ProgramFile {
    let path = common::corpus_path(relative);
    let bytes = std::fs::read(&path).unwrap();
    ProgramFile::from_bytes(&bytes, &path.display().to_string(), &header.program_path).unwrap()
}

#[test]
fn a_recording_left_without_its_program_reads_back_whole_with_it() {
    let recording = common::record("trace/errors.mlir", "s");
    let embedded = bef_trace::read(&bef_trace::write(&recording)).unwrap();
    let bytes = bef_trace::capture::codec::write_with(&recording, false);
    let mut left_out = bef_trace::read(&bytes).unwrap();
    assert!(left_out.header.program_left_out && left_out.functions.is_empty());

    // Without the program it stays as it is, refused.
    let missing = program_file::attach(&mut left_out.clone(), None).unwrap_err();
    assert!(matches!(missing, ProgramError::Missing { .. }), "{missing}");

    // Another program is refused, both named with their hashes.
    let other = program("trace/sleeps.mlir", &left_out.header);
    let err = program_file::attach(&mut left_out.clone(), Some(&other)).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("sleeps.mlir")
            && message.contains("errors.mlir")
            && message.contains(&format!("{:016x}", other.hash()))
            && message.contains(&format!("{:016x}", recording.header.program_hash)),
        "{message}"
    );

    // The program it ran gives it the very table it would have had.
    let ran = program("trace/errors.mlir", &left_out.header);
    assert!(ran.matches(&left_out.header));
    program_file::attach(&mut left_out, Some(&ran)).unwrap();
    assert_eq!(left_out.functions, embedded.functions);
    assert_eq!(left_out.threads, embedded.threads);
    let mut embedded_with_program = embedded.clone();
    program_file::attach(&mut embedded_with_program, Some(&ran)).unwrap();
    assert_eq!(embedded_with_program, embedded, "a table in the file stays");
    let err = program_file::attach(&mut embedded.clone(), Some(&other)).unwrap_err();
    assert!(matches!(err, ProgramError::Mismatch { .. }), "{err}");
}

#[test]
fn events_naming_a_function_the_program_lacks_are_refused() {
    let mut recording = common::record("trace/errors.mlir", "s");
    recording.header.program_left_out = true;
    recording.functions.clear();
    let mut events = recording.threads[0].events.to_vec();
    let begin = events
        .iter_mut()
        .find(|e| matches!(e.kind, EventKind::FunctionBegin { .. }))
        .unwrap();
    begin.kind = EventKind::FunctionBegin {
        function: 1000,
        caller: None,
    };
    recording.threads[0].events = events.into();
    let mut read = bef_trace::read(&bef_trace::write(&recording)).unwrap();
    let ran = program("trace/errors.mlir", &read.header);
    let err = program_file::attach(&mut read, Some(&ran)).unwrap_err();
    assert!(
        matches!(err, ProgramError::NoSuchFunction { function: 1000, .. }),
        "{err}"
    );
    assert!(read.functions.is_empty());
}

#[test]
fn a_file_that_is_no_program_is_named() {
    let err = ProgramFile::from_bytes(b"func.func @f( {", "broken.mlir", "p.mlir").unwrap_err();
    assert!(
        matches!(&err, ProgramError::Unreadable { name, .. } if name == "broken.mlir"),
        "{err}"
    );
    let unknown = "func.func @f() {\n  \"no.such.kernel\"() : () -> ()\n  tfrt.return\n}\n";
    let err = ProgramFile::from_bytes(unknown.as_bytes(), "unknown.mlir", "p.mlir").unwrap_err();
    assert!(err.to_string().contains("no.such.kernel"), "{err}");
}

#[test]
fn the_same_program_elsewhere_is_the_same_program() {
    let recording = common::record("trace/errors.mlir", "s");
    let bytes = std::fs::read(common::corpus_path("trace/errors.mlir")).unwrap();
    // Translated under the name it was recorded as, a copy anywhere runs
    // as the same BEF bytes (MLIR locations carry the file's name).
    let copy = ProgramFile::from_bytes(
        &bytes,
        "/elsewhere/copy.mlir",
        &recording.header.program_path,
    )
    .unwrap();
    assert!(copy.matches(&recording.header));
    let renamed = ProgramFile::from_bytes(&bytes, "copy.mlir", "copy.mlir").unwrap();
    assert!(!renamed.matches(&recording.header));
    // One changed character is another program.
    let mut changed = bytes.clone();
    let at = changed.iter().position(|&b| b == b'1').unwrap();
    changed[at] = b'2';
    let changed =
        ProgramFile::from_bytes(&changed, "changed.mlir", &recording.header.program_path).unwrap();
    assert!(!changed.matches(&recording.header));
}
