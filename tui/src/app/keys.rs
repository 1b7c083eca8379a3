//! The key table: every binding with its help text. Key events map to
//! [`Action`]s through it, and the `?` screen and the footer are generated
//! from it, so they cannot disagree with what the keys do.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::tab::Tab;

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
    /// Execution: the event that produced the selected register.
    Producer,
    /// Execution: the next start of a kernel reading the selected register.
    NextReader,
    /// Execution: the previous start of a kernel reading it.
    PrevReader,
    /// Execution: watch the selected register (registers pane), or the
    /// register or kernel of the event at the cursor, for any change.
    Watch,
    /// Execution: the same, stopping where it becomes an error.
    WatchErrors,
    /// Execution: the same, stopping where it equals a value typed in.
    WatchValue,
    /// Execution: the next event where the watch stops.
    WatchNext,
    /// Execution: the previous event where the watch stops (rewind).
    WatchPrev,
    /// Attached to a live recording: pause or resume the view's updates.
    LivePause,
    /// Attached to a live recording: save what has arrived as a recording.
    LiveSave,
    /// Strings, attributes, types: list every user of the selected row.
    Users,
    /// Tables: the column cursor one column left (shows hidden columns).
    ColumnLeft,
    /// Tables: the column cursor one column right.
    ColumnRight,
    /// Tensors view, a tensor in full: numbers or a heat map.
    Zoom,
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

