//! Background work: the [`Effect`]s the app returns, performed off the UI
//! thread, their results posted back as [`Event`]s on the one channel the
//! event loop reads. [`Driver`] does the same without a terminal, for
//! `--dump` and tests.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};

use bef::tool_io::named_files::{self, NamedFileKind};

use crate::app::App;
use crate::events::{Effect, Event, RunRecorded};
use crate::execution::Trace;

/// Performs effects, posting their results on a channel.
pub struct Worker {
    events: Sender<Event>,
    /// Stops the run under way, if any.
    run: Option<bef_trace::CancelHandle>,
}

impl Worker {
    /// A worker posting on `events`.
    pub fn new(events: Sender<Event>) -> Worker {
        Worker { events, run: None }
    }

    /// Performs `effect`. The text of a [`Effect::Copy`] is returned for
    /// the caller, which owns the terminal, to send.
    pub fn perform(&mut self, effect: Effect) -> Option<String> {
        match effect {
            Effect::Run {
                program,
                function,
                arguments,
            } => {
                self.start_run(program, function, arguments);
                None
            }
            Effect::CancelRun => {
                if let Some(cancel) = &self.run {
                    cancel.cancel();
                }
                None
            }
            Effect::Copy(text) => Some(text),
        }
    }

    /// Runs and records `@function` of `program` on a thread of its own;
    /// posts [`Event::RunEnded`] when it ends (also when it cannot start).
    fn start_run(&mut self, program: PathBuf, function: String, arguments: Option<String>) {
        let cancel = bef_trace::CancelHandle::default();
        let options = bef_trace::RecordOptions {
            cancel: Some(cancel.clone()),
            work_queue: "s".into(),
            functions: vec![function.clone()],
            recorder: bef_trace::RecorderOptions {
                values: true,
                ..bef_trace::RecorderOptions::default()
            },
            program_output: false,
            arguments,
            ..bef_trace::RecordOptions::default()
        };
        let mut report = Report {
            events: self.events.clone(),
            name: Some(function.clone()),
        };
        let spawned = std::thread::Builder::new()
            .name("befview-run".into())
            .spawn(move || {
                let outcome = record(&program, &options);
                report.send(outcome);
            });
        match spawned {
            Ok(_) => self.run = Some(cancel),
            Err(e) => {
                let _ = self.events.send(Event::RunEnded {
                    name: function,
                    outcome: Err(format!("cannot start a thread: {e}")),
                });
            }
        }
    }
}

/// Posts the end of a run exactly once: its outcome, or, if the thread
/// unwinds first, that it ended without one (so nothing waits forever).
struct Report {
    events: Sender<Event>,
    name: Option<String>,
}

impl Report {
    fn send(&mut self, outcome: Result<Box<RunRecorded>, String>) {
        if let Some(name) = self.name.take() {
            // The app may be gone (the user quit): nothing to tell.
            let _ = self.events.send(Event::RunEnded { name, outcome });
        }
    }
}

impl Drop for Report {
    fn drop(&mut self) {
        self.send(Err("the run ended without a recording".to_owned()));
    }
}

/// Records a run and orders it for the Execution tab, checking the
/// program file against the recording's hash.
fn record(program: &Path, options: &bef_trace::RecordOptions) -> Result<Box<RunRecorded>, String> {
    let (recording, outcomes) =
        bef_trace::record_file(program, options, |_| {}).map_err(|e| e.to_string())?;
    let cancelled = recording.header.partial;
    let mut trace = Trace::new(program, recording);
    // The file this view shows, named by the user.
    let file = named_files::read(program, NamedFileKind::UserNamed);
    trace.check_program(file.as_deref());
    Ok(Box::new(RunRecorded {
        trace,
        failed: outcomes.iter().any(|o| o.failed),
        cancelled,
    }))
}

/// Drives an app without a terminal: performs the effects it returns and
/// applies the events their work posts.
pub struct Driver {
    worker: Worker,
    events: Receiver<Event>,
    /// Texts copied, oldest first.
    pub copied: Vec<String>,
}

impl Default for Driver {
    fn default() -> Self {
        Driver::new()
    }
}

impl Driver {
    /// A driver with a channel of its own.
    pub fn new() -> Driver {
        let (send, events) = channel();
        Driver {
            worker: Worker::new(send),
            events,
            copied: Vec::new(),
        }
    }

    /// Applies `event` to `app` and performs what it asks for.
    pub fn send(&mut self, app: &mut App<'_, '_>, event: Event) {
        let effects = app.update(event);
        self.perform(effects);
    }

    /// Performs the effects `app` has queued (through `act` or `on_key`).
    pub fn flush(&mut self, app: &mut App<'_, '_>) {
        let effects = app.take_effects();
        self.perform(effects);
    }

    fn perform(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            if let Some(text) = self.worker.perform(effect) {
                self.copied.push(text);
            }
        }
    }

    /// Performs queued effects, then applies posted events until no run
    /// is under way.
    pub fn settle(&mut self, app: &mut App<'_, '_>) {
        self.flush(app);
        while app.running() {
            let Ok(event) = self.events.recv() else {
                return;
            };
            self.send(app, event);
        }
    }
}
