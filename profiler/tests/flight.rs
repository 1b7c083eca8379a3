//! The flight recorder: `record --keep last --window TIME` keeps the last
//! stretch of time of each thread, `--stop-on` ends the run at the first
//! kernel error or slow kernel keeping the window before it, and SIGUSR1
//! writes a snapshot without stopping the run. Each recording says why it
//! stopped, and what it kept still analyses (flows, the critical path).

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bef_trace::analysis::critical_path::{self, CriticalOptions};
use bef_trace::capture::recording::{EventKind, StopReason};
use bef_trace::{Model, Recording};

/// Far beyond what any of these runs takes (about 1.4 s each).
const PATIENCE: Duration = Duration::from_secs(120);

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bef-trace-flight-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn bef_trace(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bef-trace"))
        .args(args)
        .current_dir(common::repo_root())
        .output()
        .expect("bef-trace runs")
}

fn read(path: &Path) -> Recording {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bef_trace::read(&bytes).expect("the recording reads")
}

/// The first and last event times of `recording`, over every thread,
/// leaving out the begins of executions kept aside from before the window
/// (a `--keep last` recording keeps them, so that the executions still
/// running keep their function).
fn span(recording: &Recording) -> (u64, u64) {
    let times = recording
        .threads
        .iter()
        .flat_map(|t| &t.events)
        .filter(|e| !matches!(e.kind, EventKind::FunctionBegin { .. }))
        .map(|e| e.time);
    let first = times.clone().min().expect("events");
    (first, times.max().expect("events"))
}

/// How many times the loop's sleep started (kernel `name` of any
/// function).
fn starts_of(recording: &Recording, name: &str) -> usize {
    let mut functions = std::collections::HashMap::new();
    let mut count = 0;
    for thread in &recording.threads {
        for e in &thread.events {
            match e.kind {
                EventKind::FunctionBegin { function, .. } => {
                    functions.insert(e.execution, function);
                }
                EventKind::KernelStart { kernel } => {
                    let f = functions.get(&e.execution).copied();
                    if f.is_some_and(|f| recording.kernel_name(f, kernel) == name) {
                        count += 1;
                    }
                }
                _ => {}
            }
        }
    }
    count
}

