//! What reaches the app and what it asks for in return. [`App::update`]
//! takes one [`Event`] (a key, a click, time passing, or the result of
//! background work) and changes only the app; whatever touches the world
//! (running a program, reading files, the clipboard) it returns as
//! [`Effect`]s, which `worker` performs, posting what they produce back
//! as events on one channel.
//!
//! [`App::update`]: crate::app::App::update

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ratatui::crossterm::event::{KeyEvent, MouseEvent};

use bef_trace::capture::live::LiveRecording;
use bef_trace::program_file::ProgramFile;

use crate::app::search;
use crate::model::execution::Trace;
use crate::model::rows::Snapshot;

/// Something that happened.
pub enum Event {
    /// A key was pressed.
    Key(KeyEvent),
    /// The mouse was used.
    Mouse(MouseEvent),
    /// The terminal changed size (the next frame lays out again).
    Resize,
    /// Time passed; runs show their elapsed time from these.
    Tick(Instant),
    /// The terminal's input cannot be read (the event loop ends with this
    /// error).
    InputFailed(String),
    /// The whole-file analysis finished (findings and users can be shown).
    Analysed,
    /// Loading the recording: what is being done now.
    Loading(String),
    /// The recording is loaded, or why it is not.
    Loaded(Result<Box<Trace>, String>),
    /// A search on a worker has scanned `scanned` of `total` rows.
    SearchProgress {
        /// Which search.
        id: u64,
        /// Rows scanned so far.
        scanned: usize,
        /// Rows in the list.
        total: usize,
    },
    /// A search on a worker ended.
    SearchEnded {
        /// Which search.
        id: u64,
        /// What it found.
        outcome: search::Outcome,
    },
    /// A search could not start (no thread): why.
    SearchFailed(String),
    /// The live recording followed, as it is now.
    LiveUpdate {
        /// What arrived so far, ordered.
        trace: Box<Trace>,
        /// Whether the stream ended (this is the whole recording).
        ended: bool,
    },
    /// The live recording's connection broke off: why.
    LiveLost(String),
    /// What arrived was saved (what was written), or why not.
    LiveSaved(Result<String, String>),
    /// A run started by `r` ended: function `name`, and its recording or
    /// why there is none.
    RunEnded {
        /// The function that ran.
        name: String,
        /// What came of it.
        outcome: Result<Box<RunRecorded>, String>,
    },
}

/// A run that ended with a recording.
pub struct RunRecorded {
    /// The recording, ordered for the Execution tab.
    pub trace: Trace,
    /// Whether a function returned an error.
    pub failed: bool,
    /// Whether the run was cancelled before it ended.
    pub cancelled: bool,
}

/// Something the app asks for that is not a change to itself.
pub enum Effect {
    /// Run function `function` of `program` (with JSON `arguments` if it
    /// takes some) on the `s` work queue and record it; the result comes
    /// back as [`Event::RunEnded`].
    Run {
        /// The program file.
        program: PathBuf,
        /// The function's name, without `@`.
        function: String,
        /// Its arguments, as `bef run --call` takes them.
        arguments: Option<String>,
    },
    /// Cancel the run under way: kernels not started are skipped.
    CancelRun,
    /// Search a long list on a worker, over a copy of what its rows are
    /// read from; reports come back as [`Event::SearchProgress`] and
    /// [`Event::SearchEnded`].
    Search(search::Job, Box<Snapshot>),
    /// Stop the search under way.
    CancelSearch,
    /// Put this text on the clipboard (the terminal sends it as OSC 52).
    Copy(String),
    /// Rebuild the live recording's model now (the view was resumed).
    LiveRefresh {
        /// The socket.
        socket: PathBuf,
        /// What arrived.
        received: Arc<Mutex<LiveRecording>>,
        /// The program it is read with, if it left its table out.
        program: Option<Arc<ProgramFile>>,
    },
    /// Save what arrived from the live recording to `path`.
    SaveLive {
        /// The file to write.
        path: PathBuf,
        /// What arrived.
        received: Arc<Mutex<LiveRecording>>,
    },
}
