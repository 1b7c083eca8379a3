//! The Tensors view's state (a BTF file opened instead of the tabs): the
//! selected row, the scroll and the help line, the tensor opened in full
//! (its grid, cursor and zoom) and the `g` prompt, moved by the same key
//! table as the tabs' (`None` for its context).

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::app::events::{Effect, Event};
use crate::app::keys::{self, Action};
use crate::model::tensor_grid::Grid;
use crate::model::tensors::TensorFile;

/// A tensor shown in full.
pub struct Full {
    /// Its elements as rows and columns.
    pub grid: Grid,
    /// The selected row and column.
    pub row: u64,
    /// The selected column.
    pub column: u64,
    /// The first row and column drawn.
    pub top: u64,
    /// The first column drawn.
    pub left: u64,
    /// Numbers (`true`) or a heat map of background colours.
    pub numbers: bool,
    /// Rows and columns the last frame could show (for page moves).
    pub shown: (u64, u64),
}

impl Full {
    /// `grid` from its first element, as numbers when it is narrow.
    pub fn new(grid: Grid) -> Full {
        // A wide matrix starts as a heat map, a narrow one as numbers.
        let numbers = grid.columns <= 8 || grid.is_sparse();
        Full {
            grid,
            row: 0,
            column: 0,
            top: 0,
            left: 0,
            numbers,
            shown: (1, 1),
        }
    }

    /// Moves the selection (or toggles numbers and heat map) as `action`
    /// asks.
    pub fn act(&mut self, action: Action) {
        let last_row = self.grid.rows.saturating_sub(1);
        let last_column = self.grid.columns.saturating_sub(1);
        let page = self.shown.0.max(1);
        match action {
            Action::Down => self.row = self.row.saturating_add(1),
            Action::Up => self.row = self.row.saturating_sub(1),
            Action::Left => self.column = self.column.saturating_sub(1),
            Action::Right => self.column = self.column.saturating_add(1),
            Action::Top => self.row = 0,
            Action::Bottom => self.row = last_row,
            Action::PageDown => self.row = self.row.saturating_add(page),
            Action::PageUp => self.row = self.row.saturating_sub(page),
            Action::HalfPageDown => self.row = self.row.saturating_add(page / 2),
            Action::HalfPageUp => self.row = self.row.saturating_sub(page / 2),
            Action::Zoom => self.numbers = !self.numbers,
            _ => {}
        }
        self.row = self.row.min(last_row);
        self.column = self.column.min(last_column);
    }

    /// Keeps the selection within the `rows` and `columns` drawn.
    pub fn fit(&mut self, rows: u64, columns: u64) {
        self.shown = (rows.max(1), columns.max(1));
        let (rows, columns) = self.shown;
        if self.row < self.top {
            self.top = self.row;
        } else if self.row >= self.top + rows {
            self.top = self.row + 1 - rows;
        }
        if self.column < self.left {
            self.left = self.column;
        } else if self.column >= self.left + columns {
            self.left = self.column + 1 - columns;
        }
    }
}

/// The Tensors view's state: the file, the selected row and the scroll.
pub struct TensorsApp {
    /// The file shown.
    pub file: TensorFile,
    /// The selected row.
    pub selected: usize,
    /// The first row drawn.
    pub scroll: usize,
    /// Rows the last frame could show (for page moves).
    pub page: usize,
    /// Whether the help line is expanded.
    pub help: bool,
    /// The tensor opened in full (Enter), if any.
    pub full: Option<Full>,
    /// The `g` prompt's text while it is open: a tensor (or, in full, a
    /// row) to go to.
    pub prompt: Option<String>,
    /// A one-time message for the footer.
    pub message: Option<String>,
    /// Set when the user leaves.
    pub quit: bool,
    pending: Option<char>,
}

impl TensorsApp {
    /// The view of `file`, its first row selected.
    pub fn new(file: TensorFile) -> TensorsApp {
        TensorsApp {
            file,
            selected: 0,
            scroll: 0,
            page: 1,
            help: false,
            full: None,
            prompt: None,
            message: None,
            quit: false,
            pending: None,
        }
    }

