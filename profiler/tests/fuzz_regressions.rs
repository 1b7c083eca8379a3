//! Hostile recordings through every `bef-trace` command that reads one:
//! the small ones checked in under `corpus/fuzz/trace_read/`
//! (`hostile_<shape>.beftrace`, one per shape of `common/hostile.rs`, also
//! seeds of the `trace_read` fuzz target) and the same shapes at about
//! 200 KB, generated here. Each run must end by itself with status 0
//! within time, peak memory ([`MEMORY_PER_BYTE`] × the recording +
//! [`MEMORY_BASE`]) and output bounds, print no raw control character,
//! write SVGs that are well-formed XML and JSON that parses, and leave its
//! input as it was. Then what the commands must refuse, with status 1 and
//! one message, without touching an input: outputs that name an input,
//! FIFOs and devices as inputs, a full disk as output.

#![cfg(unix)]

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bef_trace::{MEMORY_BASE, MEMORY_PER_BYTE};
use common::hostile::{self, Shape};
use common::measured::{self, Measured, raw_controls, well_formed_xml};

/// The scale of the checked-in recordings (1 to 5 KB each).
const CHECKED_IN_SCALE: usize = 120;
/// The scale of the generated ones (about 200 KB).
const GENERATED_SCALE: usize = 8_000;
/// Longer than any of these runs takes in a debug build on a loaded
/// machine; the blow-ups they guard against took minutes or never ended.
const TIMEOUT: Duration = Duration::from_secs(60);
/// Output of one command per byte of its recording, and beyond.
const OUTPUT_PER_BYTE: u64 = 200;
const OUTPUT_BASE: u64 = 64 << 20;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bef-trace-hostile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn checked_in(shape: Shape) -> PathBuf {
    common::repo_root()
        .join("corpus/fuzz/trace_read")
        .join(format!("hostile_{}.beftrace", shape.name()))
}

/// The checked-in recordings are what the generator makes (`BLESS=1`
/// writes them again).
#[test]
fn the_checked_in_hostile_recordings_are_the_generators() {
    let bless = std::env::var_os("BLESS").is_some();
    for shape in Shape::ALL {
        let path = checked_in(shape);
        let made = bef_trace::write(&hostile::recording(shape, CHECKED_IN_SCALE));
        if bless {
            std::fs::write(&path, &made).expect("written");
        }
        let file = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (BLESS=1 writes it)", path.display()));
        assert!(
            file == made,
            "{} differs from the generator's (BLESS=1)",
            path.display()
        );
        assert!(
            made.len() < 8 << 10,
            "{}: {} bytes",
            path.display(),
            made.len()
        );
    }
}

/// The commands that read a recording: arguments with `IN` for the
/// recording and `OUT/` for the output directory, and the files written.
const COMMANDS: &[(&[&str], &[&str])] = &[
    (&["stats", "IN"], &[]),
    (&["stats", "--json", "IN"], &[]),
    (&["critical-path", "--what-if-workers", "2", "IN"], &[]),
    (&["critical-path", "--json", "IN"], &[]),
    (&["folded", "IN"], &[]),
    (
        &[
            "folded",
            "--clock",
            "wall",
            "--per-thread",
            "--flamechart",
            "IN",
            "-o",
            "OUT/f.folded",
        ],
        &["f.folded"],
    ),
    (&["flamegraph", "IN", "-o", "OUT/a.svg"], &["a.svg"]),
    (
        &[
            "flamegraph",
            "--clock",
            "wall",
            "--flamechart",
            "--inverted",
            "--title",
            "\u{1b}]0;title\u{7}\u{fffe}",
            "IN",
            "-o",
            "OUT/b.svg",
        ],
        &["b.svg"],
    ),
    (&["perfetto", "IN", "-o", "OUT/p.pftrace"], &["p.pftrace"]),
    (&["chrome-json", "IN", "-o", "OUT/c.json"], &["c.json"]),
    (&["pprof", "IN", "-o", "OUT/p.pb.gz"], &["p.pb.gz"]),
    (
        &[
            "diff",
            "IN",
            "IN",
            "-o",
            "OUT/d.svg",
            "--folded",
            "OUT/d.folded",
        ],
        &["d.svg", "d.folded"],
    ),
];

