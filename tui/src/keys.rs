//! The key table: every binding with its help text. Key events map to
//! [`Action`]s through it, and the `?` screen and the footer are generated
//! from it, so they cannot disagree with what the keys do.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key asks for. Keys never act directly: the app interprets the
/// action for the current view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Next row (hex: next line).
    Down,
    /// Previous row.
    Up,
    /// Hex: previous byte; tables: previous pane.
    Left,
    /// Hex: next byte; tables: next pane.
    Right,
    /// First row or byte (`gg`).
    Top,
    /// Last row or byte.
    Bottom,
    /// Half a page down.
    HalfPageDown,
    /// Half a page up.
    HalfPageUp,
    /// A page down.
    PageDown,
    /// A page up.
    PageUp,
    /// Next tab.
    NextTab,
    /// Previous tab.
    PrevTab,
    /// Tab number N (0-based).
    Tab(usize),
    /// Open the selected row: drill into a function, or frame the row's
    /// bytes in the hex view.
    Enter,
    /// Back out: close help or a prompt, leave a function.
    Back,
    /// Frame the selected row's bytes in the hex view.
    ShowBytes,
    /// Search: rows by text; in the hex view bytes, text or a VBR value.
    Search,
    /// Next match.
    SearchNext,
    /// Previous match.
    SearchPrev,
    /// Hex view: go to an offset.
    GotoOffset,
    /// Hex view: toggle a bookmark at the cursor.
    Bookmark,
    /// Hex view: jump to the next bookmark.
    NextBookmark,
    /// Functions: sort by the next column.
    Sort,
    /// Copy the selected value to the clipboard (OSC 52).
    Copy,
    /// Functions: run the selected function (asking for its arguments, as
    /// JSON, if it takes some), record it and show the recording in the
    /// Execution tab.
    Run,
    /// Execution: the time cursor one event back.
    StepBack,
    /// Execution: the time cursor one event on.
    StepForward,
    /// Execution: the same kernel in the previous execution of its
    /// function.
    KernelBack,
    /// Execution: the same kernel in the next execution of its function.
    KernelForward,
    /// Strings, attributes, types: list every user of the selected row.
    Users,
    /// Tables: the column cursor one column left (shows hidden columns).
    ColumnLeft,
    /// Tables: the column cursor one column right.
    ColumnRight,
    /// Show or hide the help screen.
    Help,
    /// Leave.
    Quit,
}

/// A key as the table spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A character, without Ctrl or Alt.
    Char(char),
    /// Ctrl and a character.
    Ctrl(char),
    /// A named key without modifiers (Shift allowed for BackTab).
    Code(KeyCode),
    /// The same character twice (`gg`).
    Twice(char),
}

/// One row of the table.
pub struct Binding {
    /// The keys that trigger it.
    pub keys: &'static [Key],
    /// What they do.
    pub action: Action,
    /// The help text.
    pub help: &'static str,
    /// Shown in the footer.
    pub footer: bool,
}

const fn b(keys: &'static [Key], action: Action, help: &'static str, footer: bool) -> Binding {
    Binding {
        keys,
        action,
        help,
        footer,
    }
}

use Key::{Char, Code, Ctrl, Twice};

