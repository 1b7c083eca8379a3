//! A recording served on a Unix socket while it is made
//! (`bef-trace record --live SOCKET`), and read back by a client
//! (`befview --attach SOCKET`).
//!
//! The stream is a sequence of frames, each an 8-byte little-endian
//! length and that many bytes of a recording in the file's encoding
//! ([`codec::write_with`]); a zero length ends the stream. The first frame
//! is the recording so far, with the program table (unless the run leaves
//! it out) and marked partial; each later frame holds only the events
//! recorded since, per thread (threads appear in the order they first
//! reported), without the table; the last frame before the end carries the
//! final header (partial only if the run was stopped) and each thread's
//! dropped count. [`LiveRecording`] merges frames back into one recording,
//! equal to the file written when the run ends.
//!
//! The server never blocks the recorder: the frames are made on a thread
//! of their own from [`Recorder::finish`] snapshots (at most one every
//! [`MIN_INTERVAL`], less often when a snapshot takes long), and written
//! to non-blocking sockets from per-client queues. A client joining late
//! gets every frame made so far first; a client whose queue of frames
//! made since it joined grows past [`MAX_LAG_BYTES`] is dropped, with a
//! message on standard error.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::os::unix::fs::FileTypeExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::capture::codec;
use crate::capture::recorder::Recorder;
use crate::capture::recording::Keep;
use crate::capture::recording::{FunctionInfo, Header, Recording, ThreadTrack};

/// The shortest time between two frames.
pub const MIN_INTERVAL: Duration = Duration::from_millis(200);

/// How far a client may fall behind (bytes of frames made since it joined
/// and not yet sent to it) before it is dropped.
pub const MAX_LAG_BYTES: usize = 64 << 20;

/// The largest frame a client accepts.
pub const MAX_FRAME_BYTES: u64 = 4 << 30;

/// Events of each thread held back from an intermediate frame: the newest
/// entries of a log may still lack the value or continuation written just
/// after them, so they are sent once later ones exist.
const HOLD_BACK: usize = 64;

/// How long the server waits, once the run ended, for its clients to read
/// the rest.
const DRAIN_LIMIT: Duration = Duration::from_secs(10);

/// Why a socket could not be served or attached to.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The path exists and is not a socket: nothing is replaced.
    #[error("{0}: exists and is not a socket (not replaced)")]
    NotASocket(String),
    /// Another server answers on the socket.
    #[error("{0}: another process is serving on this socket")]
    InUse(String),
    /// No such file.
    #[error("{0}: no such socket")]
    Missing(String),
    /// The socket's directory does not exist.
    #[error("{0}: its directory does not exist")]
    NoDirectory(String),
    /// Permission denied.
    #[error("{0}: permission denied")]
    Permission(String),
    /// Nothing answers on the socket (a server that ended).
    #[error("{0}: nothing is serving on this socket (connection refused)")]
    Refused(String),
    /// Any other failure, with what was being done.
    #[error("{path}: cannot {doing}: {error}")]
    Other {
        /// The socket.
        path: String,
        /// What failed.
        doing: &'static str,
        /// The system's error.
        error: io::Error,
    },
    /// `--live` with `--keep last`: the oldest events would disappear from
    /// under the frames already sent.
    #[error("--live needs --keep first: a ring that wraps cannot be streamed")]
    KeepLast,
}

fn shown(path: &Path) -> String {
    bef::tool_io::escape::path(path).into_owned()
}

/// Describes an error of `doing` on socket `path`.
fn describe(path: &Path, doing: &'static str, error: io::Error) -> LiveError {
    let p = shown(path);
    match error.kind() {
        io::ErrorKind::NotFound => LiveError::Missing(p),
        io::ErrorKind::PermissionDenied => LiveError::Permission(p),
        io::ErrorKind::ConnectionRefused => LiveError::Refused(p),
        io::ErrorKind::AddrInUse => LiveError::InUse(p),
        _ => LiveError::Other {
            path: p,
            doing,
            error,
        },
    }
}

/// Connects to the live recording served at `path`, checking first that
/// it is a socket.
pub fn connect(path: &Path) -> Result<UnixStream, LiveError> {
    let meta = std::fs::metadata(path).map_err(|e| describe(path, "read", e))?;
    if !meta.file_type().is_socket() {
        return Err(LiveError::NotASocket(shown(path)));
    }
    UnixStream::connect(path).map_err(|e| describe(path, "connect", e))
}

