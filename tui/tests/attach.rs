//! `befview --attach SOCKET` in tmux, following a recording served live
//! while `corpus/trace/live_loop.mlir` runs (recorded here through
//! `bef_trace::capture::record::record_file_observed` and served by
//! `bef_trace::capture::live`, what `bef-trace record --live` runs): the
//! status line says `LIVE` and its event count grows, then `REPLAY` with
//! every event of the recording once the run ended; `w` saves a file that
//! reads as that recording. Socket paths that cannot be attached to are
//! named.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use bef_trace::capture::live::LiveSocket;
use bef_trace::capture::record::record_file_observed;
use bef_trace::capture::recording::Keep;
use bef_trace::{RecordOptions, RecorderOptions};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_owned()
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("befview-attach-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A tmux server of its own, one window running a command.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str, command: &[&str], cwd: &Path) -> Tmux {
        let tmux = Tmux {
            socket: format!("befview-attach-{}-{name}", std::process::id()),
        };
        let status = Command::new("tmux")
            .args([
                "-L",
                &tmux.socket,
                "new-session",
                "-d",
                "-x",
                "140",
                "-y",
                "40",
            ])
            .arg("-c")
            .arg(cwd)
            .args(command)
            .status()
            .expect("tmux runs");
        assert!(status.success());
        tmux
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys"])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    /// Waits until `found` accepts the screen; its answer.
    fn wait_for<T>(&self, what: &str, found: impl Fn(&str) -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen();
            if let Some(answer) = found(&screen) {
                return answer;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {what}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

/// The count of the status line's `LIVE N events` (or `REPLAY`).
fn count(screen: &str, badge: &str) -> Option<usize> {
    let at = screen.find(&format!(" {badge} "))?;
    let rest = &screen[at + badge.len() + 2..];
    let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
    rest[number.len()..]
        .starts_with(" events")
        .then(|| number.parse().ok())?
}

#[test]
fn attached_the_view_grows_live_then_shows_the_whole_recording() {
    let dir = scratch("grow");
    let socket = dir.join("live.sock");
    let bound = LiveSocket::bind(&socket, Keep::First).expect("the socket binds");
    let program = repo_root().join("corpus/trace/live_loop.mlir");
    let options = RecordOptions {
        recorder: RecorderOptions {
            values: true,
            ..RecorderOptions::default()
        },
        ..RecordOptions::default()
    };
    // The recording runs on a thread of its own, as `bef-trace record
    // --live` runs it.
    let recorder = std::thread::spawn(move || {
        let mut server = None;
        let (recording, _) = record_file_observed(
            &program,
            &options,
            |_| {},
            |recorder, header, table| {
                server = Some(
                    bound
                        .serve(recorder.clone(), header.clone(), table.to_vec())
                        .expect("serving starts"),
                );
            },
        )
        .expect("the program records");
        server.expect("served").finish(&recording);
        recording
    });
    let befview = env!("CARGO_BIN_EXE_befview");
    let socket_arg = socket.to_str().expect("a UTF-8 path");
    let tmux = Tmux::start("grow", &[befview, "--attach", socket_arg], &dir);
    let first = tmux.wait_for("LIVE", |s| count(s, "LIVE"));
    let later = tmux.wait_for("more events", |s| count(s, "LIVE").filter(|&n| n > first));
    assert!(later > first);
    let recording = recorder.join().expect("the recording thread");
    let total = recording.event_count();
    let shown = tmux.wait_for("REPLAY", |s| count(s, "REPLAY"));
    assert!(
        shown >= total - total / 10 && shown <= total,
        "{shown} rows of {total} events (work with no kernel is left out)"
    );
    // Saved, what arrived is the recording.
    let saved = dir.join("saved.beftrace");
    tmux.keys(&["w"]);
    tmux.keys(&["-l", saved.to_str().expect("a UTF-8 path")]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("saved", |s| s.contains("saved ").then_some(()));
    let bytes = std::fs::read(&saved).expect("the saved file");
    let read = bef_trace::read(&bytes).expect("a readable recording");
    assert!(!read.header.partial);
    assert_eq!(read.threads, recording.threads);
    tmux.keys(&["q"]);
}

#[test]
fn sockets_that_cannot_be_attached_to_are_named() {
    let dir = scratch("paths");
    let plain = dir.join("plain");
    std::fs::write(&plain, b"x").expect("a file");
    let befview = env!("CARGO_BIN_EXE_befview");
    for (path, expected) in [
        (dir.join("missing.sock"), "no such socket"),
        (plain, "is not a socket"),
    ] {
        let out = Command::new(befview)
            .arg("--attach")
            .arg(&path)
            .output()
            .expect("befview runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    let out = Command::new(befview)
        .args(["--attach", "a.sock", "file.bef"])
        .output()
        .expect("befview runs");
    assert_eq!(out.status.code(), Some(2));
}
