//! The hostile inputs of `corpus/fuzz/befview/`, replayed through
//! `befview --dump` for every view: programs whose locations name files a
//! viewer must not show, names that are terminal control sequences, and
//! recordings naming such files as their program. Each is replayed as
//! checked in and in the forms befview looks named files up from (BEF and
//! MLIR bytecode, translated here), in a directory where the names lead to
//! a planted secret, links to `/proc/self/environ` and `/dev/zero`, and a
//! FIFO. Every run must end within time, peak memory (64 × the input's
//! size + 64 MiB) and output bounds, with no byte of a file the policy
//! excludes and no raw control character in its output, with the expected
//! exit status, and without changing its input.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use befview::dump::VIEWS;
use common::{Measured, befview_measured, unsafe_character};

const MIB: u64 = 1 << 20;
const TIMEOUT: Duration = Duration::from_secs(60);

/// Planted in `secret.txt`, which locations name but the policy excludes
/// (not a `.mlir` file), and reached through `secret_link.mlir`.
const FILE_SECRET: &str = "befview-planted-file-secret-5f1c";
/// In befview's environment, so in `/proc/self/environ`.
const ENV_SECRET: &str = "befview-planted-environment-secret-9a7e";

/// A directory holding the inputs and the files their names lead to.
struct Scene {
    dir: PathBuf,
}

