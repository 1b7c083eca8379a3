//! `bef-trace record` and `run` stopped before their program ends, by a
//! real SIGINT to the running binary or by `--duration`: the recording
//! keeps what ran, marked partial in the file, and every export says so.
//! A second SIGINT quits at once, writing nothing.

#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Far beyond what stopping takes; the programs run for minutes (or
/// twenty seconds) if not stopped.
const PATIENCE: Duration = Duration::from_secs(60);

fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("bef-trace-interrupt-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A running `bef-trace`, its standard error lines arriving on a channel.
struct Running {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

fn start(args: &[&str]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bef-trace"))
        .args(args)
        .current_dir(common::repo_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bef-trace starts");
    let stderr = child.stderr.take().expect("piped stderr");
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    Running {
        child,
        lines,
        seen: Vec::new(),
    }
}

impl Running {
    /// Waits for a standard error line containing `text`.
    fn wait_for(&mut self, text: &str) {
        let deadline = Instant::now() + PATIENCE;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(text);
                    self.seen.push(line);
                    if found {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        panic!("no {text:?} on stderr; saw {:?}", self.seen);
    }

    fn interrupt(&self) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: kill only sends a signal to our own child's process id.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0, "kill");
    }

    /// Waits for the exit; the status, the time it took from now and
    /// everything it wrote to standard error.
    fn finish(mut self) -> (ExitStatus, Duration, String) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                let took = started.elapsed();
                // The reader ends with the pipe.
                while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
                    self.seen.push(line);
                }
                return (status, took, self.seen.join("\n"));
            }
            if started.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("still running after {PATIENCE:?}; stderr: {:?}", self.seen);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn read(path: &Path) -> bef_trace::Recording {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bef_trace::read(&bytes).expect("the recording reads")
}

/// The functions that began in `recording`, by name.
fn functions_begun(recording: &bef_trace::Recording) -> Vec<String> {
    let mut names: Vec<String> = recording
        .threads
        .iter()
        .flat_map(|t| &t.events)
        .filter_map(|e| match e.kind {
            bef_trace::capture::recording::EventKind::FunctionBegin { function, .. } => {
                Some(recording.function_name(function))
            }
            _ => None,
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

fn bef_trace(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_bef-trace"))
        .args(args)
        .current_dir(common::repo_root())
        .output()
        .expect("bef-trace runs")
}

#[test]
fn ctrl_c_keeps_what_an_endless_loop_recorded() {
    let dir = scratch("endless");
    let out = dir.join("endless.beftrace");
    let mut run = start(&[
        "record",
        "corpus/trace/endless.mlir",
        "-o",
        out.to_str().unwrap(),
    ]);
    // Recording for a while (progress comes every two seconds).
    run.wait_for("recording @endless");
    run.interrupt();
    let (status, took, stderr) = run.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(took < Duration::from_secs(30), "{took:?} to stop");
    assert!(stderr.contains("interrupted after"), "{stderr}");
    assert!(stderr.contains("the recording is partial"), "{stderr}");
    let recording = read(&out);
    assert!(recording.header.partial);
    assert!(
        recording.event_count() > 1000,
        "{}",
        recording.event_count()
    );
    // The function after the loop never started.
    let begun = functions_begun(&recording);
    assert!(
        begun.contains(&"endless".to_string()) && !begun.contains(&"after".to_string()),
        "{begun:?}"
    );
    // The exports say so.
    let path = out.to_str().unwrap();
    let stats = bef_trace(&["stats", path]);
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(text.contains("partial recording"), "{text}");
    assert!(String::from_utf8_lossy(&stats.stderr).contains("is a partial recording"));
    let path_text = bef_trace(&["critical-path", "--json", path]);
    let report: serde_json::Value = serde_json::from_slice(&path_text.stdout).expect("JSON");
    assert_eq!(report["partial"], true);
    let svg = dir.join("endless.svg");
    let drawn = bef_trace(&["flamegraph", path, "-o", svg.to_str().unwrap()]);
    assert_eq!(drawn.status.code(), Some(0));
    let svg = std::fs::read_to_string(&svg).expect("the SVG");
    assert!(svg.contains("partial recording"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_during_a_sleep_stops_once_the_sleep_ends() {
    let dir = scratch("sleep");
    let out = dir.join("sleeps.beftrace");
    let mut run = start(&[
        "record",
        "corpus/trace/long_sleeps.mlir",
        "-o",
        out.to_str().unwrap(),
    ]);
    run.wait_for("recording @sleep_");
    run.interrupt();
    let (status, took, stderr) = run.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
    // The sleep under way ends within a second; twenty would be 20 s.
    assert!(took < Duration::from_secs(10), "{took:?} to stop");
    let recording = read(&out);
    assert!(recording.header.partial);
    let begun = functions_begun(&recording);
    assert!(!begun.is_empty() && begun.len() < 20, "{begun:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_ctrl_c_quits_at_once_writing_nothing() {
    let dir = scratch("twice");
    let out = dir.join("never.beftrace");
    let mut run = start(&[
        "record",
        "corpus/trace/long_sleeps.mlir",
        "-o",
        out.to_str().unwrap(),
    ]);
    run.wait_for("recording @sleep_");
    run.interrupt();
    run.wait_for("interrupted after");
    run.interrupt();
    let (status, took, stderr) = run.finish();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(took < Duration::from_secs(5), "{took:?} to quit");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn duration_stops_record_and_run() {
    let dir = scratch("duration");
    let out = dir.join("endless.beftrace");
    let started = Instant::now();
    let recorded = bef_trace(&[
        "record",
        "corpus/trace/endless.mlir",
        "--duration",
        "500ms",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        recorded.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&recorded.stderr)
    );
    assert!(started.elapsed() < PATIENCE);
    assert!(String::from_utf8_lossy(&recorded.stderr).contains("--duration reached"));
    assert!(read(&out).header.partial);
    let started = Instant::now();
    let ran = bef_trace(&[
        "run",
        "corpus/trace/long_sleeps.mlir",
        "--duration",
        "1s",
        "--stats",
        "--critical-path",
    ]);
    assert_eq!(ran.status.code(), Some(0));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let text = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(text.matches("partial recording").count(), 2, "{text}");
    // A bad duration is a usage error.
    let bad = bef_trace(&[
        "record",
        "corpus/trace/endless.mlir",
        "--duration",
        "1d",
        "-o",
        "x",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_recording_that_ends_by_itself_is_not_partial() {
    let dir = scratch("complete");
    let out = dir.join("chain.beftrace");
    let recorded = bef_trace(&[
        "record",
        "corpus/trace/serial_chain.mlir",
        "--duration",
        "1h",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(recorded.status.code(), Some(0));
    assert!(!read(&out).header.partial);
    let stats = bef_trace(&["stats", out.to_str().unwrap()]);
    assert!(!String::from_utf8_lossy(&stats.stdout).contains("partial"));
    assert!(!String::from_utf8_lossy(&stats.stderr).contains("partial"));
    let _ = std::fs::remove_dir_all(&dir);
}
