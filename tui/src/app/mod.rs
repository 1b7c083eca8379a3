//! The one state struct of the inspector and how it changes:
//! [`App::update`] takes an event (a key through the key table, typed
//! prompt text, the mouse, time, the result of background work) and
//! returns what it asks of the world as effects. Nothing here draws,
//! reads files or starts threads; the lists it moves over are read
//! through [`crate::model::rows`].
//!
//! The tabs with state of their own keep it in a component that also
//! holds what their keys do to it ([`hex`], [`functions`], [`execution`]);
//! [`App::act`] dispatches an action to the current tab's. The prompt and
//! its searches ([`prompt`]), the screens drawn over a tab (`overlay`) and
//! the mouse (`mouse`) extend the app in files of their own.

pub mod attach;
pub mod compare;
pub mod events;
pub mod execution;
pub mod functions;
pub mod hex;
pub mod keys;
pub mod live;
mod mouse;
mod overlay;
pub mod prompt;
pub mod search;
pub mod tab;
pub mod tensors;
mod watch;
pub mod worker;

pub use execution::{Execution, Loading};
pub use functions::Functions;
pub use hex::Hex;
pub use prompt::{Prompt, PromptKind, Searching};

use std::ops::Range;
use std::sync::Arc;

use bef::inspect::Item;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use crate::app::events::{Effect, Event};
use crate::app::keys::Action;
use crate::app::tab::Tab;
use crate::model::analysis::SourceKernel;
use crate::model::document::Document;
use crate::model::execution::Trace;
use crate::model::rows::{self, Cursor, ListId, State};

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

/// A register's recorded value shown in full over the Execution tab.
#[derive(Debug, Clone)]
pub struct ValueShown {
    /// What it is the value of.
    pub title: String,
    /// The value as recorded.
    pub text: String,
    /// The first line shown.
    pub scroll: usize,
    /// Lines it takes as last drawn (wrapped to the screen).
    pub lines: usize,
}

