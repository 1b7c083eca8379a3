//! The `bef` commands on files made to turn the tool against its user:
//! names that are terminal control sequences, locations naming files that
//! must not be shown, outputs that name an input. Each run must stay
//! within bounds on time, memory and output, print no raw control
//! character, show no byte of an excluded file, and leave its inputs as
//! they were.

#![cfg(unix)]

mod common;

use bef_test_support::terminal::raw_controls;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{corpus_path, measured, scratch_dir, text};

const TIMEOUT: Duration = Duration::from_secs(60);
const MIB: u64 = 1 << 20;
/// Planted in files and the environment that no output may show.
const FILE_SECRET: &str = "FILE-SECRET-7f3a";
const ENV_SECRET: &str = "ENV-SECRET-91c2";

/// Runs `bef args` in `dir` with a secret in its environment; checks the
/// bounds and the output, and returns (status, stdout + stderr).
fn run_checked(dir: &Path, args: &[&str], input_size: u64) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bef"));
    command
        .args(args)
        .current_dir(dir)
        .env("BEF_TEST_SECRET", ENV_SECRET);
    let m = measured(command, None, TIMEOUT);
    let output = format!("{}{}", text(&m.output.stdout), text(&m.output.stderr));
    let what = format!("bef {}", args.join(" "));
    assert!(!m.killed, "{what}: ran past {TIMEOUT:?}");
    let memory = 64 * input_size + 64 * MIB;
    assert!(
        m.max_rss <= memory,
        "{what}: {} bytes, bound {memory}",
        m.max_rss
    );
    assert!(
        output.len() <= 64 * 1024,
        "{what}: {} bytes of output",
        output.len()
    );
    let raw = raw_controls(&output);
    assert!(raw.is_empty(), "{what}: raw {raw:?} in\n{output}");
    for secret in [FILE_SECRET, ENV_SECRET, "root:x:0:0"] {
        assert!(
            !output.contains(secret),
            "{what}: {secret:?} shown in\n{output}"
        );
    }
    (m.output.status.code(), output)
}