/// Binds `path`, replacing only a socket nothing answers on (left by a
/// server that ended).
fn bind(path: &Path) -> Result<UnixListener, LiveError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_socket() => {
            return Err(LiveError::NotASocket(shown(path)));
        }
        Ok(_) => match UnixStream::connect(path) {
            Ok(_) => return Err(LiveError::InUse(shown(path))),
            Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => {
                std::fs::remove_file(path).map_err(|e| describe(path, "replace", e))?;
            }
            Err(e) => return Err(describe(path, "check", e)),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(describe(path, "check", e)),
    }
    let listener = UnixListener::bind(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => LiveError::NoDirectory(shown(path)),
        _ => describe(path, "listen on", e),
    })?;
    listener
        .set_nonblocking(true)
        .map_err(|e| describe(path, "listen on", e))?;
    Ok(listener)
}

/// One frame: its length, then its bytes.
fn frame(bytes: &[u8]) -> Arc<[u8]> {
    let mut out = Vec::with_capacity(8 + bytes.len());
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
    out.into()
}

/// A connected client and the frames it has still to read.
struct Client {
    stream: UnixStream,
    number: u64,
    queue: VecDeque<Arc<[u8]>>,
    /// Bytes of the queue's first frame already written.
    written: usize,
    /// Bytes queued of frames made since it joined.
    lag: usize,
    /// Frames before this many were queued at joining (not counted as lag).
    joined_at: usize,
    frames_sent: usize,
}