/// A register's value recorded in full (`--values=full`), shown as the
/// Tensors view shows a tensor.
pub struct ValueGrid {
    /// The grid, its cursor and zoom.
    pub full: crate::app::tensors::Full,
    /// The recorded elements the grid reads.
    pub elements: std::sync::Arc<bef_trace::capture::recording::ValueElements>,
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
    /// The register value Enter opened on the Execution tab, if any.
    pub value_of: Option<ValueShown>,
    /// The register value Enter opened in full, when it was recorded with
    /// its elements.
    pub value_grid: Option<ValueGrid>,
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
    /// The Hex tab.
    pub hex: Hex,
    /// The Functions tab.
    pub functions: Functions,
    /// The Execution tab.
    pub execution: Execution,
    /// The tab and pane whose row Enter framed in hex: Esc goes back.
    pub framed_from: Option<(Tab, Pane)>,
    /// The last search.
    pub search: Option<String>,
    /// Rows per page of the focused list, from the last frame.
    pub page: usize,
    /// Where the last frame put things.
    pub areas: Areas,
    /// The search running on a worker, if any.
    pub searching: Option<Searching>,
    /// How many searches have started (the last one's id).
    searches: u64,
    /// What the app asks for, not yet taken by [`take_effects`](Self::take_effects).
    effects: Vec<Effect>,
    pending: Option<char>,
    /// The live recording followed (`--attach`), if any.
    pub live: Option<live::Live>,
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
            value_of: None,
            value_grid: None,
            prompt: None,
            arguments_for: None,
            message: None,
            quit: false,
            cursors: [Cursor::default(); ListId::COUNT],
            pane: Pane::First,
            table: ListId::Strings,
            hex: Hex::default(),
            functions: Functions::new(&doc.listing),
            execution: Execution::default(),
            framed_from: None,
            search: None,
            page: 20,
            areas: Areas::default(),
            searching: None,
            searches: 0,
            effects: Vec::new(),
            pending: None,
            live: None,
        }
    }

    /// A fresh app on `doc` with recording `trace`, at the Execution tab.
    pub fn with_trace(doc: &'d Document<'a>, trace: Trace) -> App<'d, 'a> {
        let mut app = App::new(doc);
        app.message = trace.program_note.clone();
        app.execution.trace = Some(Arc::new(trace));
        app.tab = Tab::Execution;
        app
    }

    /// What the lists read, borrowed from the app.
    pub fn rows(&self) -> State<'_, 'a> {
        State {
            doc: self.doc,
            trace: self.execution.trace.as_deref(),
            function_order: &self.functions.order,
            open_function: self.functions.open,
            sort: self.functions.sort,
            profile_sort: self.functions.profile_sort,
            cursors: &self.cursors,
        }
    }

    /// A fresh app on `doc` at the Execution tab, while the recording at
    /// `path` (which names `doc`'s program) loads in the background;
    /// [`Event::Loaded`] brings it.
    pub fn loading(doc: &'d Document<'a>, path: &std::path::Path) -> App<'d, 'a> {
        let mut app = App::new(doc);
        app.tab = Tab::Execution;
        app.execution.loading = Some(Loading::new(path));
        app
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
                if let Some(loading) = &mut self.execution.loading {
                    loading.phase = phase;
                }
            }
            Event::Loaded(outcome) => self.finish_loading(outcome),
            Event::SearchProgress { id, scanned, total } => {
                self.search_report(id, Ok((scanned, total)))
            }
            Event::SearchEnded { id, outcome } => self.search_report(id, Err(outcome)),
            Event::LiveUpdate { trace, ended } => self.live_update(*trace, ended),
            Event::LiveLost(why) => self.live_lost(why),
            Event::LiveSaved(outcome) => {
                self.message = Some(outcome.unwrap_or_else(|e| e));
            }
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

    /// The list that keys move on the current tab, if any.
    pub fn active_list(&self) -> Option<ListId> {
        match (self.tab, self.pane) {
            (Tab::Sections, Pane::First) => Some(ListId::Sections),
            (Tab::Sections, Pane::Second) => Some(ListId::Findings),
            (Tab::Hex, _) => None,
            (Tab::Functions, Pane::Second)
                if self.functions.open.is_none() && self.execution.trace.is_some() =>
            {
                Some(self.functions.profile)
            }
            (Tab::Functions, _) if self.functions.open.is_none() => Some(ListId::Functions),
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
            return self.hex.cursor;
        }
        self.selected_range().map_or(0, |r| r.start)
    }

    /// The bytes of the selected row on the current tab.
    pub fn selected_range(&mut self) -> Option<Range<usize>> {
        if self.tab == Tab::Hex {
            return Some(self.hex.cursor..self.hex.cursor + 1);
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
        // A value open in full takes the Tensors view's keys (`z`).
        let context = if self.value_grid.is_some() {
            None
        } else {
            Some(self.tab)
        };
        let (action, pending) = keys::lookup(&event, self.pending, context);
        self.pending = pending;
        if let Some(action) = action {
            self.act(action);
        }
    }

    /// Does what `action` asks on the current tab.
    pub fn act(&mut self, action: Action) {
        if self.act_on_overlay(action) {
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
            Action::Search => self.prompt = Some(Prompt::new(PromptKind::Search)),
            Action::SearchNext => self.search_step(false),
            Action::SearchPrev => self.search_step(true),
            Action::GotoOffset => {
                if self.tab == Tab::Hex {
                    self.prompt = Some(Prompt::new(PromptKind::Goto))
                }
            }
            Action::Bookmark => {
                if self.tab == Tab::Hex {
                    self.message = Some(self.hex.toggle_mark());
                }
            }
            Action::NextBookmark => {
                if self.tab == Tab::Hex {
                    self.message = self.hex.next_mark();
                }
            }
            Action::Sort => match self.active_list() {
                Some(ListId::Functions) => {
                    self.message = Some(self.functions.sort_next(&self.doc.listing));
                }
                Some(ListId::KernelProfile | ListId::FunctionProfile) => {
                    self.message = Some(self.functions.profile_sort_next());
                }
                _ => {}
            },
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
            Action::Producer | Action::NextReader | Action::PrevReader => {
                if self.tab == Tab::Execution {
                    self.follow_value(action)
                }
            }
            Action::Watch
            | Action::WatchErrors
            | Action::WatchValue
            | Action::WatchNext
            | Action::WatchPrev => {
                if self.tab == Tab::Execution {
                    self.watch_action(action)
                }
            }
            Action::LivePause | Action::LiveSave => {
                if self.tab == Tab::Execution {
                    self.live_action(action)
                }
            }
            Action::Users => self.open_users(),
            // The Tensors view's alone.
            Action::Zoom => {}
            Action::ColumnLeft => self.move_column(-1),
            Action::ColumnRight => self.move_column(1),
        }
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
            self.hex.step(delta, self.doc.bytes().len());
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
            Tab::Hex => self.hex.side(delta, self.doc.bytes().len()),
            Tab::Tables => {
                let tables = rows::TABLES;
                let i = tables.iter().position(|&t| t == self.table).unwrap_or(0);
                let n = tables.len() as isize;
                self.table = tables[(i as isize + delta).rem_euclid(n) as usize];
            }
            Tab::Sections | Tab::Source | Tab::Execution => {
                self.pane = if delta < 0 { Pane::First } else { Pane::Second };
            }
            Tab::Functions if self.functions.open.is_some() => {
                self.pane = if delta < 0 { Pane::First } else { Pane::Second };
            }
            // With a recording: the function table, then the recorded
            // kernels, then the recorded functions.
            Tab::Functions if self.execution.trace.is_some() => {
                let profile = &mut self.functions.profile;
                match (self.pane, delta < 0) {
                    (Pane::First, false) => {
                        self.pane = Pane::Second;
                        *profile = ListId::KernelProfile;
                    }
                    (Pane::Second, false) => *profile = ListId::FunctionProfile,
                    (Pane::Second, true) if *profile == ListId::FunctionProfile => {
                        *profile = ListId::KernelProfile
                    }
                    (_, true) => self.pane = Pane::First,
                }
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
                let Some(&index) = self.functions.order.get(row) else {
                    return;
                };
                if self.doc.listing.function(index).is_some() {
                    self.functions.open = Some(index);
                    self.pane = Pane::First;
                    *self.cursor_mut(ListId::Kernels) = Cursor::default();
                    *self.cursor_mut(ListId::Registers) = Cursor::default();
                } else {
                    self.show_bytes();
                }
            }
            (Tab::Hex, _) => self.hex.frame_item(&self.doc.listing),
            (Tab::Execution, Some(ListId::ExecRegisters)) => self.open_value(),
            (Tab::Functions, Some(id @ (ListId::KernelProfile | ListId::FunctionProfile))) => {
                self.show_slowest(id)
            }
            _ => self.show_bytes(),
        }
    }

    fn back(&mut self) {
        if let Some(searching) = self.searching.take() {
            self.effects.push(Effect::CancelSearch);
            self.end_search(&searching.job, search::Outcome::Cancelled);
        } else if self.tab == Tab::Functions && self.functions.open.is_some() {
            self.functions.open = None;
            self.pane = Pane::First;
        } else if self.tab == Tab::Hex {
            self.hex.frame = None;
            // Back to the row the bytes were framed from, as it was.
            if let Some((tab, pane)) = self.framed_from.take() {
                self.tab = tab;
                self.pane = pane;
            }
        }
    }

    /// Moves the time cursor to the slowest run (or execution) of the
    /// selected row of recorded table `id`, on the Execution tab.
    fn show_slowest(&mut self, id: ListId) {
        let row = self.cursor(id).selected;
        let state = self.rows();
        let target = rows::profile::row(&state, id, row).and_then(|r| r.slowest);
        let step = target.and_then(|(execution, kernel)| {
            self.execution.trace.as_ref()?.start_of(execution, kernel)
        });
        let Some(step) = step else {
            self.message = Some("no recorded run to show".to_owned());
            return;
        };
        self.cursor_mut(ListId::Events).selected = step;
        self.switch_tab(Tab::Execution.index());
        self.message = Some("the slowest run".to_owned());
    }

    /// Frames the selected row's bytes in the hex view.
    pub fn show_bytes(&mut self) {
        let Some(range) = self.selected_range() else {
            self.message = Some("this row has no bytes".to_owned());
            return;
        };
        self.hex.show(range, self.doc.bytes().len());
        if self.tab != Tab::Hex {
            self.framed_from = Some((self.tab, self.pane));
        }
        self.tab = Tab::Hex;
    }

    fn copy(&mut self) {
        let text = if self.tab == Tab::Hex {
            format!("{:#x}", self.hex.cursor)
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
                    if let Some(row) = self.functions.row_of(i) {
                        self.cursor_mut(ListId::Functions).selected = row;
                    }
                }
                Item::Kernel(k) => {
                    if let Some(f) = function {
                        self.functions.open = Some(f);
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
                        self.functions.open = Some(f);
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
}
