//! Driving the app without a terminal, for property tests and fuzzing:
//! input bytes become key and mouse events, every event is followed by a
//! frame on a test backend, and [`check`] says whether the state is
//! consistent.

use std::sync::OnceLock;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::app::App;
use crate::app::events::Event;
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::rows::{self, ListId};

/// Prompt text and editing, beyond what the key table binds.
const PROMPT_KEYS: &[KeyCode] = &[
    KeyCode::Char('#'),
    KeyCode::Char('='),
    KeyCode::Char('0'),
    KeyCode::Char('f'),
    KeyCode::Char('@'),
    KeyCode::Backspace,
];

/// Keys worth pressing: every key the table binds but those that quit,
/// then prompt text.
fn keys() -> &'static [KeyEvent] {
    static KEYS: OnceLock<Vec<KeyEvent>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let quits = |event: &KeyEvent| {
            Tab::ALL
                .iter()
                .any(|&tab| keys::lookup(event, None, Some(tab)).0 == Some(Action::Quit))
        };
        let mut events: Vec<KeyEvent> = keys::bound_events()
            .into_iter()
            .filter(|e| !quits(e))
            .collect();
        events.extend(
            PROMPT_KEYS
                .iter()
                .map(|&code| KeyEvent::new(code, KeyModifiers::NONE)),
        );
        events
    })
}

/// Applies the event that `byte` (and `arg`, for positions) stands for.
/// `q` is never produced, so a sequence runs to its end. What the app asks
/// for in return (a copy) is dropped: simulated input touches nothing
/// outside the app.
pub fn apply(app: &mut App<'_, '_>, byte: u8, arg: u8) {
    let _ = app.update(event(byte, arg));
}

/// The event that `byte` (and `arg`, for positions) stands for.
fn event(byte: u8, arg: u8) -> Event {
    let keys = keys();
    let index = byte as usize % (keys.len() + 4);
    if let Some(&key) = keys.get(index) {
        return Event::Key(key);
    }
    let (x, y) = (u16::from(arg) % 200, u16::from(arg / 4) % 60);
    let kind = match index - keys.len() {
        0 => MouseEventKind::ScrollDown,
        1 => MouseEventKind::ScrollUp,
        _ => MouseEventKind::Down(MouseButton::Left),
    };
    Event::Mouse(MouseEvent {
        kind,
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    })
}

/// Draws one frame of `app` at `width`×`height`.
pub fn frame(app: &mut App<'_, '_>, width: u16, height: u16) {
    // A test backend cannot fail (its error type is uninhabited).
    let Ok(mut terminal) = Terminal::new(TestBackend::new(width, height));
    let Ok(_) = terminal.draw(|f| crate::ui::draw(f, app));
}

/// Runs `input` (pairs of event and position bytes) on `app`, drawing a
/// frame after each event, and checks the state after each; stops at the
/// first inconsistency.
pub fn run(app: &mut App<'_, '_>, input: &[u8], width: u16, height: u16) -> Result<(), String> {
    frame(app, width, height);
    for pair in input.chunks(2) {
        apply(app, pair[0], pair.get(1).copied().unwrap_or(0));
        frame(app, width, height);
        check(app)?;
    }
    Ok(())
}

/// Whether the state is consistent: every cursor on a row that exists
/// (or 0 on an empty list), the hex cursor in the file, an open function
/// that has a body, the function order a permutation.
pub fn check(app: &mut App<'_, '_>) -> Result<(), String> {
    let len = app.doc.bytes().len();
    if app.hex.cursor >= len.max(1) {
        return Err(format!("hex cursor {} past {len} bytes", app.hex.cursor));
    }
    if !Tab::ALL.contains(&app.tab) {
        return Err("unknown tab".to_owned());
    }
    if let Some(f) = app.functions.open
        && app.doc.listing.function(f).is_none()
    {
        return Err(format!("open function {f} has no body"));
    }
    let mut order = app.functions.order.clone();
    order.sort_unstable();
    if order != (0..app.doc.listing.function_count()).collect::<Vec<_>>() {
        return Err("function order is not a permutation".to_owned());
    }
    if let Some(id) = app.active_list() {
        let rows = rows::len(&app.rows(), id);
        let selected = app.cursor(id).selected;
        if selected >= rows.max(1) {
            return Err(format!("{id:?} selects row {selected} of {rows}"));
        }
        if rows > 0 && id != ListId::Findings {
            // Every row of the focused list can be drawn and named.
            let _ = rows::cells(&app.rows(), id, selected);
            let _ = rows::range(&app.rows(), id, selected);
        }
    }
    Ok(())
}