/// Every binding, in help-screen order.
pub const BINDINGS: &[Binding] = &[
    b(
        &[Char('j'), Code(KeyCode::Down)],
        Action::Down,
        "next row / line",
        false,
    ),
    b(
        &[Char('k'), Code(KeyCode::Up)],
        Action::Up,
        "previous row / line",
        false,
    ),
    b(
        &[Char('h'), Code(KeyCode::Left)],
        Action::Left,
        "hex: previous byte; source: kernels pane",
        false,
    ),
    b(
        &[Char('l'), Code(KeyCode::Right)],
        Action::Right,
        "hex: next byte; source: source pane",
        false,
    ),
    b(
        &[Twice('g'), Code(KeyCode::Home)],
        Action::Top,
        "first row / byte",
        false,
    ),
    b(
        &[Char('G'), Code(KeyCode::End)],
        Action::Bottom,
        "last row / byte",
        false,
    ),
    b(
        &[Ctrl('d')],
        Action::HalfPageDown,
        "half a page down",
        false,
    ),
    b(&[Ctrl('u')], Action::HalfPageUp, "half a page up", false),
    b(
        &[Code(KeyCode::PageDown)],
        Action::PageDown,
        "a page down",
        false,
    ),
    b(&[Code(KeyCode::PageUp)], Action::PageUp, "a page up", false),
    b(&[Code(KeyCode::Tab)], Action::NextTab, "next tab", true),
    b(
        &[Code(KeyCode::BackTab)],
        Action::PrevTab,
        "previous tab",
        false,
    ),
    b(
        &[
            Char('1'),
            Char('2'),
            Char('3'),
            Char('4'),
            Char('5'),
            Char('6'),
        ],
        Action::Tab(0),
        "go to tab 1-6",
        true,
    ),
    b(
        &[Code(KeyCode::Enter)],
        Action::Enter,
        "open: into a function, or its bytes in hex",
        true,
    ),
    b(
        &[Code(KeyCode::Esc)],
        Action::Back,
        "back: out of a function, prompt or help",
        true,
    ),
    b(
        &[Char('x')],
        Action::ShowBytes,
        "frame the selected row's bytes in hex",
        false,
    ),
    b(
        &[Char('/')],
        Action::Search,
        "search rows; hex: text, #hex bytes or =VBR",
        true,
    ),
    b(&[Char('n')], Action::SearchNext, "next match", false),
    b(&[Char('N')], Action::SearchPrev, "previous match", false),
    b(
        &[Char('g')],
        Action::GotoOffset,
        "hex: go to offset (0x1f or 31; gg: top)",
        false,
    ),
    b(
        &[Char('m')],
        Action::Bookmark,
        "hex: toggle a bookmark at the cursor",
        false,
    ),
    b(
        &[Char('\'')],
        Action::NextBookmark,
        "hex: next bookmark",
        false,
    ),
    b(
        &[Char('s')],
        Action::Sort,
        "functions: sort by the next column",
        false,
    ),
    b(
        &[Char('y')],
        Action::Copy,
        "copy the selected value (OSC 52)",
        false,
    ),
    b(
        &[Char('r')],
        Action::Run,
        "functions: run and record the selected function, then show it (again: cancel)",
        false,
    ),
    b(
        &[Char('[')],
        Action::StepBack,
        "execution: one event back",
        false,
    ),
    b(
        &[Char(']')],
        Action::StepForward,
        "execution: one event on",
        false,
    ),
    b(
        &[Char('{')],
        Action::KernelBack,
        "execution: the same kernel in the previous execution of its function",
        false,
    ),
    b(
        &[Char('}')],
        Action::KernelForward,
        "execution: the same kernel in the next execution of its function",
        false,
    ),
    b(
        &[Char('u')],
        Action::Users,
        "strings, attributes, types: every user of the selected row (Esc closes)",
        false,
    ),
    b(
        &[Char('<')],
        Action::ColumnLeft,
        "tables: select the cell one column left (scrolls to hidden columns)",
        false,
    ),
    b(
        &[Char('>')],
        Action::ColumnRight,
        "tables: select the cell one column right; its whole text is in the status line",
        false,
    ),
    b(&[Char('?')], Action::Help, "this help", true),
    b(
        &[Char('q'), Ctrl('c')],
        Action::Quit,
        "quit (Ctrl-c always)",
        true,
    ),
];

impl Key {
    /// How the help screen spells the key.
    pub fn label(self) -> String {
        match self {
            Char(c) => c.to_string(),
            Ctrl(c) => format!("Ctrl-{c}"),
            Twice(c) => format!("{c}{c}"),
            Code(code) => match code {
                KeyCode::Down => "↓".into(),
                KeyCode::Up => "↑".into(),
                KeyCode::Left => "←".into(),
                KeyCode::Right => "→".into(),
                KeyCode::Home => "Home".into(),
                KeyCode::End => "End".into(),
                KeyCode::PageDown => "PgDn".into(),
                KeyCode::PageUp => "PgUp".into(),
                KeyCode::Tab => "Tab".into(),
                KeyCode::BackTab => "Shift-Tab".into(),
                KeyCode::Enter => "Enter".into(),
                KeyCode::Esc => "Esc".into(),
                other => format!("{other:?}"),
            },
        }
    }