/// Where a binding acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// On every tab, and in the Tensors view.
    Everywhere,
    /// On these tabs only.
    Only(&'static [Tab]),
    /// Everywhere but on these tabs.
    AllBut(&'static [Tab]),
    /// In the Tensors view only.
    Tensors,
}

impl Context {
    /// Whether the binding acts on `tab` (`None`: the Tensors view).
    pub fn includes(self, tab: Option<Tab>) -> bool {
        match (self, tab) {
            (Context::Everywhere, _) => true,
            (Context::Only(tabs), Some(tab)) => tabs.contains(&tab),
            (Context::Only(_), None) => false,
            (Context::AllBut(tabs), Some(tab)) => !tabs.contains(&tab),
            (Context::AllBut(_), None) => true,
            (Context::Tensors, tab) => tab.is_none(),
        }
    }

    /// How the help screen names it: `hex, source: `, or nothing.
    fn prefix(self) -> String {
        match self {
            Context::Everywhere | Context::AllBut(_) => String::new(),
            Context::Tensors => "tensors: ".to_owned(),
            // Most tabs: named by the ones left out.
            Context::Only(tabs) if tabs.len() * 2 > Tab::ALL.len() => {
                let names: Vec<String> = Tab::ALL
                    .iter()
                    .filter(|t| !tabs.contains(t))
                    .map(|t| t.short_name())
                    .collect();
                format!("all tabs but {}: ", names.join(", "))
            }
            Context::Only(tabs) => {
                let names: Vec<String> = tabs.iter().map(|t| t.short_name()).collect();
                format!("{}: ", names.join(", "))
            }
        }
    }
}

/// One row of the table.
pub struct Binding {
    /// The keys that trigger it.
    pub keys: &'static [Key],
    /// What they do.
    pub action: Action,
    /// Where.
    pub context: Context,
    /// The help text.
    pub help: &'static str,
    /// Its label in the footer, if it has a place there. Neighbouring
    /// bindings with the same label share it (`h/l pane`).
    pub footer: Option<&'static str>,
}

const fn b(
    keys: &'static [Key],
    action: Action,
    context: Context,
    help: &'static str,
    footer: Option<&'static str>,
) -> Binding {
    Binding {
        keys,
        action,
        context,
        help,
        footer,
    }
}

use Context::{AllBut, Everywhere, Only, Tensors};
use Key::{Char, Code, Ctrl, Twice};

/// The tabs with two panes (or a pane and a table list).
const PANES: &[Tab] = &[Tab::Sections, Tab::Functions, Tab::Source, Tab::Execution];

/// The tabs of lists, where `gg` goes to the first row (in the hex view
/// and the Tensors view `g` asks where to go).
const NOT_HEX: &[Tab] = &[
    Tab::Sections,
    Tab::Functions,
    Tab::Source,
    Tab::Tables,
    Tab::Execution,
];

/// Every binding, in help-screen order. The first binding of a key whose
/// context includes the current tab wins.
pub const BINDINGS: &[Binding] = &[
    b(
        &[Char('j'), Code(KeyCode::Down)],
        Action::Down,
        Everywhere,
        "next row / line",
        None,
    ),
    b(
        &[Char('k'), Code(KeyCode::Up)],
        Action::Up,
        Everywhere,
        "previous row / line",
        None,
    ),
    b(
        &[Char('h'), Code(KeyCode::Left)],
        Action::Left,
        Only(&[Tab::Hex]),
        "previous byte",
        None,
    ),
    b(
        &[Char('l'), Code(KeyCode::Right)],
        Action::Right,
        Only(&[Tab::Hex]),
        "next byte",
        None,
    ),
    b(
        &[Char('h'), Code(KeyCode::Left)],
        Action::Left,
        Only(PANES),
        "first pane",
        Some("pane"),
    ),
    b(
        &[Char('l'), Code(KeyCode::Right)],
        Action::Right,
        Only(PANES),
        "second pane",
        Some("pane"),
    ),
    b(
        &[Char('h'), Code(KeyCode::Left)],
        Action::Left,
        Only(&[Tab::Tables]),
        "previous table",
        Some("table"),
    ),
    b(
        &[Char('l'), Code(KeyCode::Right)],
        Action::Right,
        Only(&[Tab::Tables]),
        "next table",
        Some("table"),
    ),
    b(
        &[Twice('g'), Code(KeyCode::Home)],
        Action::Top,
        Only(NOT_HEX),
        "first row",
        None,
    ),
    b(
        &[Code(KeyCode::Home)],
        Action::Top,
        Tensors,
        "first row (g g also)",
        None,
    ),
    b(
        &[Code(KeyCode::Home)],
        Action::Top,
        Only(&[Tab::Hex]),
        "first byte",
        None,
    ),
    b(
        &[Char('G'), Code(KeyCode::End)],
        Action::Bottom,
        Everywhere,
        "last row / byte",
        None,
    ),
    b(
        &[Ctrl('d')],
        Action::HalfPageDown,
        Everywhere,
        "half a page down",
        None,
    ),
    b(
        &[Ctrl('u')],
        Action::HalfPageUp,
        Everywhere,
        "half a page up",
        None,
    ),
    b(
        &[Code(KeyCode::PageDown)],
        Action::PageDown,
        Everywhere,
        "a page down",
        None,
    ),
    b(
        &[Code(KeyCode::PageUp)],
        Action::PageUp,
        Everywhere,
        "a page up",
        None,
    ),
    b(
        &[Code(KeyCode::Tab)],
        Action::NextTab,
        Everywhere,
        "next tab",
        Some("tab"),
    ),
    b(
        &[Code(KeyCode::BackTab)],
        Action::PrevTab,
        Everywhere,
        "previous tab",
        None,
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
        Everywhere,
        "go to tab 1-6",
        Some("view"),
    ),
    b(
        &[Code(KeyCode::Enter)],
        Action::Enter,
        Everywhere,
        "open: a function, or its bytes in hex; a recorded kernel's slowest run; a register's value or a tensor in full",
        Some("open"),
    ),
    b(
        &[Code(KeyCode::Esc)],
        Action::Back,
        Everywhere,
        "back: out of a function, prompt or help",
        Some("back"),
    ),
    b(
        &[Char('x')],
        Action::ShowBytes,
        AllBut(&[Tab::Hex]),
        "frame the selected row's bytes in hex",
        None,
    ),
    b(
        &[Char('/')],
        Action::Search,
        AllBut(&[Tab::Hex]),
        "search rows",
        Some("search"),
    ),
    b(
        &[Char('/')],
        Action::Search,
        Only(&[Tab::Hex]),
        "search text, #hex bytes or =VBR",
        Some("search"),
    ),
    b(
        &[Char('n')],
        Action::SearchNext,
        Everywhere,
        "next match",
        None,
    ),
    b(
        &[Char('N')],
        Action::SearchPrev,
        Everywhere,
        "previous match",
        None,
    ),
    b(
        &[Char('g')],
        Action::GotoOffset,
        Only(&[Tab::Hex]),
        "go to offset (0x1f or 31; g again: top)",
        Some("goto"),
    ),
    b(
        &[Char('g')],
        Action::GotoOffset,
        Tensors,
        "go to a tensor by index, or in full to a row (g again: top)",
        Some("goto"),
    ),
    b(
        &[Char('h'), Code(KeyCode::Left)],
        Action::Left,
        Tensors,
        "a tensor in full: previous column",
        Some("column"),
    ),
    b(
        &[Char('l'), Code(KeyCode::Right)],
        Action::Right,
        Tensors,
        "a tensor in full: next column",
        Some("column"),
    ),
    b(
        &[Char('z')],
        Action::Zoom,
        Tensors,
        "a tensor in full: numbers, or a heat map of colours",
        Some("zoom"),
    ),
    b(
        &[Char('m')],
        Action::Bookmark,
        Only(&[Tab::Hex]),
        "toggle a bookmark at the cursor",
        Some("mark"),
    ),
    b(
        &[Char('\'')],
        Action::NextBookmark,
        Only(&[Tab::Hex]),
        "next bookmark",
        Some("next mark"),
    ),
    b(
        &[Char('s')],
        Action::Sort,
        Only(&[Tab::Functions]),
        "sort by the next column (recorded kernels and functions too)",
        Some("sort"),
    ),
    b(
        &[Char('y')],
        Action::Copy,
        Everywhere,
        "copy the selected value (OSC 52)",
        None,
    ),
    b(
        &[Char('r')],
        Action::Run,
        Only(&[Tab::Functions]),
        "run and record the selected function, then show it (again, on any tab: cancel)",
        Some("run"),
    ),
    b(
        &[Char('[')],
        Action::StepBack,
        Only(&[Tab::Execution]),
        "one event back",
        Some("step"),
    ),
    b(
        &[Char(']')],
        Action::StepForward,
        Only(&[Tab::Execution]),
        "one event on",
        Some("step"),
    ),
    b(
        &[Char('{')],
        Action::KernelBack,
        Only(&[Tab::Execution]),
        "the same kernel in the previous execution of its function",
        Some("kernel"),
    ),
    b(
        &[Char('}')],
        Action::KernelForward,
        Only(&[Tab::Execution]),
        "the same kernel in the next execution of its function",
        Some("kernel"),
    ),
    b(
        &[Char('p')],
        Action::Producer,
        Only(&[Tab::Execution]),
        "follow the selected register (or the event's) to the event that produced it",
        Some("producer"),
    ),
    b(
        &[Char('u')],
        Action::NextReader,
        Only(&[Tab::Execution]),
        "the next kernel reading (using) that register",
        Some("users"),
    ),
    b(
        &[Char('U')],
        Action::PrevReader,
        Only(&[Tab::Execution]),
        "the previous kernel reading that register",
        Some("users"),
    ),
    b(
        &[Char('+')],
        Action::Watch,
        Only(&[Tab::Execution]),
        "watch the selected register, or the event's register or kernel, across executions (again: clear)",
        None,
    ),
    b(
        &[Char('!')],
        Action::WatchErrors,
        Only(&[Tab::Execution]),
        "watch it for becoming an error",
        None,
    ),
    b(
        &[Char('=')],
        Action::WatchValue,
        Only(&[Tab::Execution]),
        "watch it for a value typed in",
        None,
    ),
    b(
        &[Char(')')],
        Action::WatchNext,
        Only(&[Tab::Execution]),
        "the next event where the watch stops",
        None,
    ),
    b(
        &[Char('(')],
        Action::WatchPrev,
        Only(&[Tab::Execution]),
        "the previous event where the watch stops (rewind)",
        None,
    ),
    b(
        &[Char('P')],
        Action::LivePause,
        Only(&[Tab::Execution]),
        "attached (--attach): pause or resume live updates",
        None,
    ),
    b(
        &[Char('w')],
        Action::LiveSave,
        Only(&[Tab::Execution]),
        "attached (--attach): save what has arrived as a recording file",
        None,
    ),
    b(
        &[Char('u')],
        Action::Users,
        Only(&[Tab::Tables]),
        "every user of the selected string, attribute or type (Esc closes)",
        None,
    ),
    b(
        &[Char('<')],
        Action::ColumnLeft,
        AllBut(&[Tab::Hex]),
        "lists: select the cell one column left (scrolls to hidden columns)",
        None,
    ),
    b(
        &[Char('>')],
        Action::ColumnRight,
        AllBut(&[Tab::Hex]),
        "lists: select the cell one column right; its whole text is in the status line",
        None,
    ),
    b(
        &[Char('?')],
        Action::Help,
        Everywhere,
        "this help",
        Some("help"),
    ),
    b(
        &[Char('q'), Ctrl('c')],
        Action::Quit,
        Everywhere,
        "quit (Ctrl-c always)",
        Some("quit"),
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

/// The key for `action` on `tab` as the screen names it (its binding's
/// first key), for titles and messages; `?` if no binding has it there.
pub fn label(action: Action, tab: Option<Tab>) -> String {
    BINDINGS
        .iter()
        .find(|b| b.action == action && b.context.includes(tab))
        .map_or_else(
            || "?".to_owned(),
            |b| match b.action {
                Action::Tab(_) => "1-6".to_owned(),
                _ => b.keys.first().map(|k| k.label()).unwrap_or_default(),
            },
        )
}

/// The action of a key event on `tab` (`None`: the Tensors view).
/// `pending` is the previous key when it may start a two-key sequence
/// (`gg`); the result says whether this key is now pending itself. Ctrl-c
/// always maps to `Quit`.
pub fn lookup(
    event: &KeyEvent,
    pending: Option<char>,
    tab: Option<Tab>,
) -> (Option<Action>, Option<char>) {
    if event.modifiers.contains(KeyModifiers::CONTROL) && event.code == KeyCode::Char('c') {
        return (Some(Action::Quit), None);
    }
    let here = || BINDINGS.iter().filter(|b| b.context.includes(tab));
    if let Some(p) = pending
        && Twice(p).matches(event)
    {
        let action = here()
            .find(|b| b.keys.contains(&Twice(p)))
            .map(|b| b.action);
        return (action, None);
    }
    // A key that starts a sequence here waits for the next one.
    if pending.is_none()
        && here().any(|b| {
            b.keys
                .iter()
                .any(|k| matches!(k, Twice(_)) && k.matches(event))
        })
    {
        return (None, event_char(event));
    }
    for binding in here() {
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

/// Every key event the table binds, once each (a sequence's key once):
/// what the simulator presses.
pub fn bound_events() -> Vec<KeyEvent> {
    let mut out: Vec<KeyEvent> = Vec::new();
    for key in BINDINGS.iter().flat_map(|b| b.keys) {
        let event = match *key {
            Char(c) | Twice(c) => KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
            Ctrl(c) => KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL),
            Code(code) => KeyEvent::new(code, KeyModifiers::NONE),
        };
        if !out.contains(&event) {
            out.push(event);
        }
    }
    out
}

/// The help text, one line per binding, then what the tabs show.
pub fn help_lines() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = BINDINGS
        .iter()
        .map(|b| (keys_label(b), format!("{}{}", b.context.prefix(), b.help)))
        .collect();
    out.push((String::new(), String::new()));
    for (i, tab) in Tab::ALL.iter().enumerate() {
        let own: Vec<String> = BINDINGS
            .iter()
            .filter(|b| {
                matches!(b.context, Context::Only(tabs)
                    if tabs.contains(tab) && tabs.len() * 2 <= Tab::ALL.len())
            })
            .map(|b| b.keys.first().map(|k| k.label()).unwrap_or_default())
            .collect();
        let keys = if own.is_empty() {
            String::new()
        } else {
            format!(" (keys: {})", own.join(" "))
        };
        out.push((format!("tab {}", i + 1), format!("{}{keys}", tab.help())));
    }
    out.push((
        "mouse".to_owned(),
        "wheel scrolls, click selects a tab, row or byte".to_owned(),
    ));
    out
}

/// The footer's key hints on `tab` (`None`: the Tensors view): first the bindings of every tab,
/// then the tab's own (`true` beside them); neighbours with one label
/// share it (`h/l pane`).
pub fn footer_hints(tab: Option<Tab>) -> Vec<(String, &'static str, bool)> {
    let mut out: Vec<(String, &'static str, bool)> = Vec::new();
    for own in [false, true] {
        for binding in BINDINGS {
            let Some(label) = binding.footer else {
                continue;
            };
            if !binding.context.includes(tab)
                || matches!(binding.context, Context::Only(_) | Context::Tensors) != own
            {
                continue;
            }
            let key = match binding.action {
                Action::Tab(_) => "1-6".to_owned(),
                _ => binding.keys.first().map(|k| k.label()).unwrap_or_default(),
            };
            match out.last_mut() {
                Some((keys, last, o)) if *last == label && *o == own => {
                    keys.push('/');
                    keys.push_str(&key);
                }
                _ => out.push((key, label, own)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn keys_map_through_the_table() {
        let on = |code, tab| lookup(&key(code), None, Some(tab)).0;
        assert_eq!(on(KeyCode::Char('j'), Tab::Sections), Some(Action::Down));
        assert_eq!(on(KeyCode::Char('3'), Tab::Hex), Some(Action::Tab(2)));
        assert_eq!(on(KeyCode::Char('6'), Tab::Hex), Some(Action::Tab(5)));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(lookup(&ctrl_c, Some('g'), None).0, Some(Action::Quit));
        let ctrl_d = KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(lookup(&ctrl_d, None, None).0, Some(Action::HalfPageDown));
    }

    #[test]
    fn a_key_acts_by_its_context() {
        let on = |c, tab| lookup(&key(KeyCode::Char(c)), None, tab).0;
        assert_eq!(on('s', Some(Tab::Functions)), Some(Action::Sort));
        assert_eq!(on('s', Some(Tab::Hex)), None);
        assert_eq!(on('m', Some(Tab::Hex)), Some(Action::Bookmark));
        assert_eq!(on('[', Some(Tab::Execution)), Some(Action::StepBack));
        assert_eq!(on('[', None), None, "no time cursor in the Tensors view");
        // In the hex view `g` asks for an offset at once.
        assert_eq!(on('g', Some(Tab::Hex)), Some(Action::GotoOffset));
    }

    #[test]
    fn g_waits_for_a_second_g() {
        let g = key(KeyCode::Char('g'));
        for tab in [Some(Tab::Sections), Some(Tab::Execution)] {
            assert_eq!(lookup(&g, None, tab), (None, Some('g')));
            assert_eq!(lookup(&g, Some('g'), tab), (Some(Action::Top), None));
        }
        // The Tensors view asks where to go at once, as the hex view does.
        assert_eq!(lookup(&g, None, None), (Some(Action::GotoOffset), None));
    }

    #[test]
    fn footers_come_from_the_table() {
        let text = |tab| {
            footer_hints(Some(tab))
                .iter()
                .map(|(k, l, _)| format!("{k} {l}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        assert!(
            text(Tab::Execution).ends_with("h/l pane, [/] step, {/} kernel, p producer, u/U users"),
            "{}",
            text(Tab::Execution)
        );
        assert!(
            text(Tab::Hex).contains("g goto, m mark, ' next mark"),
            "{}",
            text(Tab::Hex)
        );
        assert!(
            text(Tab::Tables).ends_with("h/l table"),
            "{}",
            text(Tab::Tables)
        );
        assert!(
            text(Tab::Sections).starts_with("Tab tab, 1-6 view"),
            "{}",
            text(Tab::Sections)
        );
        assert_eq!(label(Action::Sort, Some(Tab::Functions)), "s");
        assert_eq!(label(Action::Sort, Some(Tab::Hex)), "?");
    }

    #[test]
    fn every_action_has_help_and_every_key_one_meaning_per_context() {
        for binding in BINDINGS {
            assert!(!binding.help.is_empty());
            assert!(!keys_label(binding).is_empty());
        }
        let contexts = Tab::ALL.iter().map(|&t| Some(t)).chain([None]);
        for tab in contexts {
            let mut seen = Vec::new();
            for binding in BINDINGS.iter().filter(|b| b.context.includes(tab)) {
                for key in binding.keys {
                    assert!(!seen.contains(key), "{key:?} is bound twice on {tab:?}");
                    seen.push(*key);
                }
            }
        }
    }
}
