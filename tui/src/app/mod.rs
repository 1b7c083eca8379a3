//! The one state struct of the inspector and how it changes:
//! [`App::update`] takes an event (a key through the key table, typed
//! prompt text, the mouse, time, the result of background work) and
//! returns what it asks of the world as effects. Nothing here draws,
//! reads files or starts threads; the lists it moves over are read
//! through [`crate::model::rows`].

pub mod events;
pub mod keys;
pub mod search;
pub mod tab;
pub mod worker;

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

use bef::inspect::Item;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use crate::app::events::{Effect, Event, RunRecorded};
use crate::app::keys::Action;
use crate::app::tab::Tab;
use crate::model::analysis::SourceKernel;
use crate::model::document::Document;
use crate::model::execution::Trace;
use crate::model::inspector;
use crate::model::rows::{self, Cursor, ListId, Snapshot, SortKey, State};

/// What a prompt is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// `/`: a search.
    Search,
    /// `g` in the hex view: an offset.
    Goto,
    /// `r` on a function that takes arguments: them, as JSON.
    Arguments,
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

/// The panes of the tabs that have two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The first (left or top) pane.
    First,
    /// The second.
    Second,
}

/// The selected cell of the focused list as the last frame drew it.
#[derive(Debug, Clone, Default)]
pub struct SelectedCell {
    /// Its column's header.
    pub header: &'static str,
    /// Its whole text (escaped).
    pub text: String,
    /// Whether the screen shows less than all of it.
    pub cut: bool,
    /// Whether the column cursor chose it.
    pub chosen: bool,
}

/// Where the last frame put things, for mouse clicks and the status line.
#[derive(Debug, Clone, Default)]
pub struct Areas {
    /// The tab titles line.
    pub tabs: Rect,
    /// The list under the mouse and the area of its rows.
    pub lists: [(Option<ListId>, Rect); 2],
    /// Rows of the hex view's bytes.
    pub hex: Rect,
    /// The focused list's selected cell.
    pub cell: Option<SelectedCell>,
}

/// The inspector's state.
pub struct App<'d, 'a> {
    /// The file.
    pub doc: &'d Document<'a>,
    /// The current tab.
    pub tab: Tab,
    /// Whether the help screen is up.
    pub help: bool,
    /// The first line of the help screen shown.
    pub help_scroll: usize,
    /// The users list `u` opened: its table, row, and first line shown.
    pub users_of: Option<(ListId, usize, usize)>,
    /// The line being typed, if any.
    pub prompt: Option<Prompt>,
    /// The function an arguments prompt is for.
    arguments_for: Option<String>,
    /// A one-time message for the status line.
    pub message: Option<String>,
    /// Set when the user quits.
    pub quit: bool,
    /// The list cursors, by [`ListId`].
    pub cursors: [Cursor; ListId::COUNT],
    /// The focused pane of tabs with two.
    pub pane: Pane,
    /// The Strings·Attributes·Types tab's table.
    pub table: ListId,
    /// The function opened on the Functions tab (function index).
    pub open_function: Option<usize>,
    /// The function table's row order (function indices).
    pub function_order: Vec<usize>,
    /// The column the function table is sorted by.
    pub sort: SortKey,
    /// The hex cursor (byte offset).
    pub hex_cursor: usize,
    /// The first line of the hex view.
    pub hex_scroll: usize,
    /// Bytes framed by Enter on a row.
    pub frame: Option<Range<usize>>,
    /// Whether the next hex frame scrolls to show all of `frame`.
    pub reveal_frame: bool,
    /// The tab and pane whose row Enter framed in hex: Esc goes back.
    pub framed_from: Option<(Tab, Pane)>,
    /// Bookmarked offsets.
    pub bookmarks: BTreeSet<usize>,
    /// The last search.
    pub search: Option<String>,
    /// Rows per page of the focused list, from the last frame.
    pub page: usize,
    /// Bytes per hex line, from the last frame.
    pub hex_width: usize,
    /// Where the last frame put things.
    pub areas: Areas,
    /// The recording the Execution tab shows, if any.
    pub trace: Option<Arc<Trace>>,
    /// The search running on a worker, if any.
    pub searching: Option<Searching>,
    /// How many searches have started (the last one's id).
    searches: u64,
    /// The recording being loaded in the background, if any.
    pub loading: Option<Loading>,
    /// The run `r` started, if it has not ended.
    run: Option<PendingRun>,
    /// What the app asks for, not yet taken by [`take_effects`](Self::take_effects).
    effects: Vec<Effect>,
    pending: Option<char>,
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

/// A recording being read on a worker while the view is live.
pub struct Loading {
    /// The recording file.
    pub path: std::path::PathBuf,
    /// What is being done now.
    pub phase: String,
    /// The first tick seen since loading began.
    started: Option<std::time::Instant>,
    /// Whole seconds loading so far.
    pub seconds: u64,
}

/// A run `r` started, recording on a worker while the view stays live.
struct PendingRun {
    name: String,
    /// The first tick seen since it started: its elapsed time counts from
    /// here.
    started: Option<std::time::Instant>,
    /// Whole seconds shown so far in the status line.
    shown_seconds: u64,
    /// Whether `r` asked it to stop.
    cancelling: bool,
}

impl<'d, 'a> App<'d, 'a> {
    /// A fresh app on `doc`, at the Sections tab.
    pub fn new(doc: &'d Document<'a>) -> App<'d, 'a> {
        App {
            doc,
            tab: Tab::Sections,
            help: false,
            help_scroll: 0,
            users_of: None,
            prompt: None,
            arguments_for: None,
            message: None,
            quit: false,
            cursors: [Cursor::default(); ListId::COUNT],
            pane: Pane::First,
            table: ListId::Strings,
            open_function: None,
            function_order: (0..doc.listing.function_count()).collect(),
            sort: SortKey::default(),
            hex_cursor: 0,
            hex_scroll: 0,
            frame: None,
            reveal_frame: false,
            framed_from: None,
            bookmarks: BTreeSet::new(),
            search: None,
            page: 20,
            hex_width: 16,
            areas: Areas::default(),
            trace: None,
            searching: None,
            searches: 0,
            loading: None,
            run: None,
            effects: Vec::new(),
            pending: None,
        }
    }