    fn matches(self, event: &KeyEvent) -> bool {
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        let alt = event.modifiers.contains(KeyModifiers::ALT);
        match self {
            Char(c) | Twice(c) => !ctrl && !alt && event.code == KeyCode::Char(c),
            Ctrl(c) => ctrl && event.code == KeyCode::Char(c),
            Code(code) => !ctrl && !alt && event.code == code,
        }
    }
}

/// The keys of a binding as the help screen shows them (`j ↓`).
pub fn keys_label(binding: &Binding) -> String {
    if binding.action == Action::Tab(0) {
        return "1-6".to_owned();
    }
    let labels: Vec<String> = binding.keys.iter().map(|k| k.label()).collect();
    labels.join(" ")
}

/// The action of a key event. `pending` is the previous key when it may
/// start a two-key sequence (`g`); the result says whether this key is
/// now pending itself. Ctrl-c always maps to `Quit`.
pub fn lookup(event: &KeyEvent, pending: Option<char>) -> (Option<Action>, Option<char>) {
    if event.modifiers.contains(KeyModifiers::CONTROL) && event.code == KeyCode::Char('c') {
        return (Some(Action::Quit), None);
    }
    if let Some(p) = pending
        && Twice(p).matches(event)
    {
        let action = BINDINGS
            .iter()
            .find(|b| b.keys.contains(&Twice(p)))
            .map(|b| b.action);
        return (action, None);
    }
    // A key that starts a sequence waits for the next one.
    if BINDINGS.iter().any(|b| {
        b.keys
            .iter()
            .any(|k| matches!(k, Twice(_)) && k.matches(event))
    }) && pending.is_none()
    {
        return (None, event_char(event));
    }
    for binding in BINDINGS {
        for (i, key) in binding.keys.iter().enumerate() {
            if !matches!(key, Twice(_)) && key.matches(event) {
                let action = match binding.action {
                    Action::Tab(_) => Action::Tab(i),
                    other => other,
                };
                return (Some(action), None);
            }
        }
    }
    (None, None)
}

fn event_char(event: &KeyEvent) -> Option<char> {
    match event.code {
        KeyCode::Char(c) => Some(c),
        _ => None,
    }
}

/// The footer's key hints: the bindings marked for it.
pub fn footer_hints() -> Vec<(String, &'static str)> {
    BINDINGS
        .iter()
        .filter(|b| b.footer)
        .map(|b| {
            let label = match b.action {
                Action::Tab(_) => "1-6".to_owned(),
                _ => b.keys.first().map(|k| k.label()).unwrap_or_default(),
            };
            let help = match b.action {
                Action::NextTab => "tab",
                Action::Tab(_) => "view",
                Action::Enter => "open",
                Action::Back => "back",
                Action::Search => "search",
                Action::Help => "help",
                Action::Quit => "quit",
                _ => b.help,
            };
            (label, help)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn keys_map_through_the_table() {
        assert_eq!(lookup(&key(KeyCode::Char('j')), None).0, Some(Action::Down));
        assert_eq!(
            lookup(&key(KeyCode::Char('3')), None).0,
            Some(Action::Tab(2))
        );
        assert_eq!(
            lookup(&key(KeyCode::Char('6')), None).0,
            Some(Action::Tab(5))
        );
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(lookup(&ctrl_c, Some('g')).0, Some(Action::Quit));
        let ctrl_d = KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(lookup(&ctrl_d, None).0, Some(Action::HalfPageDown));
    }

    #[test]
    fn g_waits_for_a_second_g() {
        let g = key(KeyCode::Char('g'));
        assert_eq!(lookup(&g, None), (None, Some('g')));
        assert_eq!(lookup(&g, Some('g')), (Some(Action::Top), None));
    }

    #[test]
    fn every_action_has_help() {
        for binding in BINDINGS {
            assert!(!binding.help.is_empty());
            assert!(!keys_label(binding).is_empty());
        }
    }
}
