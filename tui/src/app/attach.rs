//! `befview --attach SOCKET`: the thread that reads a live recording's
//! frames from the socket (`bef_trace::capture::live`), merges them, and
//! every so often orders what arrived into a [`Trace`] posted to the event
//! loop, the same model a recording file gives. Rebuilding costs time
//! linear in the events received, so it happens at most every
//! [`MIN_REBUILD`], and less often when a rebuild takes long; while the
//! view is paused no rebuild is made, but frames are still read so that
//! the recorder never waits for this client.

use std::io::BufReader;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bef_trace::capture::live::{self, LiveRecording};
use bef_trace::program_file::ProgramFile;

use crate::app::events::Event;
use crate::model::execution::Trace;

/// The shortest time between two rebuilds of the view's model.
pub const MIN_REBUILD: Duration = Duration::from_millis(200);

/// A connection to a live recording, before its reading starts.
pub struct Attached {
    /// The socket.
    pub socket: PathBuf,
    stream: BufReader<UnixStream>,
    /// The recording so far (the first frame at least).
    pub received: Arc<Mutex<LiveRecording>>,
    /// The first frame's bytes: a recording, which opens the program.
    pub first: Vec<u8>,
}

/// Connects to `socket` and reads its first frame (the recording's
/// header and program table, and the events so far).
pub fn attach(socket: &Path) -> Result<Attached, String> {
    let stream = live::connect(socket).map_err(|e| format!("error: --attach {e}"))?;
    let shown = bef::tool_io::escape::path(socket);
    let mut stream = BufReader::new(stream);
    let first = match live::read_frame(&mut stream) {
        Ok(Some(first)) => first,
        Ok(None) => return Err(format!("error: {shown}: the live recording ended at once")),
        Err(e) => {
            return Err(format!(
                "error: {shown}: cannot read the live recording: {e}"
            ));
        }
    };
    let mut received = LiveRecording::new();
    received
        .apply(&first)
        .map_err(|e| format!("error: {shown}: {e}"))?;
    Ok(Attached {
        socket: socket.to_owned(),
        stream,
        received: Arc::new(Mutex::new(received)),
        first,
    })
}

/// Reads the rest of the stream on a thread of its own, posting a
/// [`Event::LiveUpdate`] at most every [`MIN_REBUILD`] (none while
/// `paused`), one when the stream ends, and [`Event::LiveLost`] if it
/// breaks.
pub fn follow(
    attached: Attached,
    program: Option<Arc<ProgramFile>>,
    paused: Arc<AtomicBool>,
    events: Sender<Event>,
) -> std::io::Result<()> {
    let Attached {
        socket,
        mut stream,
        received,
        ..
    } = attached;
    std::thread::Builder::new()
        .name("befview-attach".into())
        .spawn(move || {
            let shown = bef::tool_io::escape::path(&socket).into_owned();
            let mut next = Instant::now();
            let mut ended = false;
            loop {
                let due = Instant::now() >= next && !paused.load(Ordering::Relaxed);
                if due || ended {
                    let started = Instant::now();
                    let trace = match rebuild(&socket, &received, program.as_deref()) {
                        Ok(Some(trace)) => trace,
                        Ok(None) => return,
                        Err(e) => {
                            let _ = events.send(Event::LiveLost(e));
                            return;
                        }
                    };
                    next = Instant::now() + MIN_REBUILD.max(started.elapsed() * 2);
                    let update = Event::LiveUpdate {
                        trace: Box::new(trace),
                        ended,
                    };
                    if events.send(update).is_err() {
                        return;
                    }
                }
                if ended {
                    return;
                }
                match live::read_frame(&mut stream) {
                    Ok(Some(bytes)) => {
                        let applied = lock(&received).apply(&bytes);
                        if let Err(e) = applied {
                            let _ = events.send(Event::LiveLost(format!("{shown}: {e}")));
                            return;
                        }
                    }
                    Ok(None) => {
                        lock(&received).end();
                        ended = true;
                    }
                    Err(e) => {
                        let _ = events.send(Event::LiveLost(format!(
                            "{shown}: the live recording broke off: {e}"
                        )));
                        return;
                    }
                }
            }
        })?;
    Ok(())
}

/// The model of what arrived so far, read with `program` when the
/// recording left its table out.
pub fn rebuild(
    socket: &Path,
    received: &Mutex<LiveRecording>,
    program: Option<&ProgramFile>,
) -> Result<Option<Trace>, String> {
    let Some(mut recording) = lock(received).recording().cloned() else {
        return Ok(None);
    };
    bef_trace::program_file::attach(&mut recording, program)
        .map_err(|e| format!("{}: {e}", bef::tool_io::escape::path(socket)))?;
    Ok(Some(Trace::new(socket, recording)))
}

/// Rebuilds the model now (the view was resumed) on a thread of its own,
/// posting it as an update.
pub fn refresh(
    socket: PathBuf,
    received: Arc<Mutex<LiveRecording>>,
    program: Option<Arc<ProgramFile>>,
    events: Sender<Event>,
) {
    let work = move || {
        let ended = lock(&received).ended();
        match rebuild(&socket, &received, program.as_deref()) {
            Ok(Some(trace)) => {
                let _ = events.send(Event::LiveUpdate {
                    trace: Box::new(trace),
                    ended,
                });
            }
            Ok(None) => {}
            Err(e) => {
                let _ = events.send(Event::LiveLost(e));
            }
        }
    };
    // Without a thread the model is rebuilt here.
    let fallback = work.clone();
    if std::thread::Builder::new()
        .name("befview-refresh".into())
        .spawn(work)
        .is_err()
    {
        fallback();
    }
}

/// The merged recording; a poisoned lock still holds whole frames (each
/// is applied in one call).
fn lock(received: &Mutex<LiveRecording>) -> std::sync::MutexGuard<'_, LiveRecording> {
    received.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes what arrived to `path` as a recording file (marked partial
/// unless the stream ended); what was written, or why not.
pub fn save(path: &Path, received: &Mutex<LiveRecording>) -> Result<String, String> {
    let shown = bef::tool_io::escape::path(path);
    let (bytes, events, ended) = {
        let received = lock(received);
        let Some(bytes) = received.to_bytes() else {
            return Err("nothing received yet".to_owned());
        };
        (bytes, received.event_count(), received.ended())
    };
    bef::tool_io::output::write_atomically(path, &bytes)
        .map_err(|e| format!("cannot save to {shown}: {e}"))?;
    Ok(if ended {
        format!("saved {events} events to {shown}")
    } else {
        format!("saved {events} events to {shown} (a partial recording: the run goes on)")
    })
}