    /// A fresh app on `doc` with recording `trace`, at the Execution tab.
    pub fn with_trace(doc: &'d Document<'a>, trace: Trace) -> App<'d, 'a> {
        let mut app = App::new(doc);
        app.message = trace.program_note.clone();
        app.trace = Some(Arc::new(trace));
        app.tab = Tab::Execution;
        app
    }

    /// What the lists read, borrowed from the app.
    pub fn rows(&self) -> State<'_, 'a> {
        State {
            doc: self.doc,
            trace: self.trace.as_deref(),
            function_order: &self.function_order,
            open_function: self.open_function,
            sort: self.sort,
            cursors: &self.cursors,
        }
    }

    /// A fresh app on `doc` at the Execution tab, while the recording at
    /// `path` (which names `doc`'s program) loads in the background;
    /// [`Event::Loaded`] brings it.
    pub fn loading(doc: &'d Document<'a>, path: &std::path::Path) -> App<'d, 'a> {
        let mut app = App::new(doc);
        app.tab = Tab::Execution;
        app.loading = Some(Loading {
            path: path.to_owned(),
            phase: "opening".to_owned(),
            started: None,
            seconds: 0,
        });
        app
    }

    /// The event under the time cursor (an index into the trace's steps).
    pub fn time_cursor(&self) -> usize {
        self.rows().time_cursor()
    }

    /// The execution of the event under the time cursor.
    pub fn selected_execution(&self) -> Option<u64> {
        self.rows().selected_execution()
    }

    /// The status line's path on the Execution tab:
    /// `execution › @fib › kernel 7 › register %3`.
    pub fn execution_path(&self) -> String {
        bef::tool_io::escape::terminal(&self.raw_execution_path()).into_owned()
    }

    fn raw_execution_path(&self) -> String {
        let mut path = String::from("execution");
        let Some(trace) = self.trace.as_ref() else {
            return path + " › no recording";
        };
        let Some(step) = trace.steps.get(self.time_cursor()) else {
            return path;
        };
        let execution = step.event.execution;
        path.push_str(&format!(
            " › {} ({})",
            trace.function_name(execution),
            trace.execution_label(execution)
        ));
        if let Some(k) = step.kernel() {
            path.push_str(&format!(
                " › kernel {k} {}",
                trace.kernel_name(execution, k)
            ));
        }
        if self.pane == Pane::Second {
            let row = self.cursor(ListId::ExecRegisters).selected;
            let count = trace.registers_at(self.time_cursor(), execution).len();
            if row < count {
                path.push_str(&format!(" › register %{row}"));
            }
        }
        path
    }

