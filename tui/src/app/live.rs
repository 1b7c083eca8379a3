//! The Execution tab attached to a live recording (`befview --attach`):
//! the updates the attach thread posts replace the trace shown (cursors
//! kept where they were), `P` pauses and resumes them, `w` saves what
//! arrived. The status line says `LIVE` while the stream runs and
//! `REPLAY` once it ended.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use bef_trace::capture::live::LiveRecording;
use bef_trace::program_file::ProgramFile;

use super::{App, Prompt, PromptKind};
use crate::app::events::Effect;
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::execution::Trace;
use crate::model::rows::ListId;

/// A live recording the view follows.
pub struct Live {
    /// The socket.
    pub socket: PathBuf,
    /// Whether updates are paused (read by the attach thread too).
    pub paused: Arc<AtomicBool>,
    /// Whether the stream ended (the whole recording arrived).
    pub ended: bool,
    /// Whether the connection broke off.
    pub lost: bool,
    /// What arrived, shared with the attach thread.
    pub received: Arc<Mutex<LiveRecording>>,
    /// The program the recording is read with, if it left its table out.
    pub program: Option<Arc<ProgramFile>>,
}

impl Live {
    /// Following `socket`, what arrived shared in `received`.
    pub fn new(
        socket: PathBuf,
        received: Arc<Mutex<LiveRecording>>,
        program: Option<Arc<ProgramFile>>,
    ) -> Live {
        Live {
            socket,
            paused: Arc::new(AtomicBool::new(false)),
            ended: false,
            lost: false,
            received,
            program,
        }
    }

    /// What the status line starts with: `LIVE`, `LIVE (paused)` or
    /// `REPLAY`.
    pub fn badge(&self) -> &'static str {
        if self.ended || self.lost {
            "REPLAY"
        } else if self.paused.load(Ordering::Relaxed) {
            "LIVE (paused)"
        } else {
            "LIVE"
        }
    }
}

impl<'d, 'a> App<'d, 'a> {
    /// A fresh app on `doc` following the live recording `live`, at the
    /// Execution tab.
    pub fn attached(doc: &'d crate::model::document::Document<'a>, live: Live) -> App<'d, 'a> {
        let mut app = App::new(doc);
        app.tab = Tab::Execution;
        app.message = Some(format!(
            "attached: {} pauses, {} saves",
            keys::label(Action::LivePause, Some(Tab::Execution)),
            keys::label(Action::LiveSave, Some(Tab::Execution))
        ));
        app.live = Some(live);
        app
    }

    /// Performs `P` (pause or resume) or `w` (save).
    pub(super) fn live_action(&mut self, action: Action) {
        let Some(live) = &self.live else {
            self.message = Some("not attached to a live recording (befview --attach)".to_owned());
            return;
        };
        match action {
            Action::LivePause => {
                let paused = !live.paused.load(Ordering::Relaxed);
                live.paused.store(paused, Ordering::Relaxed);
                if paused {
                    self.message = Some("paused: events still arrive, the view waits".to_owned());
                } else {
                    self.message = Some("resumed".to_owned());
                    self.effects.push(Effect::LiveRefresh {
                        socket: live.socket.clone(),
                        received: Arc::clone(&live.received),
                        program: live.program.clone(),
                    });
                }
            }
            _ => self.prompt = Some(Prompt::new(PromptKind::SavePath)),
        }
    }

    /// Asks for what arrived to be saved to the file typed.
    pub(super) fn save_live(&mut self, text: String) {
        let Some(live) = &self.live else {
            return;
        };
        let text = text.trim();
        if text.is_empty() {
            self.message = Some("no file named: nothing saved".to_owned());
            return;
        }
        self.effects.push(Effect::SaveLive {
            path: PathBuf::from(text),
            received: Arc::clone(&live.received),
        });
    }

    /// Shows the model of what arrived so far, keeping the cursors (a
    /// paused view ignores it: resuming rebuilds).
    pub(super) fn live_update(&mut self, trace: Trace, ended: bool) {
        let Some(live) = &mut self.live else {
            return;
        };
        live.ended |= ended;
        if live.paused.load(Ordering::Relaxed) && !ended {
            return;
        }
        let len = trace.steps.len();
        self.execution.trace = Some(Arc::new(trace));
        let cursor = self.cursor_mut(ListId::Events);
        cursor.selected = cursor.selected.min(len.saturating_sub(1));
        if ended {
            self.message = Some(format!(
                "the run ended: the whole recording is here ({len} events; {} saves it)",
                keys::label(Action::LiveSave, Some(Tab::Execution))
            ));
        }
    }

    /// The connection broke off: what arrived stays shown.
    pub(super) fn live_lost(&mut self, why: String) {
        if let Some(live) = &mut self.live {
            live.lost = true;
        }
        self.message = Some(why);
    }
}