#[test]
fn stopping_on_an_error_keeps_the_window_before_it() {
    let _serial = common::serial();
    let dir = scratch("error");
    let out = dir.join("error.beftrace");
    let started = Instant::now();
    let output = bef_trace(&[
        "record",
        "corpus/trace/flight_error.mlir",
        "--keep",
        "last",
        "--window",
        "100ms",
        "--stop-on",
        "error",
        "-o",
        out.to_str().unwrap(),
    ]);
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(took < PATIENCE, "{took:?}");
    assert!(
        stderr.contains("stopped: error at kernel tfrt.div.i32"),
        "{stderr}"
    );
    let recording = read(&out);
    assert_eq!(
        recording.header.stop,
        StopReason::Error {
            kernel: "tfrt.div.i32#5".into()
        },
        "{:?}",
        recording.header.stop
    );
    assert_eq!(recording.header.window_ns, 100_000_000);
    // The loop ran 400 sleeps of 3 ms: over a second, of which about a
    // tenth is kept. What was before the window is gone.
    let (first, last) = span(&recording);
    assert!(last - first <= 300_000_000, "kept {} ns", last - first);
    assert!(recording.dropped() > 0);
    let sleeps = starts_of(&recording, "tfrt_test.usleep");
    assert!((1..=100).contains(&sleeps), "{sleeps} sleeps kept of 400");

    // The error is there, and what was kept still analyses: the loop
    // kernel, started long before the window, is kept cut, the caller of
    // the iterations kept and the producer of the division's operand.
    let model = Model::new(recording);
    let error = model.first_error.as_ref().expect("the error was kept");
    let run = error.run.expect("the error's kernel");
    assert_eq!(model.kernel_name(run), "tfrt.div.i32");
    let repeat = (0..model.runs.len())
        .find(|&r| model.runs[r].cut)
        .expect("the loop kernel, cut");
    assert_eq!(model.kernel_name(repeat), "tfrt.repeat.i32");
    assert!(
        model.edges.iter().any(|e| e.from == repeat && e.to == run),
        "no flow from the loop to the division"
    );
    let analysis = critical_path::analyse(&model, &CriticalOptions::default());
    assert!(analysis.path.contains(&run), "the division ends the path");

    // `stats` says why the recording stopped.
    let stats = bef_trace(&["stats", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(stats.status.success());
    assert!(
        text.contains("stopped: error at kernel tfrt.div.i32#5"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stopping_on_a_slow_kernel_names_it_and_its_time() {
    let _serial = common::serial();
    let dir = scratch("slow");
    let out = dir.join("slow.beftrace");
    let output = bef_trace(&[
        "record",
        "corpus/trace/flight_slow.mlir",
        "--keep",
        "last",
        "--window",
        "300ms",
        "--stop-on",
        "slow:usleep>100ms",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let recording = read(&out);
    let StopReason::Slow { kernel, nanos } = &recording.header.stop else {
        panic!("stopped for {:?}", recording.header.stop);
    };
    // Kernel 6 is the long sleep, timed to its chain's completion; the
    // loop's 3 ms sleeps never qualified.
    assert_eq!(kernel, "tfrt_test.blocking.usleep#6");
    assert!(*nanos > 100_000_000, "{nanos} ns");
    assert!(recording.header.partial);
    let (first, last) = span(&recording);
    assert!(last - first <= 900_000_000, "kept {} ns", last - first);
    assert!(recording.dropped() > 0);
    // The long sleep and the iterations just before it are kept.
    assert_eq!(starts_of(&recording, "tfrt_test.blocking.usleep"), 1);
    let sleeps = starts_of(&recording, "tfrt_test.usleep");
    assert!((1..=300).contains(&sleeps), "{sleeps} sleeps kept");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether process `pid` catches SIGUSR1 (its handler is installed).
fn catches_sigusr1(pid: u32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGUSR1 - 1)) != 0)
}

#[test]
fn sigusr1_writes_a_snapshot_and_the_run_goes_on() {
    let _serial = common::serial();
    let dir = scratch("snapshot");
    let out = dir.join("run.beftrace");
    let child = Command::new(env!("CARGO_BIN_EXE_bef-trace"))
        .args([
            "record",
            "corpus/trace/flight_slow.mlir",
            "--keep",
            "last",
            "--window",
            "1s",
            "-o",
            out.to_str().unwrap(),
        ])
        .current_dir(common::repo_root())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bef-trace starts");
    let pid = child.id();
    let deadline = Instant::now() + PATIENCE;
    while !catches_sigusr1(pid) {
        assert!(Instant::now() < deadline, "SIGUSR1 never handled");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Into the loop, then the snapshot.
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill only sends a signal to our own child's process id.
    assert_eq!(unsafe { libc::kill(pid as libc::pid_t, libc::SIGUSR1) }, 0);
    let output = child.wait_with_output().expect("bef-trace ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let snapshot_path = dir.join("run.1.beftrace");
    assert!(stderr.contains("snapshot: wrote"), "{stderr}");
    let snapshot = read(&snapshot_path);
    assert_eq!(snapshot.header.stop, StopReason::Snapshot);
    assert!(snapshot.header.partial);
    assert!(snapshot.event_count() > 0);
    // The run went on to its end after the snapshot.
    let whole = read(&out);
    assert_eq!(whole.header.stop, StopReason::Completed);
    assert!(!whole.header.partial);
    assert!(span(&whole).1 > span(&snapshot).1);
    assert_eq!(starts_of(&whole, "tfrt_test.blocking.usleep"), 1);
    let stats = bef_trace(&["stats", snapshot_path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(text.contains("stopped: snapshot"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_window_needs_keep_last_and_conditions_are_checked() {
    let dir = scratch("usage");
    let out = dir.join("never.beftrace");
    for (args, said) in [
        (
            &["--window", "100ms"][..],
            "--window keeps the last events: give --keep last",
        ),
        (
            &["--stop-on", "never"][..],
            "give error or slow:PATTERN>TIME",
        ),
        (
            &["--stop-on", "slow:usleep>soon"][..],
            "--stop-on \"slow:usleep>soon\"",
        ),
    ] {
        let mut all = vec![
            "record",
            "corpus/trace/errors.mlir",
            "-o",
            out.to_str().unwrap(),
        ];
        all.extend_from_slice(args);
        let output = bef_trace(&all);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!out.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