    /// Asks for the function selected on the Functions tab to be run on
    /// the `s` work queue and recorded with `bef_trace` ([`Effect::Run`],
    /// performed by a worker so that the view stays live);
    /// [`Event::RunEnded`] shows the recording on the Execution tab. While
    /// it runs, this asks for it to be cancelled instead. A function with arguments asks for them first,
    /// as JSON (as `bef run --call` takes them); a failed run is a message.
    pub fn run_selected(&mut self) {
        if let Some(run) = &mut self.run {
            self.effects.push(Effect::CancelRun);
            run.cancelling = true;
            self.message = Some(format!(
                "cancelling @{}: kernels not started are skipped",
                run.name
            ));
            return;
        }
        let index = match self.open_function {
            Some(f) => Some(f),
            None => self
                .function_order
                .get(self.cursor(ListId::Functions).selected)
                .copied(),
        };
        let Some(entry) = index.and_then(|i| self.doc.listing.index_entry(i)) else {
            self.message = Some("no function selected".to_owned());
            return;
        };
        let name = entry.name.to_owned();
        if name.is_empty() {
            self.message = Some("an unnamed function cannot be run".to_owned());
            return;
        }
        if !entry.argument_types.is_empty() {
            self.message = Some(format!(
                "@{name} takes arguments: type them as a JSON list, {} runs ({}: cancel)",
                keys::label(Action::Enter, Some(Tab::Functions)),
                keys::label(Action::Back, Some(Tab::Functions))
            ));
            self.arguments_for = Some(name);
            self.prompt = Some(Prompt {
                kind: PromptKind::Arguments,
                text: String::new(),
            });
            return;
        }
        self.start_run(name, None);
    }

    /// Asks for `@name` to be run and recorded, with JSON `arguments` if
    /// it takes some.
    fn start_run(&mut self, name: String, arguments: Option<String>) {
        self.effects.push(Effect::Run {
            program: self.doc.loaded.path.clone(),
            function: name.clone(),
            arguments,
        });
        self.message = Some(format!(
            "running @{name}… ({} again cancels)",
            keys::label(Action::Run, Some(Tab::Functions))
        ));
        self.run = Some(PendingRun {
            name,
            started: None,
            shown_seconds: 0,
            cancelling: false,
        });
    }

    /// Whether a run started by `r` has not ended yet.
    pub fn running(&self) -> bool {
        self.run.is_some()
    }

    /// Applies `event` and returns what the app asks for in return; the
    /// only way the outside world changes the app.
    pub fn update(&mut self, event: Event) -> Vec<Effect> {
        match event {
            Event::Key(key) => self.on_key(key),
            Event::Mouse(mouse) => self.on_mouse(mouse),
            Event::Resize | Event::Analysed | Event::InputFailed(_) => {}
            Event::Tick(now) => self.tick(now),
            Event::RunEnded { name, outcome } => self.finish_run(name, outcome),
            Event::Loading(phase) => {
                if let Some(loading) = &mut self.loading {
                    loading.phase = phase;
                }
            }
            Event::Loaded(outcome) => self.finish_loading(outcome),
            Event::SearchProgress { id, scanned, total } => {
                self.search_report(id, Ok((scanned, total)))
            }
            Event::SearchEnded { id, outcome } => self.search_report(id, Err(outcome)),
            Event::SearchFailed(why) => {
                self.searching = None;
                self.message = Some(format!("cannot search: {why}"));
            }
        }
        self.take_effects()
    }

    /// What the app has asked for since last taken, oldest first.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Shows the recording loaded in the background, or why it is not.
    fn finish_loading(&mut self, outcome: Result<Box<Trace>, String>) {
        self.loading = None;
        match outcome {
            Ok(trace) => {
                self.message = trace.program_note.clone();
                self.trace = Some(Arc::new(*trace));
                *self.cursor_mut(ListId::Events) = Cursor::default();
                *self.cursor_mut(ListId::ExecRegisters) = Cursor::default();
            }
            Err(e) => self.message = Some(e),
        }
    }

    /// Keeps the elapsed times of loading and of a run current.
    fn tick(&mut self, now: std::time::Instant) {
        if let Some(loading) = &mut self.loading {
            let started = *loading.started.get_or_insert(now);
            loading.seconds = now.saturating_duration_since(started).as_secs();
        }
        let Some(run) = &mut self.run else {
            return;
        };
        let started = *run.started.get_or_insert(now);
        let seconds = now.saturating_duration_since(started).as_secs();
        if seconds == run.shown_seconds {
            return;
        }
        run.shown_seconds = seconds;
        self.message = Some(if run.cancelling {
            format!("cancelling @{}… {seconds} s", run.name)
        } else {
            format!(
                "running @{}… {seconds} s ({} again cancels)",
                run.name,
                keys::label(Action::Run, Some(Tab::Functions))
            )
        });
    }

