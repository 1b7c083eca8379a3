//! The line typed at the bottom of the screen (a search, an offset, a
//! run's arguments) and the searches it starts: in the key press for a
//! short list, else on a worker that reports its progress.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::App;
use crate::app::events::Effect;
use crate::app::keys::{self, Action};
use crate::app::search;
use crate::app::tab::Tab;
use crate::model::rows::{self, Snapshot};

/// What a prompt is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// `/`: a search.
    Search,
    /// `g` in the hex view: an offset.
    Goto,
    /// `r` on a function that takes arguments: them, as JSON.
    Arguments,
    /// The value a watch stops at (Execution tab).
    WatchValue,
    /// The file to save a live recording to.
    SavePath,
}

/// The longest arguments prompt, in characters (other prompts take 256).
const MAX_ARGUMENTS_TEXT: usize = 64 << 10;

/// A line being typed at the bottom of the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// What it is for.
    pub kind: PromptKind,
    /// The text so far.
    pub text: String,
}

impl Prompt {
    /// An empty prompt for `kind`.
    pub fn new(kind: PromptKind) -> Prompt {
        Prompt {
            kind,
            text: String::new(),
        }
    }
}

/// A search of a long list running on a worker.
pub struct Searching {
    /// What it looks for, where.
    pub job: search::Job,
    /// Rows scanned so far.
    pub scanned: usize,
    /// Rows in the list.
    pub total: usize,
}

impl<'d, 'a> App<'d, 'a> {
    /// Handles a key while a prompt is open.
    pub(super) fn on_prompt_key(&mut self, event: KeyEvent) {
        // The key that opened an empty offset prompt, again, goes to the top.
        let goto_again = keys::lookup(&event, None, Some(Tab::Hex)).0 == Some(Action::GotoOffset);
        let Some(prompt) = self.prompt.as_mut() else {
            return;
        };
        match event.code {
            KeyCode::Esc => self.prompt = None,
            KeyCode::Backspace => {
                prompt.text.pop();
            }
            KeyCode::Enter => {
                if let Some(prompt) = self.prompt.take() {
                    self.submit(prompt);
                }
            }
            _ if goto_again && prompt.kind == PromptKind::Goto && prompt.text.is_empty() => {
                self.prompt = None;
                self.act(Action::Top);
            }
            KeyCode::Char(c)
                if prompt.text.chars().count()
                    < match prompt.kind {
                        PromptKind::Arguments => MAX_ARGUMENTS_TEXT,
                        _ => 256,
                    } =>
            {
                prompt.text.push(c)
            }
            _ => {}
        }
    }

    fn submit(&mut self, prompt: Prompt) {
        match prompt.kind {
            PromptKind::Goto => {
                if let Some(why) = self.hex.goto(&prompt.text, self.doc.bytes().len()) {
                    self.message = Some(why);
                }
            }
            PromptKind::Search => {
                self.search = Some(prompt.text);
                self.search_step(false);
            }
            PromptKind::Arguments => {
                if let Some(name) = self.arguments_for.take() {
                    self.start_run(name, Some(prompt.text));
                }
            }
            PromptKind::WatchValue => self.watch_value(prompt.text),
            PromptKind::SavePath => self.save_live(prompt.text),
        }
    }

    /// Moves to the next (or previous) match of the last search.
    pub(super) fn search_step(&mut self, backward: bool) {
        let Some(query) = self.search.clone() else {
            self.message = Some(format!(
                "no search yet: press {}",
                keys::label(Action::Search, Some(self.tab))
            ));
            return;
        };
        if self.tab == Tab::Hex {
            if let Some(why) = self.hex.find(self.doc.bytes(), &query, backward) {
                self.message = Some(why);
            }
            return;
        }
        let Some(id) = self.active_list() else {
            return;
        };
        if self.searching.take().is_some() {
            // A new search replaces the one under way.
            self.effects.push(Effect::CancelSearch);
        }
        self.searches += 1;
        let job = search::Job {
            id: self.searches,
            list: id,
            start: self.cursor(id).selected,
            backward,
            query,
        };
        let len = rows::len(&self.rows(), id);
        if len <= search::INLINE_ROWS {
            let outcome = search::run(&self.rows(), &job, |_, _| true);
            self.end_search(&job, outcome);
            return;
        }
        let snapshot = Snapshot::of(&self.rows(), self.execution.trace.clone());
        self.message = Some(format!("searching {len} rows for {}…", job.query));
        self.effects
            .push(Effect::Search(job.clone(), Box::new(snapshot)));
        self.searching = Some(Searching {
            job,
            scanned: 0,
            total: len,
        });
    }

    /// Shows how search `job` ended.
    pub(super) fn end_search(&mut self, job: &search::Job, outcome: search::Outcome) {
        match outcome {
            search::Outcome::Found(row) => self.cursor_mut(job.list).selected = row,
            search::Outcome::NotFound => self.message = Some(format!("{} not found", job.query)),
            search::Outcome::Cancelled => {
                self.message = Some(format!("search for {} cancelled", job.query))
            }
        }
    }

    /// Takes a report of the search on a worker, unless it is an older
    /// search's.
    pub(super) fn search_report(
        &mut self,
        id: u64,
        report: Result<(usize, usize), search::Outcome>,
    ) {
        let Some(searching) = self.searching.as_mut().filter(|s| s.job.id == id) else {
            return;
        };
        match report {
            Ok((scanned, total)) => {
                searching.scanned = scanned;
                searching.total = total;
                self.message = Some(format!(
                    "searching for {}: {scanned} of {total} rows ({}: stop)",
                    searching.job.query,
                    keys::label(Action::Back, Some(self.tab))
                ));
            }
            Err(outcome) => {
                let job = searching.job.clone();
                self.searching = None;
                self.message = None;
                self.end_search(&job, outcome);
            }
        }
    }
}