impl Client {
    /// Writes what the socket takes now; false when the client is gone.
    fn pump(&mut self) -> bool {
        while let Some(front) = self.queue.front() {
            match self.stream.write(&front[self.written..]) {
                Ok(0) => return false,
                Ok(n) => {
                    self.written += n;
                    if self.written == front.len() {
                        if self.frames_sent >= self.joined_at {
                            self.lag = self.lag.saturating_sub(front.len());
                        }
                        self.frames_sent += 1;
                        self.queue.pop_front();
                        self.written = 0;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return false,
            }
        }
        true
    }
}

/// What the serving thread hands back when the run ended: the socket,
/// its clients, the frames made and how many events of each thread they
/// hold.
struct Served {
    listener: UnixListener,
    clients: Vec<Client>,
    history: Vec<Arc<[u8]>>,
    sent: Vec<usize>,
    numbered: u64,
    embed: bool,
    functions: Vec<FunctionInfo>,
}

impl Served {
    /// Queues `frame` for every client and for clients to come.
    fn add(&mut self, frame: Arc<[u8]>) {
        for client in &mut self.clients {
            client.lag += frame.len();
            client.queue.push_back(Arc::clone(&frame));
        }
        self.history.push(frame);
    }

    /// Takes the clients waiting to connect: each gets every frame so far.
    fn accept(&mut self) {
        while let Ok((stream, _)) = self.listener.accept() {
            if stream.set_nonblocking(true).is_err() {
                continue;
            }
            self.numbered += 1;
            self.clients.push(Client {
                stream,
                number: self.numbered,
                queue: self.history.iter().cloned().collect(),
                written: 0,
                lag: 0,
                joined_at: self.history.len(),
                frames_sent: 0,
            });
        }
    }

    /// A frame of `recording`'s events not sent yet (less the newest
    /// `hold` of each thread), if there are any or none was made yet.
    fn frame_of(&mut self, recording: &Recording, hold: usize, last: bool) -> Option<Arc<[u8]>> {
        let first = self.history.is_empty();
        self.sent
            .resize(self.sent.len().max(recording.threads.len()), 0);
        let threads: Vec<ThreadTrack> = recording
            .threads
            .iter()
            .zip(self.sent.iter_mut())
            .map(|(track, sent)| {
                let upto = track.events.len().saturating_sub(hold).max(*sent);
                let events = track.events.slice(*sent..upto);
                *sent = upto;
                ThreadTrack {
                    name: track.name.clone(),
                    events,
                    dropped: track.dropped,
                }
            })
            .collect();
        if !(first || last || threads.iter().any(|t| !t.events.is_empty())) {
            return None;
        }
        let with_table = first && self.embed;
        let mut header = recording.header.clone();
        header.program_left_out = !with_table;
        // The source text, like the table, goes with the first frame only.
        if !first {
            header.sources = Vec::new();
        }
        let frame_recording = Recording {
            header,
            functions: if with_table {
                self.functions.clone()
            } else {
                Vec::new()
            },
            threads,
        };
        Some(frame(&codec::write_with(&frame_recording, with_table)))
    }
}

/// A recording being served on a socket while it is made.
pub struct LiveServer {
    path: PathBuf,
    ended: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<Served>>,
}

impl std::fmt::Debug for LiveServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveServer")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// A socket bound for serving, before the run starts.
#[derive(Debug)]
pub struct LiveSocket {
    path: PathBuf,
    listener: UnixListener,
}

impl LiveSocket {
    /// Binds the socket `path` (created; an old socket nothing answers on
    /// is replaced) for a recording keeping `keep`.
    pub fn bind(path: &Path, keep: Keep) -> Result<LiveSocket, LiveError> {
        if keep == Keep::Last {
            return Err(LiveError::KeepLast);
        }
        Ok(LiveSocket {
            path: path.to_owned(),
            listener: bind(path)?,
        })
    }

    /// Serves `recorder`'s events under `header` and the program's
    /// `functions` (empty when the table is left out).
    pub fn serve(
        self,
        recorder: Arc<Recorder>,
        header: Header,
        functions: Vec<FunctionInfo>,
    ) -> Result<LiveServer, LiveError> {
        let ended = Arc::new(AtomicBool::new(false));
        let served = Served {
            listener: self.listener,
            clients: Vec::new(),
            history: Vec::new(),
            sent: Vec::new(),
            numbered: 0,
            embed: !header.program_left_out,
            functions,
        };
        let stop = Arc::clone(&ended);
        let thread = std::thread::Builder::new()
            .name("bef-trace-live".into())
            .spawn(move || serve(served, &recorder, header, &stop))
            .map_err(|e| describe(&self.path, "start serving", e))?;
        Ok(LiveServer {
            path: self.path,
            ended,
            thread: Some(thread),
        })
    }
}

impl LiveServer {
    /// Sends the rest of `recording` (the one written to the file), ends
    /// the stream, waits a while (at most ten seconds) for the clients
    /// to read it, and removes the socket.
    pub fn finish(mut self, recording: &Recording) {
        self.end(Some(recording));
    }

    fn end(&mut self, recording: Option<&Recording>) {
        self.ended.store(true, Ordering::Release);
        let Some(thread) = self.thread.take() else {
            return;
        };
        if let Ok(mut served) = thread.join() {
            if let Some(frame) = recording.and_then(|r| served.frame_of(r, 0, true)) {
                served.add(frame);
            }
            served.add(frame(&[]));
            drain(&mut served);
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Drop for LiveServer {
    /// Ended without a final recording: the clients get the end of the
    /// stream.
    fn drop(&mut self) {
        self.end(None);
    }
}

/// The serving thread: accepts clients, makes frames, writes them, until
/// `ended`.
fn serve(mut served: Served, recorder: &Recorder, header: Header, ended: &AtomicBool) -> Served {
    let mut next_frame = Instant::now();
    while !ended.load(Ordering::Acquire) {
        served.accept();
        if Instant::now() >= next_frame {
            let started = Instant::now();
            let mut header = header.clone();
            header.partial = true;
            let recording = recorder.finish(header, Vec::new());
            if let Some(frame) = served.frame_of(&recording, HOLD_BACK, false) {
                served.add(frame);
            }
            drop(recording);
            // A slow snapshot makes the next one wait longer.
            next_frame = Instant::now() + MIN_INTERVAL.max(started.elapsed() * 4);
        }
        pump_all(&mut served.clients);
        std::thread::sleep(Duration::from_millis(10));
    }
    served
}

/// Writes to every client, dropping those gone or too far behind.
fn pump_all(clients: &mut Vec<Client>) {
    clients.retain_mut(|client| {
        if client.lag > MAX_LAG_BYTES {
            eprintln!(
                "bef-trace: live client {} dropped: it fell more than {} MiB behind",
                client.number,
                MAX_LAG_BYTES >> 20
            );
            return false;
        }
        client.pump()
    });
}

/// Once the run ended: serves the rest to every client (and to clients
/// connecting meanwhile), for at most [`DRAIN_LIMIT`].
fn drain(served: &mut Served) {
    let until = Instant::now() + DRAIN_LIMIT;
    while Instant::now() < until {
        served.accept();
        pump_all(&mut served.clients);
        served.clients.retain(|c| !c.queue.is_empty());
        if served.clients.is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Reads one frame from `reader`: `Ok(None)` at the end of the stream.
pub fn read_frame(reader: &mut impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut length = [0u8; 8];
    reader.read_exact(&mut length)?;
    let length = u64::from_le_bytes(length);
    if length == 0 {
        return Ok(None);
    }
    if length > MAX_FRAME_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "a frame of {length} bytes is announced, more than the {} GiB accepted",
                MAX_FRAME_BYTES >> 30
            ),
        ));
    }
    // Grown as bytes arrive, not allocated from the announced length.
    let mut bytes = Vec::new();
    reader.take(length).read_to_end(&mut bytes)?;
    if (bytes.len() as u64) < length {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the stream ended inside a frame ({} of {length} bytes)",
                bytes.len()
            ),
        ));
    }
    Ok(Some(bytes))
}