/// `bef translate SOURCE -o DIR/NAME`, for a BEF file to run.
fn translate(source: &Path, dir: &Path, name: &str) -> PathBuf {
    let out = dir.join(name);
    let status = Command::new(env!("CARGO_BIN_EXE_bef"))
        .args(["translate", "-o"])
        .arg(&out)
        .arg(source)
        .status()
        .expect("bef runs");
    assert!(status.success(), "translating {}", source.display());
    out
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[test]
fn names_that_are_control_sequences_are_shown_escaped_by_every_command() {
    let dir = scratch_dir("hostile-names");
    // One whose kernels are unknown (it fails to load, naming them), one
    // that runs, prints and fails at run time.
    for (input, name) in [
        ("fuzz/befview/names_with_terminal_escapes.mlir", "names.bef"),
        (
            "fuzz/regressions/names_with_terminal_escapes_run.mlir",
            "runs.bef",
        ),
    ] {
        let source = corpus_path(input);
        let bef = translate(&source, &dir, name);
        let (source_text, bef_text) = (source.to_str().unwrap(), bef.to_str().unwrap());
        let before = std::fs::read(&bef).unwrap();
        let runs: &[&[&str]] = &[
            &["run", source_text],
            &["run", bef_text],
            &[
                "run",
                "--work-queue",
                "mstd:2",
                "--print-error-code",
                bef_text,
            ],
            &[
                "run",
                "--enable-tracing",
                "--tracing-level",
                "debug",
                bef_text,
            ],
            &["run", "--verify-diagnostics", source_text],
            &["dump", bef_text],
            &["dump", "--json", bef_text],
            &["verify", bef_text],
            &["translate", bef_text],
            &["opt", source_text],
            &[
                "opt",
                "--tfrt-print-stream",
                "--mlir-print-debuginfo",
                source_text,
            ],
        ];
        for args in runs {
            let (status, output) = run_checked(&dir, args, size(&bef).max(size(&source)));
            assert!(
                matches!(status, Some(0 | 1)),
                "bef {args:?}: {status:?}\n{output}"
            );
        }
        assert_eq!(
            std::fs::read(&bef).unwrap(),
            before,
            "the input is unchanged"
        );
    }
    let runs = dir.join("runs.bef");
    let (_, run) = run_checked(&dir, &["run", runs.to_str().unwrap()], size(&runs));
    for shown in [
        "--- Running 'title\\u{1b}]0;OWNED-TITLE\\u{7}':",
        "string = \\u{1b}]52;c;T1dORUQ=\\u{7} clip\\r\\u{9b}2J\\u{202e}",
        "x\\u{1b}c\\u{7}.mlir:12:3: error: runtime error: something bad happened",
    ] {
        assert!(run.contains(shown), "{shown} not in\n{run}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory holding what `locations_name_system_files.mlir` names.
fn planted_directory() -> PathBuf {
    let dir = scratch_dir("hostile-locations");
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, format!("{FILE_SECRET}\n")).unwrap();
    let link =
        |target: &Path, name: &str| std::os::unix::fs::symlink(target, dir.join(name)).unwrap();
    link(Path::new("/proc/self/environ"), "environ_link.mlir");
    link(&secret, "secret_link.mlir");
    link(Path::new("/dev/zero"), "zero_link.mlir");
    let fifo = std::ffi::CString::new(dir.join("pipe.mlir").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    dir
}

#[test]
fn files_that_locations_name_are_read_only_if_the_policy_allows() {
    let dir = planted_directory();
    let source = corpus_path("fuzz/befview/locations_name_system_files.mlir");
    let bef = translate(&source, &dir, "locations.bef");
    let bef_text = bef.to_str().unwrap();
    let mlir = dir.join("locations.mlir");
    std::fs::copy(&source, &mlir).unwrap();
    let mlir_text = mlir.to_str().unwrap();
    for args in [
        vec!["run", bef_text],
        vec!["run", "--work-queue", "mstd:2", bef_text],
        vec!["run", "--verify-diagnostics", bef_text],
        vec!["run", "--verify-diagnostics", mlir_text],
        vec!["dump", bef_text],
        vec!["translate", bef_text],
    ] {
        let (status, output) = run_checked(&dir, &args, size(&bef));
        assert!(
            matches!(status, Some(0 | 1)),
            "bef {args:?}: {status:?}\n{output}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_command_writes_over_its_input() {
    let dir = scratch_dir("hostile-outputs");
    let mlir = dir.join("p.mlir");
    std::fs::copy(corpus_path("mlir/basic_add_i32.mlir"), &mlir).unwrap();
    let original = std::fs::read(&mlir).unwrap();
    std::os::unix::fs::symlink(&mlir, dir.join("link.bef")).unwrap();
    std::fs::hard_link(&mlir, dir.join("hard.bef")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    for output in [
        "p.mlir",
        "./p.mlir",
        "sub/../p.mlir",
        "link.bef",
        "hard.bef",
    ] {
        for command in ["translate", "opt"] {
            let args = [command, "p.mlir", "-o", output];
            let (status, out) = run_checked(&dir, &args, original.len() as u64);
            assert_eq!(status, Some(2), "bef {args:?}:\n{out}");
            assert!(
                out.contains("is an input") || out.contains("is the input"),
                "{out}"
            );
            assert_eq!(std::fs::read(&mlir).unwrap(), original, "bef {args:?}");
        }
    }
    // A failed translation leaves no output behind, not even half a file.
    std::fs::write(dir.join("bad.mlir"), "func.func @f( {").unwrap();
    let (status, _) = run_checked(&dir, &["translate", "bad.mlir", "-o", "bad.bef"], 16);
    assert_eq!(status, Some(1));
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("bad.bef") || name.ends_with(".partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
