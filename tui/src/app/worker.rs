//! Background work: the [`Effect`]s the app returns, performed off the UI
//! thread, their results posted back as [`Event`]s on the one channel the
//! event loop reads. [`Driver`] does the same without a terminal, for
//! `--dump` and tests.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::Scope;

use bef::tool_io::named_files::{self, NamedFileKind};

use crate::app::App;
use crate::app::events::{Effect, Event, RunRecorded};
use crate::app::search;
use crate::model::document::Document;
use crate::model::execution::Trace;
use crate::model::rows::Snapshot;

/// Performs effects on `doc`, posting their results on a channel.
pub struct Worker<'s, 'e, 'a> {
    events: Sender<Event>,
    doc: &'e Document<'a>,
    /// Where searches run; without one they run inside `perform`.
    scope: Option<&'s Scope<'s, 'e>>,
    /// Stops the run under way, if any.
    run: Option<bef_trace::CancelHandle>,
    /// Stops the search under way, if any.
    search: Option<Arc<AtomicBool>>,
}

impl<'s, 'e, 'a: 'e> Worker<'s, 'e, 'a> {
    /// A worker posting on `events` that searches inside `perform`.
    pub fn new(events: Sender<Event>, doc: &'e Document<'a>) -> Worker<'s, 'e, 'a> {
        Worker {
            events,
            doc,
            scope: None,
            run: None,
            search: None,
        }
    }

    /// A worker posting on `events` that searches on threads of `scope`.
    pub fn scoped(
        events: Sender<Event>,
        doc: &'e Document<'a>,
        scope: &'s Scope<'s, 'e>,
    ) -> Worker<'s, 'e, 'a> {
        let mut worker = Worker::new(events, doc);
        worker.scope = Some(scope);
        worker
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
            Effect::Search(job, snapshot) => {
                self.start_search(job, *snapshot);
                None
            }
            Effect::CancelSearch => {
                if let Some(cancel) = self.search.take() {
                    cancel.store(true, Ordering::Relaxed);
                }
                None
            }
            Effect::Copy(text) => Some(text),
            Effect::LiveRefresh {
                socket,
                received,
                program,
            } => {
                crate::app::attach::refresh(socket, received, program, self.events.clone());
                None
            }
            Effect::SaveLive { path, received } => {
                // Written here: encoding what arrived is linear in it, a
                // moment even for millions of events.
                let outcome = crate::app::attach::save(&path, &received);
                let _ = self.events.send(Event::LiveSaved(outcome));
                None
            }
        }
    }

    /// Searches on a thread of the scope (inside this call without one),
    /// posting progress and the end; a cancelled search posts nothing more.
    fn start_search(&mut self, job: search::Job, snapshot: Snapshot) {
        let cancel = Arc::new(AtomicBool::new(false));
        self.search = Some(cancel.clone());
        let events = self.events.clone();
        let doc = self.doc;
        let work = move || {
            let state = snapshot.state(doc);
            let outcome = search::run(&state, &job, |scanned, total| {
                let _ = events.send(Event::SearchProgress {
                    id: job.id,
                    scanned,
                    total,
                });
                !cancel.load(Ordering::Relaxed)
            });
            let _ = events.send(Event::SearchEnded {
                id: job.id,
                outcome,
            });
        };
        match self.scope {
            Some(scope) => {
                if let Err(e) = std::thread::Builder::new()
                    .name("befview-search".into())
                    .spawn_scoped(scope, work)
                {
                    let _ = self.events.send(Event::SearchFailed(e.to_string()));
                }
            }
            None => work(),
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
                let mut options = options;
                let outcome = match options.arguments.as_deref().map(arguments_text) {
                    Some(Err(why)) => Err(why),
                    Some(Ok(text)) => {
                        options.arguments = Some(text);
                        record(&program, &options)
                    }
                    None => record(&program, &options),
                };
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

/// The arguments typed at the prompt: the JSON itself, or `@FILE`'s
/// contents, read as the named-file policy allows a file the user names
/// (as `bef run --args @FILE` reads it).
fn arguments_text(typed: &str) -> Result<String, String> {
    let Some(path) = typed.strip_prefix('@') else {
        return Ok(typed.to_owned());
    };
    let path = std::path::Path::new(path);
    let shown = bef::tool_io::escape::path(path);
    let bytes =
        bef::tool_io::named_files::read(path, bef::tool_io::named_files::NamedFileKind::UserNamed)
            .map_err(|not_read| format!("arguments @{shown}: {}", not_read.why()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "arguments @{shown}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })
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

impl Drop for Worker<'_, '_, '_> {
    /// Stops the search under way, so that leaving does not wait for it.
    fn drop(&mut self) {
        if let Some(cancel) = &self.search {
            cancel.store(true, Ordering::Relaxed);
        }
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
pub struct Driver<'e, 'a> {
    worker: Worker<'e, 'e, 'a>,
    events: Receiver<Event>,
    /// Texts copied, oldest first.
    pub copied: Vec<String>,
}

impl<'e, 'a: 'e> Driver<'e, 'a> {
    /// A driver on `doc` with a channel of its own; it searches inside the
    /// key press that asks.
    pub fn new(doc: &'e Document<'a>) -> Driver<'e, 'a> {
        let (send, events) = channel();
        Driver {
            worker: Worker::new(send, doc),
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
    /// or search is under way.
    pub fn settle(&mut self, app: &mut App<'_, '_>) {
        self.flush(app);
        while let Ok(event) = self.events.try_recv() {
            self.send(app, event);
        }
        while app.running() || app.searching.is_some() {
            let Ok(event) = self.events.recv() else {
                return;
            };
            self.send(app, event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::arguments_text;

    #[test]
    fn arguments_are_typed_or_read_from_a_named_file() {
        assert_eq!(arguments_text("[1, 2]").as_deref(), Ok("[1, 2]"));
        let path = std::env::temp_dir().join(format!("befview-args-{}.json", std::process::id()));
        std::fs::write(&path, "[[7]]").expect("written");
        let typed = format!("@{}", path.display());
        assert_eq!(arguments_text(&typed).as_deref(), Ok("[[7]]"));
        std::fs::remove_file(&path).expect("removed");
        // The named-file policy refuses system files, and says so.
        let refused = arguments_text("@/proc/self/environ").unwrap_err();
        assert!(
            refused.starts_with("arguments @/proc/self/environ: "),
            "{refused}"
        );
        assert!(arguments_text(&typed).is_err(), "a missing file");
    }
}