/// A recording put back together from the frames of a live stream.
#[derive(Debug, Clone, Default)]
pub struct LiveRecording {
    recording: Option<Recording>,
    frames: usize,
    ended: bool,
}

impl LiveRecording {
    /// Nothing received yet.
    pub fn new() -> LiveRecording {
        LiveRecording::default()
    }

    /// Adds frame `bytes` (one recording in the file's encoding).
    pub fn apply(&mut self, bytes: &[u8]) -> Result<(), String> {
        let frame = codec::read(bytes)
            .map_err(|e| format!("frame {} is not a readable recording: {e}", self.frames + 1))?;
        self.frames += 1;
        let Some(merged) = &mut self.recording else {
            self.recording = Some(frame);
            return Ok(());
        };
        if frame.header.program_hash != merged.header.program_hash {
            return Err(format!(
                "frame {} is of another program (hash {:016x}, the stream's {:016x})",
                self.frames, frame.header.program_hash, merged.header.program_hash
            ));
        }
        // The newest header says how the run stands (partial, why it
        // stopped); the table and the source text came with the first.
        let left_out = merged.header.program_left_out;
        let sources = std::mem::take(&mut merged.header.sources);
        merged.header = frame.header;
        merged.header.program_left_out = left_out;
        if merged.header.sources.is_empty() {
            merged.header.sources = sources;
        }
        for (i, track) in frame.threads.into_iter().enumerate() {
            match merged.threads.get_mut(i) {
                Some(have) => {
                    have.events.extend(track.events.iter());
                    have.dropped = track.dropped;
                }
                None => merged.threads.push(ThreadTrack {
                    name: track.name,
                    events: track.events,
                    dropped: track.dropped,
                }),
            }
        }
        Ok(())
    }

    /// Marks the stream ended (its end frame was read).
    pub fn end(&mut self) {
        self.ended = true;
    }

    /// Whether the stream's end was read.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Frames applied so far.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The recording so far, if a frame arrived.
    pub fn recording(&self) -> Option<&Recording> {
        self.recording.as_ref()
    }

    /// Events received so far.
    pub fn event_count(&self) -> usize {
        self.recording.as_ref().map_or(0, Recording::event_count)
    }

    /// The recording so far as a file: marked partial unless the stream
    /// ended (and the run was not stopped), with the program table the
    /// first frame carried.
    pub fn to_bytes(&self) -> Option<Vec<u8>> {
        let recording = self.recording.as_ref()?;
        if self.ended {
            let embed = !recording.header.program_left_out;
            return Some(codec::write_with(recording, embed));
        }
        let mut header = recording.header.clone();
        header.partial = true;
        let partial = Recording {
            header,
            functions: recording.functions.clone(),
            threads: recording.threads.clone(),
        };
        Some(codec::write_with(
            &partial,
            !recording.header.program_left_out,
        ))
    }
}