impl Scene {
    fn new(test: &str) -> Scene {
        let dir =
            std::env::temp_dir().join(format!("befview-hostile-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        std::fs::write(dir.join("secret.txt"), format!("{FILE_SECRET}\n")).expect("secret");
        for (link, target) in [
            ("environ_link.mlir", Path::new("/proc/self/environ")),
            ("secret_link.mlir", Path::new("secret.txt")),
            ("zero_link.mlir", Path::new("/dev/zero")),
        ] {
            std::os::unix::fs::symlink(target, dir.join(link)).expect("a link");
        }
        let fifo = std::ffi::CString::new(dir.join("pipe.mlir").as_os_str().as_encoded_bytes())
            .expect("no NUL");
        // SAFETY: `fifo` is a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0, "mkfifo");
        Scene { dir }
    }

    /// Copies corpus file `name` into the scene; its path there.
    fn copy(&self, name: &str) -> PathBuf {
        let to = self
            .dir
            .join(Path::new(name).file_name().expect("a file name"));
        std::fs::copy(common::corpus(name), &to).expect("copied");
        to
    }

    /// Writes `bytes` as `name` in the scene; its path there.
    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let to = self.dir.join(name);
        std::fs::write(&to, bytes).expect("written");
        to
    }
}

impl Drop for Scene {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Corpus MLIR file `name` as BEF and as MLIR bytecode, its locations
/// naming files by the names it uses.
fn translations(name: &str) -> (Vec<u8>, Vec<u8>) {
    let text = std::fs::read_to_string(common::corpus(name)).expect("corpus text");
    let file_name = Path::new(name)
        .file_name()
        .and_then(OsStr::to_str)
        .expect("name");
    let module = bef::text::parse_module(&text, file_name).expect("parses");
    let bef = bef::translate::mlir_to_bef(
        &module,
        bef::translate::TranslateOptions {
            optional_sections: true,
        },
    )
    .expect("translates");
    let bytecode = bef::bytecode::write(&module, &Default::default()).expect("writes bytecode");
    (bef, bytecode.bytes)
}

/// Lines of `/etc/passwd` long enough not to match by chance.
fn passwd_lines() -> Vec<String> {
    std::fs::read_to_string("/etc/passwd")
        .unwrap_or_default()
        .lines()
        .filter(|l| l.len() >= 12)
        .map(str::to_owned)
        .collect()
}

/// Runs `befview --dump VIEW file` for every view and checks the bounds
/// and what no output may hold; returns the outputs by view.
fn replay(scene: &Scene, file: &Path, status: i32) -> Vec<(&'static str, Measured)> {
    // A FIFO or a device is not read here either.
    let before = std::fs::metadata(file)
        .is_ok_and(|m| m.is_file())
        .then(|| std::fs::read(file).expect("input readable"));
    let size = before.as_ref().map_or(0, |b| b.len() as u64);
    let memory = 64 * size + 64 * MIB;
    let most_output = 64 * size + 64 * 1024;
    let passwd = passwd_lines();
    let mut runs = Vec::new();
    let mut failures = Vec::new();
    for (view, _) in VIEWS {
        let args = [OsStr::new("--dump"), OsStr::new(view), file.as_os_str()];
        let m = befview_measured(
            &args,
            &scene.dir,
            &[("BEFVIEW_TEST_SECRET", ENV_SECRET)],
            TIMEOUT,
        );
        let mut problems = Vec::new();
        if m.killed {
            problems.push(format!("ran past {TIMEOUT:?}"));
        }
        if m.output.status.code() != Some(status) {
            problems.push(format!("exit {:?}, expected {status}", m.output.status));
        }
        if m.max_rss > memory {
            problems.push(format!("{} bytes of memory, bound {memory}", m.max_rss));
        }
        let output = (m.output.stdout.len() + m.output.stderr.len()) as u64;
        if output > most_output {
            problems.push(format!("{output} bytes of output, bound {most_output}"));
        }
        for (stream, bytes) in [("stdout", &m.output.stdout), ("stderr", &m.output.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            for secret in [FILE_SECRET, ENV_SECRET]
                .iter()
                .copied()
                .chain(passwd.iter().map(String::as_str))
            {
                if text.contains(secret) {
                    problems.push(format!("{stream} shows {secret:?}"));
                }
            }
            if let Some((at, what)) = unsafe_character(bytes) {
                problems.push(format!("{stream} has {what} at byte {at}"));
            }
        }
        if status != 0 {
            let err = String::from_utf8_lossy(&m.output.stderr);
            if err.lines().count() != 1 || !m.output.stdout.is_empty() {
                problems.push(format!("not one message: {err:?}"));
            }
        }
        if !problems.is_empty() {
            failures.push(format!("--dump {view}: {}", problems.join("; ")));
        }
        runs.push((*view, m));
    }
    if let Some(before) = before
        && std::fs::read(file).ok() != Some(before)
    {
        failures.push("the input changed".to_owned());
    }
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        file.display(),
        failures.join("\n")
    );
    runs
}

/// The stdout of view `view` among `runs`.
fn stdout_of(runs: &[(&str, Measured)], view: &str) -> String {
    let (_, m) = runs.iter().find(|(v, _)| *v == view).expect("view run");
    String::from_utf8_lossy(&m.output.stdout).into_owned()
}

#[test]
fn locations_naming_system_files_links_and_fifos_are_not_read() {
    let scene = Scene::new("locations");
    let name = "fuzz/befview/locations_name_system_files.mlir";
    let (bef, bytecode) = translations(name);
    let bef = scene.write("locations.bef", &bef);
    let bytecode = scene.write("locations.mlirbc", &bytecode);
    for file in [&bef, &bytecode] {
        let runs = replay(&scene, file, 0);
        let source = stdout_of(&runs, "source");
        assert!(
            source.contains("No source text: the files the locations name were not read"),
            "{source}"
        );
        for refused in [
            "not read: /etc/passwd: not a .mlir file",
            "not read: /proc/self/environ: not a .mlir file",
            "not read: /dev/zero: not a .mlir file",
            "not read: environ_link.mlir: /proc/",
            "not read: secret.txt: not a .mlir file",
            "not read: secret_link.mlir: links to ",
            "not read: zero_link.mlir: /dev/zero is a system file",
            "not read: pipe.mlir: a FIFO, not a regular file",
        ] {
            assert!(source.contains(refused), "no {refused:?} in\n{source}");
        }
    }
    // As MLIR text the program is its own source, in which no location
    // points: no line is shown, and nothing else is read.
    let text = scene.copy(name);
    let runs = replay(&scene, &text, 0);
    let source = stdout_of(&runs, "source");
    assert!(
        source.contains("@main kernel 1 tfrt.new.chain  line -: \n"),
        "{source}"
    );
}

#[test]
fn names_that_are_terminal_sequences_are_shown_escaped() {
    let scene = Scene::new("names");
    let name = "fuzz/befview/names_with_terminal_escapes.mlir";
    let (bef, bytecode) = translations(name);
    let text = scene.copy(name);
    let bef = scene.write("names.bef", &bef);
    let bytecode = scene.write("names.mlirbc", &bytecode);
    for file in [&text, &bef, &bytecode] {
        let runs = replay(&scene, file, 0);
        let functions = stdout_of(&runs, "functions");
        assert!(
            functions.contains(r"@title\u{1b}]0;OWNED-TITLE\u{7}"),
            "{functions}"
        );
        assert!(
            functions.contains(r"@\u{1b}]52;c;T1dORUQ=\u{7}"),
            "{functions}"
        );
        let locations = stdout_of(&runs, "locations");
        assert!(locations.contains(r"\u{202e}evil.mlir"), "{locations}");
        assert!(locations.contains(r#""bell\u{7}\r""#), "{locations}");
    }
}

/// A recording of befview's execution test program whose names, values
/// and header are made to carry control sequences, naming `program` as its
/// program.
fn hostile_recording(program: &str) -> Vec<u8> {
    let options = bef_trace::RecordOptions {
        work_queue: "s".into(),
        recorder: bef_trace::RecorderOptions {
            values: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let source = common::corpus("befview/execution.mlir");
    let (mut recording, _) = bef_trace::record_file(&source, &options, |_| {}).expect("records");
    let osc = "\u{1b}]0;REC-TITLE\u{7}\u{1b}]52;c;T1dORUQ=\u{7}\r\u{9b}2J";
    recording.header.program_path = program.to_owned();
    // Found nowhere else: not where it was recorded, nor in the text the
    // recording keeps (kept under the name it was recorded by), which
    // carries control sequences too.
    recording.header.program_path_absolute.clear();
    for source in &mut recording.header.sources {
        source.name.push_str(osc);
        source.text = source.text.replace('\n', &format!("{osc}\n"));
    }
    recording.header.work_queue.push_str(osc);
    recording.header.clock.push_str(osc);
    for function in &mut recording.functions {
        function.name.push_str(osc);
        for (k, kernel) in function.kernels.iter_mut().enumerate() {
            kernel.name.push_str(osc);
            // Not the path the corpus happens to be at.
            kernel.location = format!("\"execution.mlir\":{k}:1{osc}");
        }
    }
    for (i, thread) in recording.threads.iter_mut().enumerate() {
        // Named by the test harness's thread otherwise.
        thread.name = format!("thread-{i}{osc}");
        let mut events = thread.events.to_vec();
        for event in &mut events {
            if let bef_trace::recording::EventKind::RegisterSet { value, .. } = &mut event.kind {
                value
                    .get_or_insert_with(Default::default)
                    .text
                    .push_str(osc);
            }
        }
        thread.events = events.into();
    }
    bef_trace::write(&recording)
}

#[test]
fn recordings_naming_what_must_not_be_read_show_the_recording_alone() {
    let scene = Scene::new("recordings");
    let checked_in = scene.copy("fuzz/befview/recording_names_dev_zero.beftrace");
    let header = bef_trace::read(&std::fs::read(&checked_in).expect("readable"))
        .expect("the checked-in recording reads")
        .header;
    assert_eq!(header.program_path, "/dev/zero");
    let runs = replay(&scene, &checked_in, 0);
    let execution = stdout_of(&runs, "execution");
    assert!(
        execution.contains("program not read: /dev/zero: not a .mlir, .mlirbc, .bef file"),
        "{execution}"
    );
    for (program, reason) in [
        (
            "/dev/zero",
            "not read: /dev/zero: not a .mlir, .mlirbc, .bef file",
        ),
        (
            "/etc/passwd",
            "not read: /etc/passwd: not a .mlir, .mlirbc, .bef file",
        ),
        (
            "/proc/self/environ",
            "not read: /proc/self/environ: not a .mlir",
        ),
        ("environ_link.mlir", "/environ_link.mlir: /proc/"),
        (
            "zero_link.mlir",
            "/zero_link.mlir: /dev/zero is a system file",
        ),
        ("secret_link.mlir", "/secret_link.mlir: links to "),
        ("pipe.mlir", "/pipe.mlir: a FIFO, not a regular file"),
        (
            "\u{1b}]0;PROGRAM-TITLE\u{7}.mlir",
            r"/\u{1b}]0;PROGRAM-TITLE\u{7}.mlir: ",
        ),
    ] {
        let file = scene.write("hostile.beftrace", &hostile_recording(program));
        let runs = replay(&scene, &file, 0);
        let execution = stdout_of(&runs, "execution");
        assert!(
            execution.contains(reason),
            "{program:?}: no {reason:?} in\n{execution}"
        );
        assert!(
            execution.contains(r"REC-TITLE\u{7}\u{1b}]52;c;"),
            "{execution}"
        );
    }
}

#[test]
fn inputs_that_are_not_regular_files_are_refused_with_one_message() {
    let scene = Scene::new("refused");
    for name in ["pipe.mlir", "zero_link.mlir"] {
        let runs = replay(&scene, &scene.dir.join(name), 1);
        for (_, m) in &runs {
            let err = String::from_utf8_lossy(&m.output.stderr);
            assert!(err.contains("and befview reads regular files"), "{err}");
        }
    }
}