    /// Shows the end of the run of `@name`: its recording on the
    /// Execution tab, or why there is none.
    fn finish_run(&mut self, name: String, outcome: Result<Box<RunRecorded>, String>) {
        self.run = None;
        match outcome {
            Ok(run) => {
                let RunRecorded {
                    trace,
                    failed,
                    cancelled,
                } = *run;
                self.message = Some(match &trace.program_note {
                    Some(note) => note.clone(),
                    None if cancelled => {
                        format!("cancelled @{name}: the recording stops where the run was stopped")
                    }
                    None if failed => format!("ran @{name}: it returned an error"),
                    None => format!("ran @{name}"),
                });
                self.trace = Some(Arc::new(trace));
                *self.cursor_mut(ListId::Events) = Cursor::default();
                *self.cursor_mut(ListId::ExecRegisters) = Cursor::default();
                self.tab = Tab::Execution;
                self.pane = Pane::First;
            }
            Err(text) => {
                self.message = Some(format!(
                    "cannot run @{name}: {}",
                    text.lines().next().unwrap_or("")
                ));
            }
        }
    }

    fn step_time(&mut self, action: Action) {
        let Some(trace) = self.trace.as_ref() else {
            self.message = Some("no recording".to_owned());
            return;
        };
        let cursor = self.time_cursor();
        let len = trace.steps.len();
        let next = match action {
            Action::StepBack => cursor.checked_sub(1),
            Action::StepForward => (cursor + 1 < len).then_some(cursor + 1),
            Action::KernelBack => trace.same_kernel(cursor, false),
            _ => trace.same_kernel(cursor, true),
        };
        match next {
            Some(at) => self.cursor_mut(ListId::Events).selected = at,
            None if matches!(action, Action::StepBack | Action::StepForward) => {
                self.message = Some("no further event".to_owned())
            }
            None => {
                let which = if action == Action::KernelBack {
                    "earlier"
                } else {
                    "later"
                };
                self.message = Some(format!(
                    "no {which} execution of this function reaches this kernel"
                ))
            }
        }
    }

    /// The list that keys move on the current tab, if any.
    pub fn active_list(&self) -> Option<ListId> {
        match (self.tab, self.pane) {
            (Tab::Sections, Pane::First) => Some(ListId::Sections),
            (Tab::Sections, Pane::Second) => Some(ListId::Findings),
            (Tab::Hex, _) => None,
            (Tab::Functions, _) if self.open_function.is_none() => Some(ListId::Functions),
            (Tab::Functions, Pane::First) => Some(ListId::Kernels),
            (Tab::Functions, Pane::Second) => Some(ListId::Registers),
            (Tab::Source, Pane::First) => Some(ListId::SourceKernels),
            (Tab::Source, Pane::Second) => Some(ListId::SourceLines),
            (Tab::Tables, _) => Some(self.table),
            (Tab::Execution, Pane::First) => Some(ListId::Events),
            (Tab::Execution, Pane::Second) => Some(ListId::ExecRegisters),
        }
    }

    /// The cursor of list `id`.
    pub fn cursor(&self, id: ListId) -> Cursor {
        self.cursors[id as usize]
    }

    /// The cursor of list `id`, to change.
    pub fn cursor_mut(&mut self, id: ListId) -> &mut Cursor {
        &mut self.cursors[id as usize]
    }

    /// The kernels the Source tab lists; empty until the analysis is done.
    pub fn source_kernels(&self) -> &'d [SourceKernel] {
        self.doc
            .analysis_ready()
            .map_or(&[][..], |a| a.kernels.as_slice())
    }

    /// The byte offset of the selection on the current tab.
    pub fn selected_offset(&mut self) -> usize {
        if self.tab == Tab::Hex {
            return self.hex_cursor;
        }
        self.selected_range().map_or(0, |r| r.start)
    }

    /// The bytes of the selected row on the current tab.
    pub fn selected_range(&mut self) -> Option<Range<usize>> {
        if self.tab == Tab::Hex {
            return Some(self.hex_cursor..self.hex_cursor + 1);
        }
        let id = self.active_list()?;
        let row = self.cursor(id).selected;
        if row >= rows::len(&self.rows(), id) {
            return None;
        }
        rows::range(&self.rows(), id, row)
    }

