//! The command line: `--dump` output, `--help`, and the exit statuses (1 a
//! bad file, 2 a usage error), without a terminal.

mod common;

use std::process::{Command, Output};

fn befview(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(args)
        .current_dir(common::corpus(""))
        .output()
        .expect("befview runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn dump_functions_shows_kernels_attributes_and_registers() {
    let out = befview(&["--dump", "functions", "befview/inspect.mlir"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    for expected in [
        "== @main kernels",
        "tfrt_test.report_error_sync",
        "message = \"befview says hello\"",
        "value = 129 : i32",
        "@add",
        "== @main registers",
        "3 tfrt.constant.i32",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn dump_source_pairs_kernels_with_their_lines() {
    let out = befview(&["--dump", "source", "befview/inspect.mlir"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("@add kernel 1 tfrt.add.i32  line 26: %z = tfrt.add.i32 %x, %y"),
        "{text}"
    );
    assert!(
        text.contains("callsite(\"inner\" at model.py:3:1)"),
        "{text}"
    );
}

#[test]
fn dump_marks_findings_of_a_damaged_file_at_their_offsets() {
    let out = befview(&["--dump", "sections", "cli/truncated.bef"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("! 5  5   Functions (cut)"), "{text}");
    assert!(text.contains("0x34    decoder"), "{text}");
}

#[test]
fn dump_hex_and_help() {
    let out = befview(&["--dump", "hex", "bef/add_i32.bef"]);
    assert!(out.status.success());
    assert!(stdout(&out).starts_with("00000000: 0b ef"));
    let out = befview(&["--dump", "help", "bef/add_i32.bef"]);
    assert!(stdout(&out).contains("copy the selected value"));
}

#[test]
fn help_explains_views_and_keys() {
    let out = befview(&["--help"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for expected in [
        "--dump VIEW FILE",
        "Sections",
        "Hex",
        "attributes",
        "Ctrl-d",
        "quit",
    ] {
        assert!(text.contains(expected), "missing {expected:?}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["--dump"][..],
        &["--dump", "nonsense", "bef/add_i32.bef"][..],
        &["--frobnicate"][..],
        &["a.bef", "b.bef", "c.bef"][..],
        &["--dump", "compare", "a.bef"][..],
    ] {
        let out = befview(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("befview:"));
    }
}

#[test]
fn bad_files_exit_1_with_the_reason() {
    let out = befview(&["--dump", "sections", "no/such/file.bef"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
    let out = befview(&["--dump", "sections", "cli/random.bin"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let out = befview(&["--dump", "sections", "mlir/errors/syntax_errors.mlir"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("error"));
}

#[test]
fn mlir_bytecode_opens_with_its_source_found_by_location() {
    let path = common::corpus("befview/inspect.mlir");
    let text = std::fs::read_to_string(&path).expect("readable");
    // Locations name the file as the tests' working directory sees it.
    let module = bef::text::parse_module(&text, "befview/inspect.mlir").expect("parses");
    let written = bef::bytecode::write(&module, &Default::default()).expect("writes");
    let dir = std::env::temp_dir().join(format!("befview-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("inspect.mlirbc");
    std::fs::write(&file, &written.bytes).expect("written");
    let out = befview(&["--dump", "source", file.to_str().expect("utf-8 path")]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert!(
        text.contains("@main kernel 5 tfrt.call  line 8: %sum = tfrt.call @add(%a, %b)"),
        "{text}"
    );
}

#[test]
fn dump_execution_of_a_recording_with_its_program_present_missing_and_changed() {
    let options = bef_trace::RecordOptions::default();
    let (mut recording, _) =
        bef_trace::record_file(&common::corpus("befview/execution.mlir"), &options, |_| {})
            .expect("the program records");
    let dir = std::env::temp_dir().join(format!("befview-cli-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("run.beftrace");
    let path = file.to_str().expect("utf-8 path");
    std::fs::write(&file, bef_trace::write(&recording)).expect("written");
    let present = befview(&["--dump", "execution", path]);
    recording.header.program_hash ^= 1;
    std::fs::write(&file, bef_trace::write(&recording)).expect("written");
    let changed = befview(&["--dump", "execution", path]);
    // Missing: named nowhere it can be found, and its text not kept.
    recording.header.program_path = "befview/no-such-program.mlir".into();
    recording.header.program_path_absolute = "/no/such/dir/no-such-program.mlir".into();
    recording.header.sources.clear();
    std::fs::write(&file, bef_trace::write(&recording)).expect("written");
    let missing = befview(&["--dump", "execution", path]);
    // The header says why the program is not shown, not an empty file's
    // size.
    let bytes = std::fs::read(&file).expect("read back");
    let (stand_in, _) =
        befview::model::execution::open_program(&file, &bytes, None).expect("opens");
    let size = stand_in.size_text();
    assert!(size.starts_with("not read: "), "{size}");
    assert!(size.contains("no-such-program.mlir"), "{size}");
    std::fs::write(&file, &bef_trace::write(&recording)[..20]).expect("written");
    let truncated = befview(&["--dump", "execution", path]);
    std::fs::remove_dir_all(&dir).ok();
    for out in [&present, &changed, &missing] {
        assert!(out.status.success(), "{out:?}");
        let text = stdout(out);
        assert!(text.contains("first error: #1 @main kernel"), "{text}");
        assert!(text.contains("k6 tfrt_test.fail"), "{text}");
    }
    assert!(
        !stdout(&present).contains("! program"),
        "{}",
        stdout(&present)
    );
    assert!(stdout(&changed).contains("has changed since it was recorded"));
    // Every place looked at is named, the absolute path first.
    let tried = format!(
        "program not read: /no/such/dir/no-such-program.mlir: no such file; \
         {}/befview/no-such-program.mlir: no such file; \
         befview/no-such-program.mlir: no such file",
        dir.display()
    );
    assert!(stdout(&missing).contains(&tried), "{}", stdout(&missing));
    assert!(!size.contains("not read: not read"), "{size}");
    assert!(stdout(&missing).contains(": showing the recording alone"));
    assert_eq!(truncated.status.code(), Some(1), "{truncated:?}");
    assert!(String::from_utf8_lossy(&truncated.stderr).contains("not a readable recording"));
}

/// Runs befview with `args` (any bytes) in `cwd`, failing the test if it
/// takes longer than 20 seconds (it must not wait on a FIFO).
fn befview_bounded(args: &[&std::ffi::OsStr], cwd: &std::path::Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("befview runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().expect("status").is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().ok();
            panic!("befview {args:?} did not finish in 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// A temporary directory for one test, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("befview-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

#[test]
fn files_that_are_not_regular_are_refused_at_once_naming_what_they_are() {
    let dir = TempDir::new("kinds");
    let fifo = dir.0.join("pipe.bef");
    let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("no NUL");
    // SAFETY: `c_path` is a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo");
    for (file, kind) in [
        (fifo.as_os_str(), "it is a FIFO"),
        (
            std::ffi::OsStr::new("/dev/zero"),
            "/dev/zero is a system file",
        ),
        (dir.0.as_os_str(), "it is a directory"),
    ] {
        for args in [
            vec![std::ffi::OsStr::new("--dump"), "functions".as_ref(), file],
            vec![file],
        ] {
            let out = befview_bounded(&args, &dir.0);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(kind), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "one message: {err}");
            assert!(out.stdout.is_empty(), "{args:?}");
        }
    }
}

#[test]
fn a_file_name_that_is_not_utf8_opens_and_is_shown_escaped() {
    use std::os::unix::ffi::OsStrExt;
    let dir = TempDir::new("names");
    let name = std::ffi::OsStr::from_bytes(b"add\xff\x1b]0;owned\x07.bef");
    std::fs::copy(common::corpus("bef/add_i32.bef"), dir.0.join(name)).expect("copied");
    let out = befview_bounded(&["--dump".as_ref(), "functions".as_ref(), name], &dir.0);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout(&out).contains("== @add kernels"), "{}", stdout(&out));
    let missing = std::ffi::OsStr::from_bytes(b"gone\xfe\x1b[2J.bef");
    for args in [
        vec!["--dump".as_ref(), "sections".as_ref(), missing],
        vec![missing],
    ] {
        let out = befview_bounded(&args, &dir.0);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot read gone"), "{err}");
        assert!(!out.stderr.contains(&0x1b), "raw ESC in {err:?}");
    }
    let view = std::ffi::OsStr::from_bytes(b"hex\xff\x1b[2J");
    let out = befview_bounded(&["--dump".as_ref(), view, name], &dir.0);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(!out.stderr.contains(&0x1b), "{out:?}");
}

#[test]
fn a_recording_without_its_program_opens_with_the_program_it_ran() {
    let options = bef_trace::RecordOptions {
        embed_program: false,
        ..Default::default()
    };
    let (recording, _) =
        bef_trace::record_file(&common::corpus("befview/execution.mlir"), &options, |_| {})
            .expect("the program records");
    assert!(recording.header.program_left_out && recording.functions.is_empty());
    let dir = TempDir::new("no-embed");
    let file = dir.0.join("run.beftrace");
    let path = file.to_str().expect("utf-8 path");
    std::fs::write(&file, bef_trace::write(&recording)).expect("written");
    // The program it names is there and is the one: shown with its names.
    let named = befview(&["--dump", "execution", path]);
    // A copy elsewhere, given: the same.
    let copy = dir.0.join("copy.mlir");
    std::fs::copy(common::corpus("befview/execution.mlir"), &copy).expect("copied");
    let copy = copy.to_str().expect("utf-8 path");
    let given = befview(&["--dump", "execution", path, "--program", copy]);
    for out in [&named, &given] {
        assert!(out.status.success(), "{out:?}");
        let text = stdout(out);
        assert!(text.contains("first error: #1 @main kernel"), "{text}");
        assert!(text.contains("k6 tfrt_test.fail"), "{text}");
    }
    let stderr = |out: &Output| String::from_utf8_lossy(&out.stderr).into_owned();
    // Another program given: refused, both named with their hashes.
    let hash = format!("{:016x}", recording.header.program_hash);
    let other = befview(&[
        "--dump",
        "execution",
        path,
        "--program",
        "befview/loop.mlir",
    ]);
    assert_eq!(other.status.code(), Some(1), "{other:?}");
    assert!(
        stderr(&other).contains("befview/loop.mlir is not the program the recording ran")
            && stderr(&other).contains("execution.mlir")
            && stderr(&other).contains(&hash),
        "{}",
        stderr(&other)
    );
    // The program it names gone, and none given: refused, asking for it.
    let mut moved = recording.clone();
    moved.header.program_path = "befview/no-such-program.mlir".into();
    std::fs::write(&file, bef_trace::write(&moved)).expect("written");
    let missing = befview(&["--dump", "execution", path]);
    assert_eq!(missing.status.code(), Some(1), "{missing:?}");
    assert!(
        stderr(&missing).contains("without its program (--no-embed)")
            && stderr(&missing).contains("no-such-program.mlir")
            && stderr(&missing).contains("--program FILE"),
        "{}",
        stderr(&missing)
    );
    // --program is for recordings, and takes a file.
    let out = befview(&["--dump", "sections", "befview/loop.mlir", "--program", copy]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = befview(&["--dump", "execution", path, "--program"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