/// What is wrong with a pprof profile's bytes: not gzip, or not a
/// `Profile` message.
fn pprof_problem(bytes: &[u8]) -> Option<String> {
    use prost::Message;
    use std::io::Read;
    let mut raw = Vec::new();
    if let Err(e) = flate2::read::GzDecoder::new(bytes).read_to_end(&mut raw) {
        return Some(format!("gzip: {e}"));
    }
    bef_trace::export::pprof::proto::Profile::decode(raw.as_slice())
        .err()
        .map(|e| e.to_string())
}

/// Runs every command on `recording`; the problems found.
fn replay(recording: &Path, out: &Path) -> Vec<String> {
    let before = std::fs::read(recording).expect("the recording");
    let size = before.len() as u64;
    let memory = MEMORY_PER_BYTE as u64 * size + MEMORY_BASE as u64;
    let output_bound = OUTPUT_PER_BYTE * size + OUTPUT_BASE;
    let mut problems = Vec::new();
    for (template, files) in COMMANDS {
        let args: Vec<PathBuf> = template
            .iter()
            .map(|a| match *a {
                "IN" => recording.to_path_buf(),
                _ => match a.strip_prefix("OUT/") {
                    Some(name) => out.join(name),
                    None => PathBuf::from(a),
                },
            })
            .collect();
        let args: Vec<&OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let what = format!(
            "bef-trace {} on {}",
            template.join(" "),
            recording.display()
        );
        let m = measured::run(measured::bef_trace(&args), None, TIMEOUT);
        let mut written = (m.output.stdout.len() + m.output.stderr.len()) as u64;
        if m.killed {
            problems.push(format!("{what}: ran past {TIMEOUT:?}"));
            continue;
        }
        if m.output.status.code() != Some(0) {
            problems.push(format!(
                "{what}: {:?}: {}",
                m.output.status,
                String::from_utf8_lossy(&m.output.stderr)
            ));
            continue;
        }
        if m.max_rss > memory {
            problems.push(format!(
                "{what}: {} bytes of memory, bound {memory}",
                m.max_rss
            ));
        }
        let shown = format!(
            "{}{}",
            String::from_utf8_lossy(&m.output.stdout),
            String::from_utf8_lossy(&m.output.stderr)
        );
        let raw = raw_controls(&shown);
        if !raw.is_empty() {
            problems.push(format!("{what}: raw {raw:?} in its output"));
        }
        if template.contains(&"--json")
            && let Err(e) = serde_json::from_slice::<serde_json::Value>(&m.output.stdout)
        {
            problems.push(format!("{what}: JSON: {e}"));
        }
        for file in *files {
            let path = out.join(file);
            let Ok(bytes) = std::fs::read(&path) else {
                problems.push(format!("{what}: {file} not written"));
                continue;
            };
            written += bytes.len() as u64;
            let problem = match Path::new(file).extension().and_then(OsStr::to_str) {
                Some("svg") => well_formed_xml(&bytes).err(),
                Some("json") => serde_json::from_slice::<serde_json::Value>(&bytes)
                    .err()
                    .map(|e| e.to_string()),
                Some("gz") => pprof_problem(&bytes),
                Some("folded") => {
                    let raw = raw_controls(&String::from_utf8_lossy(&bytes));
                    (!raw.is_empty()).then(|| format!("raw {raw:?}"))
                }
                _ => <perfetto_protos::trace::Trace as protobuf::Message>::parse_from_bytes(&bytes)
                    .err()
                    .map(|e| e.to_string()),
            };
            if let Some(problem) = problem {
                problems.push(format!("{what}: {file}: {problem}"));
            }
            let _ = std::fs::remove_file(&path);
        }
        if written > output_bound {
            problems.push(format!(
                "{what}: {written} bytes written, bound {output_bound}"
            ));
        }
    }
    if std::fs::read(recording).ok().as_ref() != Some(&before) {
        problems.push(format!("{} changed", recording.display()));
    }
    problems
}

