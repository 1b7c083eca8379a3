//! Driving the app without a terminal, for property tests and fuzzing:
//! input bytes become key and mouse events, every event is followed by a
//! frame on a test backend, and [`check`] says whether the state is
//! consistent.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::app::{App, Tab};
use crate::views::{self, ListId};

/// Keys worth pressing: the key table's, prompt text, and a few others.
const KEYS: &[KeyCode] = &[
    KeyCode::Char('j'),
    KeyCode::Char('k'),
    KeyCode::Char('h'),
    KeyCode::Char('l'),
    KeyCode::Char('g'),
    KeyCode::Char('G'),
    KeyCode::Char('1'),
    KeyCode::Char('2'),
    KeyCode::Char('3'),
    KeyCode::Char('4'),
    KeyCode::Char('5'),
    KeyCode::Char('6'),
    KeyCode::Char('/'),
    KeyCode::Char('n'),
    KeyCode::Char('N'),
    KeyCode::Char('m'),
    KeyCode::Char('\''),
    KeyCode::Char('s'),
    KeyCode::Char('x'),
    KeyCode::Char('y'),
    KeyCode::Char('?'),
    KeyCode::Char('#'),
    KeyCode::Char('='),
    KeyCode::Char('0'),
    KeyCode::Char('f'),
    KeyCode::Char('@'),
    KeyCode::Down,
    KeyCode::Up,
    KeyCode::Left,
    KeyCode::Right,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::PageDown,
    KeyCode::PageUp,
    KeyCode::Tab,
    KeyCode::BackTab,
    KeyCode::Enter,
    KeyCode::Esc,
    KeyCode::Backspace,
    KeyCode::Char('['),
    KeyCode::Char(']'),
    KeyCode::Char('{'),
    KeyCode::Char('}'),
    KeyCode::Char('<'),
    KeyCode::Char('>'),
    KeyCode::Char('u'),
];

/// Applies the event that `byte` (and `arg`, for positions) stands for.
/// `q` is never produced, so a sequence runs to its end.
pub fn apply(app: &mut App<'_, '_>, byte: u8, arg: u8) {
    let index = byte as usize % (KEYS.len() + 6);
    if let Some(&code) = KEYS.get(index) {
        app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
        return;
    }
    let (x, y) = (u16::from(arg) % 200, u16::from(arg / 4) % 60);
    let kind = match index - KEYS.len() {
        0 => MouseEventKind::ScrollDown,
        1 => MouseEventKind::ScrollUp,
        2 | 3 => MouseEventKind::Down(MouseButton::Left),
        4 => {
            app.on_key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL));
            return;
        }
        _ => {
            app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
            return;
        }
    };
    app.on_mouse(MouseEvent {
        kind,
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    });
}

/// Draws one frame of `app` at `width`×`height`.
pub fn frame(app: &mut App<'_, '_>, width: u16, height: u16) {
    // A test backend cannot fail (its error type is uninhabited).
    let Ok(mut terminal) = Terminal::new(TestBackend::new(width, height));
    let Ok(_) = terminal.draw(|f| views::draw(f, app));
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
    if app.hex_cursor >= len.max(1) {
        return Err(format!("hex cursor {} past {len} bytes", app.hex_cursor));
    }
    if !Tab::ALL.contains(&app.tab) {
        return Err("unknown tab".to_owned());
    }
    if let Some(f) = app.open_function
        && app.doc.listing.function(f).is_none()
    {
        return Err(format!("open function {f} has no body"));
    }
    let mut order = app.function_order.clone();
    order.sort_unstable();
    if order != (0..app.doc.listing.function_count()).collect::<Vec<_>>() {
        return Err("function order is not a permutation".to_owned());
    }
    if let Some(id) = app.active_list() {
        let rows = views::len(app, id);
        let selected = app.cursor(id).selected;
        if selected >= rows.max(1) {
            return Err(format!("{id:?} selects row {selected} of {rows}"));
        }
        if rows > 0 && id != ListId::Findings {
            // Every row of the focused list can be drawn and named.
            let _ = views::cells(app, id, selected);
            let _ = views::range(app, id, selected);
        }
    }
    Ok(())
}
