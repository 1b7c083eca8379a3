//! A recording written without its program's table (`--no-embed`) reads
//! back whole with the program it ran, and only with that program.

mod common;

use bef_trace::program_file::{self, ProgramError, ProgramFile};
use bef_trace::recording::EventKind;

fn program(relative: &str) -> ProgramFile {
    let path = common::corpus_path(relative);
    let bytes = std::fs::read(&path).unwrap();
    ProgramFile::from_bytes(&bytes, &path.display().to_string()).unwrap()
}

#[test]
fn a_recording_left_without_its_program_reads_back_whole_with_it() {
    let recording = common::record("trace/errors.mlir", "s");
    let embedded = bef_trace::read(&bef_trace::write(&recording)).unwrap();
    let bytes = bef_trace::codec::write_with(&recording, false);
    let mut left_out = bef_trace::read(&bytes).unwrap();
    assert!(left_out.header.program_left_out && left_out.functions.is_empty());

    // Without the program it stays as it is, refused.
    let missing = program_file::attach(&mut left_out.clone(), None).unwrap_err();
    assert!(matches!(missing, ProgramError::Missing { .. }), "{missing}");

    // Another program is refused, both named with their hashes.
    let other = program("trace/sleeps.mlir");
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
    let ran = program("trace/errors.mlir");
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
    let begin = recording.threads[0]
        .events
        .iter_mut()
        .find(|e| matches!(e.kind, EventKind::FunctionBegin { .. }))
        .unwrap();
    begin.kind = EventKind::FunctionBegin {
        function: 1000,
        caller: None,
    };
    let mut read = bef_trace::read(&bef_trace::write(&recording)).unwrap();
    let err = program_file::attach(&mut read, Some(&program("trace/errors.mlir"))).unwrap_err();
    assert!(
        matches!(err, ProgramError::NoSuchFunction { function: 1000, .. }),
        "{err}"
    );
    assert!(read.functions.is_empty());
}

#[test]
fn a_file_that_is_no_program_is_named() {
    let err = ProgramFile::from_bytes(b"func.func @f( {", "broken.mlir").unwrap_err();
    assert!(
        matches!(&err, ProgramError::Unreadable { name, .. } if name == "broken.mlir"),
        "{err}"
    );
    let unknown = "func.func @f() {\n  \"no.such.kernel\"() : () -> ()\n  tfrt.return\n}\n";
    let err = ProgramFile::from_bytes(unknown.as_bytes(), "unknown.mlir").unwrap_err();
    assert!(err.to_string().contains("no.such.kernel"), "{err}");
}
