//! `bef-trace record --live SOCKET`: clients connected while the run goes
//! on receive frames that each parse as a recording; merged, they are a
//! partial recording mid-run and, once the stream ends, the very recording
//! written to the file. A client joining late gets the same. Socket paths
//! that cannot be served or attached to are clear errors.

#![cfg(unix)]

mod common;

use std::io::BufReader;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bef_trace::capture::live::{self, LiveError, LiveRecording};

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bef-trace-live-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn record_live(out: &Path, socket: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_bef-trace"))
        .args(["record", "corpus/trace/live_loop.mlir", "--values", "-o"])
        .arg(out)
        .arg("--live")
        .arg(socket)
        .current_dir(common::repo_root())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bef-trace starts")
}

/// Connects once the socket exists.
fn connect(socket: &Path) -> BufReader<UnixStream> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match live::connect(socket) {
            Ok(stream) => return BufReader::new(stream),
            Err(e) if Instant::now() > deadline => panic!("cannot connect: {e}"),
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Reads frames to the end of the stream; the event counts after each.
fn follow(stream: &mut BufReader<UnixStream>, received: &mut LiveRecording) -> Vec<usize> {
    let mut counts = Vec::new();
    while let Some(frame) = live::read_frame(stream).expect("a whole frame") {
        // Every frame on its own is a readable recording.
        bef_trace::read(&frame).expect("a frame parses as a recording");
        received.apply(&frame).expect("the frame merges");
        counts.push(received.event_count());
    }
    received.end();
    counts
}

#[test]
fn clients_receive_a_partial_then_the_complete_recording() {
    let dir = scratch("grow");
    let out = dir.join("paced.beftrace");
    let socket = dir.join("live.sock");
    let mut child = record_live(&out, &socket);
    let mut early = connect(&socket);
    let mut received = LiveRecording::new();
    // The first frame arrives while the run goes on: a partial recording
    // with the program table.
    let first = live::read_frame(&mut early)
        .expect("a frame")
        .expect("not the end");
    received.apply(&first).expect("the first frame merges");
    let recording = received.recording().expect("a recording");
    assert!(recording.header.partial, "mid-run the recording is partial");
    assert!(
        !recording.functions.is_empty(),
        "the program table comes first"
    );
    let saved = received.to_bytes().expect("bytes");
    assert!(bef_trace::read(&saved).expect("readable").header.partial);
    // A client joining later gets everything so far, then the rest.
    std::thread::sleep(Duration::from_millis(800));
    let mut late = connect(&socket);
    let counts = follow(&mut early, &mut received);
    assert!(
        counts.windows(2).any(|w| w[1] > w[0]),
        "events arrive over several frames: {counts:?}"
    );
    let mut late_received = LiveRecording::new();
    follow(&mut late, &mut late_received);
    let status = child.wait().expect("bef-trace ends");
    assert!(status.success(), "{status:?}");
    let file = std::fs::read(&out).expect("the recording file");
    let written = bef_trace::read(&file).expect("the file reads");
    assert!(!written.header.partial);
    for (name, received) in [("early", &received), ("late", &late_received)] {
        let merged = received.recording().expect("a recording");
        assert!(!merged.header.partial, "{name}: the run ended");
        assert_eq!(merged.event_count(), written.event_count(), "{name}");
        assert_eq!(merged.threads, written.threads, "{name}: the same events");
        assert_eq!(
            received.to_bytes().expect("bytes"),
            file,
            "{name}: saved, the same file"
        );
    }
    assert!(!socket.exists(), "the socket is removed when the run ends");
}

#[test]
fn socket_paths_that_cannot_be_used_are_named() {
    let dir = scratch("paths");
    let plain = dir.join("plain");
    std::fs::write(&plain, b"not a socket").expect("a file");
    // Attaching.
    match live::connect(&dir.join("missing.sock")) {
        Err(LiveError::Missing(p)) => assert!(p.contains("missing.sock")),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        live::connect(&plain),
        Err(LiveError::NotASocket(_))
    ));
    // Serving: a file in the way is not replaced, a missing directory
    // is named, and --keep last is refused.
    let run = |socket: &Path, extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_bef-trace"))
            .args(["record", "corpus/trace/live_loop.mlir", "-o"])
            .arg(dir.join("x.beftrace"))
            .arg("--live")
            .arg(socket)
            .args(extra)
            .current_dir(common::repo_root())
            .output()
            .expect("bef-trace runs");
        assert!(!output.status.success());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = run(&plain, &[]);
    assert!(stderr.contains("exists and is not a socket"), "{stderr}");
    assert_eq!(std::fs::read(&plain).expect("kept"), b"not a socket");
    let stderr = run(&dir.join("no/such/dir/live.sock"), &[]);
    assert!(
        stderr.contains("--live") && stderr.contains("directory does not exist"),
        "{stderr}"
    );
    let stderr = run(&dir.join("ring.sock"), &["--keep", "last"]);
    assert!(stderr.contains("--keep first"), "{stderr}");
    assert!(!dir.join("x.beftrace").exists(), "nothing ran");
}

#[test]
fn hostile_frames_are_refused() {
    // A length past the bound, a stream cut inside a frame, and bytes that
    // are not a recording.
    let mut huge = &(u64::MAX).to_le_bytes()[..];
    assert!(live::read_frame(&mut huge).is_err());
    let mut cut: &[u8] = &[16, 0, 0, 0, 0, 0, 0, 0, b'B', b'E'];
    assert!(live::read_frame(&mut cut).is_err());
    let mut received = LiveRecording::new();
    let error = received.apply(b"BEFTRACE\xff\xff").unwrap_err();
    assert!(error.contains("frame 1"), "{error}");
    assert!(received.to_bytes().is_none());
}