    /// Handles one key.
    pub fn on_key(&mut self, event: KeyEvent) {
        self.message = None;
        if event.modifiers.contains(KeyModifiers::CONTROL) && event.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        if self.prompt.is_some() {
            self.on_prompt_key(event);
            return;
        }
        let (action, pending) = keys::lookup(&event, self.pending, Some(self.tab));
        self.pending = pending;
        if let Some(action) = action {
            self.act(action);
        }
    }

    fn on_prompt_key(&mut self, event: KeyEvent) {
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
            PromptKind::Goto => match inspector::parse_offset(&prompt.text) {
                Some(at) if at < self.doc.bytes().len() => self.hex_cursor = at,
                Some(at) => self.message = Some(format!("offset {at:#x} is past the end")),
                None => self.message = Some(format!("'{}' is not an offset", prompt.text)),
            },
            PromptKind::Search => {
                self.search = Some(prompt.text);
                self.search_step(false);
            }
            PromptKind::Arguments => {
                if let Some(name) = self.arguments_for.take() {
                    self.start_run(name, Some(prompt.text));
                }
            }
        }
    }

    /// Moves to the next (or previous) match of the last search.
    fn search_step(&mut self, backward: bool) {
        let Some(query) = self.search.clone() else {
            self.message = Some(format!(
                "no search yet: press {}",
                keys::label(Action::Search, Some(self.tab))
            ));
            return;
        };
        if self.tab == Tab::Hex {
            match inspector::parse_pattern(&query) {
                Err(e) => self.message = Some(e),
                Ok(needle) => {
                    match inspector::find(self.doc.bytes(), &needle, self.hex_cursor, backward) {
                        Some(at) => {
                            self.hex_cursor = at;
                            self.frame = Some(at..at + needle.len());
                        }
                        None => self.message = Some(format!("{query} not found")),
                    }
                }
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
        let snapshot = Snapshot::of(&self.rows(), self.trace.clone());
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
    fn end_search(&mut self, job: &search::Job, outcome: search::Outcome) {
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
    fn search_report(&mut self, id: u64, report: Result<(usize, usize), search::Outcome>) {
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

    /// Does what `action` asks on the current tab.
    pub fn act(&mut self, action: Action) {
        if let Some((id, row, scroll)) = self.users_of {
            let last = self.users_list(id, row).len().saturating_sub(1);
            let page = self.page.max(1);
            let scroll = match action {
                Action::Quit => {
                    self.quit = true;
                    scroll
                }
                Action::Users | Action::Back => {
                    self.users_of = None;
                    return;
                }
                Action::Down => (scroll + 1).min(last),
                Action::Up => scroll.saturating_sub(1),
                Action::PageDown | Action::HalfPageDown => (scroll + page).min(last),
                Action::PageUp | Action::HalfPageUp => scroll.saturating_sub(page),
                Action::Top => 0,
                Action::Bottom => last,
                _ => scroll,
            };
            self.users_of = Some((id, row, scroll));
            return;
        }
        if self.help {
            let last = crate::ui::help::lines().len().saturating_sub(1);
            let page = self.page.max(1);
            let scroll = &mut self.help_scroll;
            match action {
                Action::Quit => self.quit = true,
                Action::Help | Action::Back => self.help = false,
                Action::Down => *scroll = (*scroll + 1).min(last),
                Action::Up => *scroll = scroll.saturating_sub(1),
                Action::PageDown | Action::HalfPageDown => *scroll = (*scroll + page).min(last),
                Action::PageUp | Action::HalfPageUp => *scroll = scroll.saturating_sub(page),
                Action::Top => *scroll = 0,
                Action::Bottom => *scroll = last,
                _ => {}
            }
            return;
        }
        let page = self.page.max(1) as isize;
        match action {
            Action::Quit => self.quit = true,
            Action::Help => {
                self.help = true;
                self.help_scroll = 0;
            }
            Action::NextTab => self.switch_tab((self.tab.index() + 1) % Tab::ALL.len()),
            Action::PrevTab => {
                self.switch_tab((self.tab.index() + Tab::ALL.len() - 1) % Tab::ALL.len())
            }
            Action::Tab(i) => {
                if i < Tab::ALL.len() {
                    self.switch_tab(i)
                } else {
                    self.message = Some(format!("no tab {}", i + 1));
                }
            }
            Action::Down => self.step(1),
            Action::Up => self.step(-1),
            Action::HalfPageDown => self.step(page / 2),
            Action::HalfPageUp => self.step(-(page / 2)),
            Action::PageDown => self.step(page),
            Action::PageUp => self.step(-page),
            Action::Top => self.step(isize::MIN / 2),
            Action::Bottom => self.step(isize::MAX / 2),
            Action::Left => self.side(-1),
            Action::Right => self.side(1),
            Action::Enter => self.enter(),
            Action::Back => self.back(),
            Action::ShowBytes => self.show_bytes(),
            Action::Search => {
                self.prompt = Some(Prompt {
                    kind: PromptKind::Search,
                    text: String::new(),
                })
            }
            Action::SearchNext => self.search_step(false),
            Action::SearchPrev => self.search_step(true),
            Action::GotoOffset => {
                if self.tab == Tab::Hex {
                    self.prompt = Some(Prompt {
                        kind: PromptKind::Goto,
                        text: String::new(),
                    })
                }
            }
            Action::Bookmark => {
                if self.tab == Tab::Hex {
                    let at = self.hex_cursor;
                    let set = !self.bookmarks.remove(&at);
                    if set {
                        self.bookmarks.insert(at);
                    }
                    let count = self.bookmarks.len();
                    let next = keys::label(Action::NextBookmark, Some(Tab::Hex));
                    self.message = Some(if set {
                        format!("mark set at {at:#x} ({count} marks; {next} goes to the next)")
                    } else {
                        format!("mark at {at:#x} removed ({count} marks left)")
                    });
                }
            }
            Action::NextBookmark => {
                if self.tab == Tab::Hex {
                    let next = self
                        .bookmarks
                        .range(self.hex_cursor + 1..)
                        .next()
                        .or_else(|| self.bookmarks.iter().next());
                    match next {
                        Some(&at) => self.hex_cursor = at,
                        None => {
                            self.message = Some(format!(
                                "no bookmarks: press {}",
                                keys::label(Action::Bookmark, Some(Tab::Hex))
                            ))
                        }
                    }
                }
            }
            Action::Sort => {
                if self.tab == Tab::Functions && self.open_function.is_none() {
                    self.sort = self.sort.next();
                    self.sort_functions();
                }
            }
            Action::Copy => self.copy(),
            Action::Run => {
                // A run in progress is cancelled from any tab.
                if self.tab == Tab::Functions || self.running() {
                    self.run_selected()
                }
            }
            Action::StepBack | Action::StepForward | Action::KernelBack | Action::KernelForward => {
                if self.tab == Tab::Execution {
                    self.step_time(action)
                }
            }
            Action::Users => self.open_users(),
            Action::ColumnLeft => self.move_column(-1),
            Action::ColumnRight => self.move_column(1),
        }
    }

    /// Opens the list of every user of the selected string, attribute or
    /// type (the table cell names the first few).
    fn open_users(&mut self) {
        let Some(id) = self.active_list() else {
            return;
        };
        if !matches!(id, ListId::Strings | ListId::Attributes | ListId::Types) {
            self.message = Some(format!(
                "{} lists users in the strings, attributes and types tables",
                keys::label(Action::Users, Some(Tab::Tables))
            ));
            return;
        }
        if self.doc.analysis_ready().is_none() {
            self.message = Some("still analysing: users are not known yet".to_owned());
            return;
        }
        let row = self.cursor(id).selected;
        if self.users_list(id, row).is_empty() {
            self.message = Some("no users".to_owned());
            return;
        }
        self.users_of = Some((id, row, 0));
    }

    /// Every user of row `row` of table `id` (strings, attributes, types),
    /// once the analysis is done.
    pub fn users_list(&self, id: ListId, row: usize) -> &'d [crate::model::analysis::User] {
        rows::tables::users(self.doc, id, row)
    }

    /// Moves the focused list's column cursor, starting from its main
    /// column.
    fn move_column(&mut self, delta: isize) {
        let Some(id) = self.active_list() else {
            return;
        };
        let last = rows::columns(id).len().saturating_sub(1);
        let cursor = self.cursor_mut(id);
        let from = cursor.column.unwrap_or(rows::main_column(id));
        cursor.column = Some(from.saturating_add_signed(delta).min(last));
    }

    fn step(&mut self, delta: isize) {
        if self.tab == Tab::Hex {
            let width = self.hex_width.max(1) as isize;
            let last = self.doc.bytes().len().saturating_sub(1);
            self.hex_cursor = self
                .hex_cursor
                .saturating_add_signed(delta.saturating_mul(width))
                .min(last);
            return;
        }
        let Some(id) = self.active_list() else {
            return;
        };
        let len = rows::len(&self.rows(), id);
        self.cursor_mut(id).step(delta, len);
        if id == ListId::SourceKernels {
            self.follow_kernel_to_source();
        } else if id == ListId::SourceLines {
            self.follow_source_to_kernel();
        }
    }

    fn side(&mut self, delta: isize) {
        match self.tab {
            Tab::Hex => {
                let last = self.doc.bytes().len().saturating_sub(1);
                self.hex_cursor = self.hex_cursor.saturating_add_signed(delta).min(last);
            }
            Tab::Tables => {
                let tables = rows::TABLES;
                let i = tables.iter().position(|&t| t == self.table).unwrap_or(0);
                let n = tables.len() as isize;
                self.table = tables[(i as isize + delta).rem_euclid(n) as usize];
            }
            Tab::Sections | Tab::Source | Tab::Execution => {
                self.pane = if delta < 0 { Pane::First } else { Pane::Second };
            }
            Tab::Functions if self.open_function.is_some() => {
                self.pane = if delta < 0 { Pane::First } else { Pane::Second };
            }
            Tab::Functions => {}
        }
    }

    fn switch_tab(&mut self, index: usize) {
        let offset = self.selected_offset();
        let from = self.tab;
        self.tab = Tab::ALL[index];
        self.framed_from = None;
        self.pane = Pane::First;
        if from == Tab::Hex {
            self.follow_offset(offset);
        }
        if self.tab == Tab::Source {
            self.follow_kernel_to_source();
        }
    }

    fn enter(&mut self) {
        match (self.tab, self.active_list()) {
            (Tab::Functions, Some(ListId::Functions)) => {
                let row = self.cursor(ListId::Functions).selected;
                let Some(&index) = self.function_order.get(row) else {
                    return;
                };
                if self.doc.listing.function(index).is_some() {
                    self.open_function = Some(index);
                    self.pane = Pane::First;
                    *self.cursor_mut(ListId::Kernels) = Cursor::default();
                    *self.cursor_mut(ListId::Registers) = Cursor::default();
                } else {
                    self.show_bytes();
                }
            }
            (Tab::Hex, _) => {
                let path = self.doc.listing.item_at(self.hex_cursor);
                self.frame = path
                    .field
                    .map(|f| f.range)
                    .or_else(|| self.doc.listing.range_of(&path.items));
            }
            _ => self.show_bytes(),
        }
    }

    fn back(&mut self) {
        if let Some(searching) = self.searching.take() {
            self.effects.push(Effect::CancelSearch);
            self.end_search(&searching.job, search::Outcome::Cancelled);
        } else if self.tab == Tab::Functions && self.open_function.is_some() {
            self.open_function = None;
            self.pane = Pane::First;
        } else if self.tab == Tab::Hex {
            self.frame = None;
            // Back to the row the bytes were framed from, as it was.
            if let Some((tab, pane)) = self.framed_from.take() {
                self.tab = tab;
                self.pane = pane;
            }
        }
    }

    /// Frames the selected row's bytes in the hex view.
    pub fn show_bytes(&mut self) {
        let Some(range) = self.selected_range() else {
            self.message = Some("this row has no bytes".to_owned());
            return;
        };
        self.hex_cursor = range.start.min(self.doc.bytes().len().saturating_sub(1));
        self.frame = Some(range);
        self.reveal_frame = true;
        if self.tab != Tab::Hex {
            self.framed_from = Some((self.tab, self.pane));
        }
        self.tab = Tab::Hex;
    }

    fn copy(&mut self) {
        let text = if self.tab == Tab::Hex {
            format!("{:#x}", self.hex_cursor)
        } else if let Some(id) = self.active_list() {
            let row = self.cursor(id).selected;
            if row < rows::len(&self.rows(), id) {
                rows::value(&self.rows(), id, row)
            } else {
                return;
            }
        } else {
            return;
        };
        self.message = Some(format!("copied {}", crate::model::names::clip(&text, 60)));
        self.effects.push(Effect::Copy(text));
    }

    /// Selects, in every list, the rows holding byte `offset`.
    pub fn follow_offset(&mut self, offset: usize) {
        let listing = &self.doc.listing;
        let path = listing.item_at(offset);
        let mut function = None;
        for item in path.items {
            match item {
                Item::Section(i) => self.cursor_mut(ListId::Sections).selected = i,
                Item::String(i) => self.cursor_mut(ListId::Strings).selected = i,
                Item::Attribute(i) | Item::AttributeType(i) => {
                    self.cursor_mut(ListId::Attributes).selected = i
                }
                Item::Type(i) => self.cursor_mut(ListId::Types).selected = i,
                Item::Location(i) => self.cursor_mut(ListId::Locations).selected = i,
                Item::Function(i) | Item::IndexEntry(i) => {
                    function = Some(i);
                    if let Some(row) = self.function_order.iter().position(|&f| f == i) {
                        self.cursor_mut(ListId::Functions).selected = row;
                    }
                }
                Item::Kernel(k) => {
                    if let Some(f) = function {
                        self.open_function = Some(f);
                        let kernels = listing.function(f).map_or(&[][..], |f| f.kernels());
                        if let Some(row) = kernels.iter().position(|x| x.index == k) {
                            self.cursor_mut(ListId::Kernels).selected = row;
                        }
                        if let Some(row) = self
                            .source_kernels()
                            .iter()
                            .position(|x| (x.function, x.kernel) == (f, k))
                        {
                            self.cursor_mut(ListId::SourceKernels).selected = row;
                        }
                    }
                }
                Item::Register(r) => {
                    if let Some(f) = function {
                        self.open_function = Some(f);
                        self.cursor_mut(ListId::Registers).selected = r;
                    }
                }
                _ => {}
            }
        }
    }

    /// The source line (0-based) of the Source tab's selected kernel.
    pub fn selected_kernel_line(&self) -> Option<usize> {
        let row = self.cursor(ListId::SourceKernels).selected;
        self.source_kernels().get(row)?.line
    }

    fn follow_kernel_to_source(&mut self) {
        if let Some(line) = self.selected_kernel_line() {
            self.cursor_mut(ListId::SourceLines).selected = line;
        }
    }

    /// Selects the first kernel on the selected source line, if any.
    fn follow_source_to_kernel(&mut self) {
        let line = self.cursor(ListId::SourceLines).selected;
        if let Some(row) = self
            .source_kernels()
            .iter()
            .position(|k| k.line == Some(line))
        {
            self.cursor_mut(ListId::SourceKernels).selected = row;
        }
    }

    /// Sorts the function table by [`sort`](Self::sort).
    pub fn sort_functions(&mut self) {
        self.sort.sort(&self.doc.listing, &mut self.function_order);
        self.message = Some(format!("sorted by {}", self.sort.name()));
    }

    /// Handles a mouse event: the wheel scrolls, a click selects a tab or a
    /// row.
    pub fn on_mouse(&mut self, event: MouseEvent) {
        // Over the help screen or a users list the wheel scrolls it, not
        // the list hidden behind.
        let overlay = self.help || self.users_of.is_some();
        match event.kind {
            MouseEventKind::ScrollDown if overlay => (0..3).for_each(|_| self.act(Action::Down)),
            MouseEventKind::ScrollUp if overlay => (0..3).for_each(|_| self.act(Action::Up)),
            MouseEventKind::ScrollDown => self.step(3),
            MouseEventKind::ScrollUp => self.step(-3),
            MouseEventKind::Down(MouseButton::Left) => self.click(event.column, event.row),
            _ => {}
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        let inside = |r: Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
        if self.help || self.users_of.is_some() {
            return;
        }
        if inside(self.areas.tabs) {
            // Titles are drawn as " N Title " separated by "│".
            let mut left = self.areas.tabs.x;
            for (i, label) in Tab::labels(self.areas.tabs.width).iter().enumerate() {
                let width = label.chars().count() as u16 + 1;
                if x < left + width {
                    self.switch_tab(i);
                    return;
                }
                left += width;
            }
            return;
        }
        for (pane, (id, area)) in self.areas.lists.into_iter().enumerate() {
            let Some(id) = id else { continue };
            if inside(area) {
                self.pane = if pane == 0 { Pane::First } else { Pane::Second };
                let row = self.cursor(id).scroll + (y - area.y) as usize;
                if row < rows::len(&self.rows(), id) {
                    self.cursor_mut(id).selected = row;
                    if id == ListId::SourceKernels {
                        self.follow_kernel_to_source();
                    } else if id == ListId::SourceLines {
                        self.follow_source_to_kernel();
                    }
                }
                return;
            }
        }
        if inside(self.areas.hex) {
            let line = self.hex_scroll + (y - self.areas.hex.y) as usize;
            // Hex cells are "hh " after a 10-column offset.
            let column = (x - self.areas.hex.x).saturating_sub(10) as usize / 3;
            let at = line * self.hex_width + column.min(self.hex_width - 1);
            if at < self.doc.bytes().len() {
                self.hex_cursor = at;
            }
        }
    }
}