#[test]
fn hostile_recordings_through_every_command_within_bounds() {
    let dir = scratch("replay");
    let mut problems = Vec::new();
    for shape in Shape::ALL {
        problems.extend(replay(&checked_in(shape), &dir));
        let generated = dir.join(format!("{}.beftrace", shape.name()));
        let bytes = bef_trace::write(&hostile::recording(shape, GENERATED_SCALE));
        std::fs::write(&generated, bytes).expect("written");
        problems.extend(replay(&generated, &dir));
        let _ = std::fs::remove_file(&generated);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Runs `bef-trace args` in `dir` (with standard output `stdout` if given)
/// and checks that it is refused: status `status`, a single line on
/// standard error containing `message`, no panic, within the timeout.
fn refused(dir: &Path, args: &[&str], stdout: Option<std::fs::File>, status: i32, message: &str) {
    let mut command = measured::bef_trace(&args.iter().map(OsStr::new).collect::<Vec<_>>());
    command.current_dir(dir);
    let m: Measured = measured::run(command, stdout, TIMEOUT);
    let what = format!("bef-trace {}", args.join(" "));
    let stderr = String::from_utf8_lossy(&m.output.stderr);
    assert!(!m.killed, "{what}: ran past {TIMEOUT:?}");
    assert_eq!(m.output.status.code(), Some(status), "{what}: {stderr}");
    assert!(
        stderr.contains(message),
        "{what}: no {message:?} in {stderr}"
    );
    let lines = stderr.lines().count();
    if status == 1 {
        assert_eq!(lines, 1, "{what}: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert!(raw_controls(&stderr).is_empty(), "{what}: {stderr}");
}

/// A copy of `corpus/<relative>` in `dir`, and its bytes.
fn copy(relative: &str, dir: &Path, name: &str) -> (PathBuf, Vec<u8>) {
    let bytes = std::fs::read(common::corpus_path(relative)).expect("corpus file");
    let path = dir.join(name);
    std::fs::write(&path, &bytes).expect("copied");
    (path, bytes)
}

fn mkfifo(path: &Path) {
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("no NUL");
    // SAFETY: `name` is a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo");
}

#[test]
fn no_output_may_be_an_input() {
    let dir = scratch("same-file");
    let (_, recording) = copy(
        "fuzz/trace_read/hostile_odd_names.beftrace",
        &dir,
        "r.beftrace",
    );
    let (_, program) = copy("trace/errors.mlir", &dir, "p.mlir");
    std::os::unix::fs::symlink("r.beftrace", dir.join("link.beftrace")).expect("a link");
    std::os::unix::fs::symlink("p.mlir", dir.join("link.mlir")).expect("a link");
    let up = format!(
        "../{}/r.beftrace",
        dir.file_name().and_then(OsStr::to_str).expect("UTF-8")
    );
    for out in ["r.beftrace", "./r.beftrace", up.as_str(), "link.beftrace"] {
        for args in [
            vec!["flamegraph", "r.beftrace", "-o", out],
            vec!["perfetto", "r.beftrace", "-o", out],
            vec!["chrome-json", "r.beftrace", "-o", out],
            vec!["pprof", "r.beftrace", "-o", out],
            vec!["folded", "r.beftrace", "-o", out],
            vec!["diff", "p.beftrace", "r.beftrace", "-o", out],
            vec![
                "diff",
                "r.beftrace",
                "r.beftrace",
                "-o",
                "d.svg",
                "--folded",
                out,
            ],
        ] {
            // `p.beftrace` does not exist: the output is refused first.
            refused(&dir, &args, None, 1, "give another name");
        }
    }
    for out in ["p.mlir", "./p.mlir", "link.mlir"] {
        for args in [
            vec!["record", "p.mlir", "-o", out],
            vec!["run", "p.mlir", "-o", out],
            vec!["run", "p.mlir", "--flamegraph", out],
            vec!["run", "p.mlir", "--folded", out],
            vec!["run", "p.mlir", "--perfetto", out],
            vec!["run", "p.mlir", "--chrome-json", out],
            vec!["run", "p.mlir", "--pprof", out],
        ] {
            refused(&dir, &args, None, 1, "give another name");
        }
    }
    refused(
        &dir,
        &["flamegraph", "r.beftrace", "-o", "."],
        None,
        1,
        "is a directory",
    );
    assert_eq!(std::fs::read(dir.join("r.beftrace")).unwrap(), recording);
    assert_eq!(std::fs::read(dir.join("p.mlir")).unwrap(), program);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 4, "no half outputs left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fifos_devices_and_full_disks_are_clean_errors() {
    let dir = scratch("special");
    copy(
        "fuzz/trace_read/hostile_odd_names.beftrace",
        &dir,
        "r.beftrace",
    );
    mkfifo(&dir.join("fifo.beftrace"));
    mkfifo(&dir.join("fifo.mlir"));
    for recording in ["fifo.beftrace", "/dev/zero"] {
        let kind = if recording.starts_with("/dev") {
            "/dev/zero is a system file"
        } else {
            "is a FIFO"
        };
        for args in [
            vec!["stats", recording],
            vec!["critical-path", recording],
            vec!["folded", recording],
            vec!["flamegraph", recording, "-o", "x.svg"],
            vec!["perfetto", recording, "-o", "x.pftrace"],
            vec!["chrome-json", recording, "-o", "x.json"],
            vec!["pprof", recording, "-o", "x.pb.gz"],
            vec!["diff", "r.beftrace", recording, "-o", "x.svg"],
        ] {
            refused(&dir, &args, None, 1, kind);
        }
    }
    for args in [
        vec!["run", "fifo.mlir", "--stats"],
        vec!["record", "fifo.mlir", "-o", "x.beftrace"],
        vec!["run", "/dev/zero"],
    ] {
        refused(&dir, &args, None, 1, "bef-trace reads regular files");
    }
    for args in [
        vec!["stats", "r.beftrace"],
        vec!["stats", "--json", "r.beftrace"],
        vec!["critical-path", "r.beftrace"],
        vec!["critical-path", "--json", "r.beftrace"],
        vec!["folded", "r.beftrace"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        refused(
            &dir,
            &args,
            Some(full),
            1,
            "cannot write to standard output",
        );
    }
    refused(
        &dir,
        &["flamegraph", "r.beftrace", "-o", "/dev/full"],
        None,
        1,
        "cannot write /dev/full",
    );
    refused(
        &dir,
        &[
            "record",
            "../p.mlir",
            "--max-events",
            "18446744073709551615",
            "-o",
            "x",
        ],
        None,
        2,
        "give 1 to 1073741824",
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 3, "nothing written: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program whose function and kernel names are terminal control
/// sequences, recorded and exported: nothing raw reaches the terminal, and
/// the folded stacks and flame graph hold none either.
#[test]
fn names_with_terminal_escapes_are_shown_escaped() {
    let dir = scratch("escapes");
    let (program, _) = copy(
        "fuzz/regressions/names_with_terminal_escapes_run.mlir",
        &dir,
        "p.mlir",
    );
    let svg = dir.join("p.svg");
    let folded = dir.join("p.folded");
    let recording = dir.join("p.beftrace");
    let args: Vec<&OsStr> = [
        OsStr::new("run"),
        program.as_os_str(),
        OsStr::new("--values"),
        OsStr::new("--stats"),
        OsStr::new("--critical-path"),
        OsStr::new("--flamegraph"),
        svg.as_os_str(),
        OsStr::new("--folded"),
        folded.as_os_str(),
        OsStr::new("-o"),
        recording.as_os_str(),
    ]
    .to_vec();
    let m = measured::run(measured::bef_trace(&args), None, TIMEOUT);
    let shown = format!(
        "{}{}",
        String::from_utf8_lossy(&m.output.stdout),
        String::from_utf8_lossy(&m.output.stderr)
    );
    // `@fails` returns an error value: the run fails, its outputs written.
    assert_eq!(m.output.status.code(), Some(1), "{shown}");
    assert!(shown.contains("note: @fails\\u{1b}[2J failed"), "{shown}");
    assert!(raw_controls(&shown).is_empty(), "{shown}");
    assert!(
        shown.contains("\\u{1b}"),
        "the names are shown, escaped: {shown}"
    );
    well_formed_xml(&std::fs::read(&svg).expect("the SVG")).expect("well-formed");
    let folded = std::fs::read_to_string(&folded).expect("folded");
    assert!(raw_controls(&folded).is_empty(), "{folded}");
    for command in ["stats", "critical-path", "folded"] {
        let args = [OsStr::new(command), recording.as_os_str()];
        let m = measured::run(measured::bef_trace(&args), None, TIMEOUT);
        let shown = String::from_utf8_lossy(&m.output.stdout);
        assert_eq!(m.output.status.code(), Some(0));
        assert!(raw_controls(&shown).is_empty(), "{command}: {shown}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