    /// Applies `event`: keys through the shared key table; the rest only
    /// redraws. It asks for nothing.
    pub fn update(&mut self, event: Event) -> Vec<Effect> {
        if let Event::Key(key) = event {
            self.on_key(key);
        }
        Vec::new()
    }

    /// Handles a key through the shared key table.
    pub fn on_key(&mut self, key: KeyEvent) {
        self.message = None;
        if self.prompt.is_some() {
            self.on_prompt_key(key);
            return;
        }
        let (action, pending) = keys::lookup(&key, self.pending, None);
        self.pending = pending;
        if let Some(action) = action {
            self.act(action);
        }
    }

    fn on_prompt_key(&mut self, key: KeyEvent) {
        let again = keys::lookup(&key, None, None).0 == Some(Action::GotoOffset);
        let Some(text) = self.prompt.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Esc => self.prompt = None,
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Enter => {
                let text = self.prompt.take().unwrap_or_default();
                self.go_to(&text);
            }
            // `g` again on an empty prompt: the top, as `gg` elsewhere.
            _ if again && text.is_empty() => {
                self.prompt = None;
                self.act(Action::Top);
            }
            KeyCode::Char(c) if c.is_ascii_digit() && text.len() < 20 => text.push(c),
            _ => {}
        }
    }

    /// Goes to the tensor (or, in full, the row) typed at the prompt.
    fn go_to(&mut self, text: &str) {
        let Ok(at) = text.parse::<u64>() else {
            self.message = Some(format!("'{text}' is not a number"));
            return;
        };
        match &mut self.full {
            Some(full) if at < full.grid.rows => full.row = at,
            Some(full) => {
                self.message = Some(format!(
                    "no row {at}: rows are 0 to {}",
                    full.grid.rows.saturating_sub(1)
                ))
            }
            None if (at as usize) < self.file.rows.len() => self.selected = at as usize,
            None => {
                self.message = Some(format!(
                    "no tensor {at}: listed are 0 to {}",
                    self.file.rows.len().saturating_sub(1)
                ))
            }
        }
    }

    /// Applies `action`; those about other views do nothing here.
    pub fn act(&mut self, action: Action) {
        match action {
            Action::Help => {
                self.help = !self.help;
                return;
            }
            Action::Back if self.help => {
                self.help = false;
                return;
            }
            Action::Quit => {
                self.quit = true;
                return;
            }
            Action::GotoOffset => {
                self.prompt = Some(String::new());
                return;
            }
            Action::Back if self.full.is_some() => {
                self.full = None;
                return;
            }
            Action::Enter if self.full.is_none() => {
                match self.file.grid(self.selected as u64) {
                    Ok(grid) => self.full = Some(Full::new(grid)),
                    Err(why) => self.message = Some(why),
                }
                return;
            }
            _ => {}
        }
        if let Some(full) = &mut self.full {
            full.act(action);
            return;
        }
        let last = self.file.rows.len().saturating_sub(1);
        let page = self.page.max(1);
        self.selected = match action {
            Action::Down => self.selected.saturating_add(1),
            Action::Up => self.selected.saturating_sub(1),
            Action::Top => 0,
            Action::Bottom => last,
            Action::PageDown => self.selected.saturating_add(page),
            Action::PageUp => self.selected.saturating_sub(page),
            Action::HalfPageDown => self.selected.saturating_add(page / 2),
            Action::HalfPageUp => self.selected.saturating_sub(page / 2),
            _ => self.selected,
        }
        .min(last);
    }

    /// Keeps the selected row within the `rows` drawn from the scroll on.
    pub fn fit(&mut self, rows: usize) {
        self.page = rows.max(1);
        if self.selected < self.scroll {
            self.scroll = self.selected;
        } else if self.selected >= self.scroll + self.page {
            self.scroll = self.selected + 1 - self.page;
        }
    }
}
