//! A recording sent elsewhere: copied alone into an empty directory, read
//! from another, its program's file gone. It keeps its program's source
//! text (unless recorded with `--no-source`), so `befview --dump source`
//! still shows the kernels' lines; without it, befview says every place
//! it looked for the program and why each failed, once.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("befview-sent-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Records `corpus/trace/errors.mlir` from a copy in a directory of its
/// own, given by its absolute path, then removes that copy; the
/// recording's bytes.
fn record_then_remove_program(dir: &Path, embed_source: bool) -> Vec<u8> {
    let program_dir = dir.join("program");
    std::fs::create_dir_all(&program_dir).expect("program directory");
    let program = program_dir.join("errors.mlir");
    std::fs::copy(common::corpus("trace/errors.mlir"), &program).expect("copied");
    let options = bef_trace::RecordOptions {
        embed_source,
        ..Default::default()
    };
    let (recording, _) = bef_trace::record_file(&program, &options, |_| {}).expect("records");
    std::fs::remove_dir_all(&program_dir).expect("program removed");
    bef_trace::write(&recording)
}

/// `befview --dump VIEW recording` run in `cwd`: its standard output and
/// error.
fn dump(view: &str, recording: &Path, cwd: &Path) -> (String, String) {
    let args = [
        OsStr::new("--dump"),
        OsStr::new(view),
        recording.as_os_str(),
    ];
    let m = common::befview_measured(&args, cwd, &[], Duration::from_secs(60));
    assert!(!m.killed, "befview ran too long");
    let stdout = String::from_utf8_lossy(&m.output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&m.output.stderr).into_owned();
    assert_eq!(m.output.status.code(), Some(0), "{stderr}");
    (stdout, stderr)
}

#[test]
fn a_recording_copied_alone_shows_its_kernels_source_lines() {
    let dir = scratch("embedded");
    let bytes = record_then_remove_program(&dir, true);
    let sent = dir.join("sent");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&sent).expect("sent");
    std::fs::create_dir_all(&elsewhere).expect("elsewhere");
    let recording = sent.join("errors.beftrace");
    std::fs::write(&recording, &bytes).expect("written");

    let (source, _) = dump("source", &recording, &elsewhere);
    for line in [
        r#"%bad = "tfrt_test.fail"() : () -> i32"#,
        "%x = tfrt.add.i32 %bad, %good",
        "%z = tfrt.add.i32 %good, %good",
    ] {
        assert!(source.contains(line), "no {line:?} in\n{source}");
    }
    assert!(!source.contains("No source text"), "{source}");
    // The program was opened from the recording: nothing says it is
    // missing or changed.
    let (execution, _) = dump("execution", &recording, &elsewhere);
    assert!(!execution.contains("not read"), "{execution}");
    assert!(!execution.contains("has changed"), "{execution}");
    assert!(execution.contains("stopped: completed"), "{execution}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_its_source_a_moved_recording_says_where_it_looked() {
    let dir = scratch("no-source");
    let bytes = record_then_remove_program(&dir, false);
    let recording = dir.join("errors.beftrace");
    std::fs::write(&recording, &bytes).expect("written");
    let header = bef_trace::codec::read_header(&bytes).expect("reads");
    assert!(header.sources.is_empty());
    let absolute = &header.program_path_absolute;
    assert!(absolute.ends_with("program/errors.mlir"), "{absolute}");

    let (execution, _) = dump("execution", &recording, &dir);
    assert!(
        execution.contains(&format!("program not read: {absolute}: no such file")),
        "{execution}"
    );
    assert!(!execution.contains("not read: not read"), "{execution}");
    let (sections, _) = dump("sections", &recording, &dir);
    assert!(!sections.contains("not read: not read"), "{sections}");
    let _ = std::fs::remove_dir_all(&dir);
}
