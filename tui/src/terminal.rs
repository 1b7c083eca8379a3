//! The terminal: raw mode, alternate screen and mouse capture on the way
//! in; all of it undone on every way out (return, error, panic, and a
//! SIGBUS from a mapped file truncated meanwhile: `bef::tool_io::sigbus`);
//! the event loop, with the whole-file analysis running on a second thread.

use std::io::{self, Write};
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::Command;
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use crate::app::App;
use crate::document::Document;

/// The bytes that undo what [`run_with`] turns on besides raw mode: stop
/// mouse tracking, leave the alternate screen, show the cursor. Both
/// [`restore`] and the SIGBUS handler write them.
fn screen_restore_sequence() -> String {
    let mut text = String::new();
    // Writing ANSI into a String cannot fail.
    let _ = DisableMouseCapture.write_ansi(&mut text);
    let _ = LeaveAlternateScreen.write_ansi(&mut text);
    let _ = Show.write_ansi(&mut text);
    text
}

/// Puts the terminal back as it was. Safe to call more than once.
pub fn restore() {
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = out
        .write_all(screen_restore_sequence().as_bytes())
        .and_then(|()| out.flush());
}

/// Restores the terminal when dropped, so `?` and early returns restore it.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Runs the inspector on `doc` until the user quits.
pub fn run(doc: &Document<'_>) -> io::Result<()> {
    run_with(doc, None)
}

/// Runs the inspector on `doc`, opened at the Execution tab on `trace` when
/// given; restores the terminal on every exit.
pub fn run_with(doc: &Document<'_>, trace: Option<crate::execution::Trace>) -> io::Result<()> {
    on_screen(|terminal| {
        std::thread::scope(|scope| {
            // Decoding everything (findings, users) must not hold up the first
            // frame or the keys: the UI shows "analysing…" until it is done.
            scope.spawn(|| {
                doc.analysis();
            });
            event_loop(terminal, doc, trace)
        })
    })
}

/// Runs the Tensors view of a BTF file until the user leaves; restores
/// the terminal on every exit.
pub fn run_tensors(app: &mut crate::tensors::TensorsApp) -> io::Result<()> {
    on_screen(|terminal| {
        loop {
            terminal.draw(|frame| crate::views::tensors::draw(frame, app))?;
            if app.quit {
                return Ok(());
            }
            // Any event redraws: a key moves the cursor, a resize the table.
            if let Event::Key(key) = event::read()?
                && key.kind != KeyEventKind::Release
            {
                app.on_key(key);
            }
        }
    })
}

/// Runs `body` in raw mode on the alternate screen, with the terminal put
/// back on every exit: a return, an error, a panic, or a SIGBUS on a
/// watched mapping.
fn on_screen<T>(
    body: impl FnOnce(&mut Terminal<CrosstermBackend<io::Stdout>>) -> io::Result<T>,
) -> io::Result<T> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // Restore first, so the message lands on the normal screen.
        restore();
        previous(info);
    }));
    // Declared first so it outlives the guard: the terminal is restored
    // before the SIGBUS handler stops knowing how.
    let _armed = bef::tool_io::sigbus::TerminalArmed::new(screen_restore_sequence().as_bytes())?;
    enable_raw_mode()?;
    let _guard = Guard;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    body(&mut terminal)
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    doc: &Document<'_>,
    trace: Option<crate::execution::Trace>,
) -> io::Result<()> {
    let mut app = match trace {
        Some(trace) => App::with_trace(doc, trace),
        None => App::new(doc),
    };
    let mut analysed = doc.analysis_ready().is_some();
    let mut dirty = true;
    loop {
        if dirty {
            terminal.draw(|frame| crate::views::draw(frame, &mut app))?;
            dirty = false;
        }
        if let Some(text) = app.clipboard.take() {
            let mut out = io::stdout();
            write!(
                out,
                "\x1b]52;c;{}\x07",
                crate::inspector::base64(text.as_bytes())
            )?;
            out.flush()?;
        }
        if app.quit {
            return Ok(());
        }
        if event::poll(Duration::from_millis(100))? {
            match event::read()? {
                Event::Key(key) if key.kind != KeyEventKind::Release => app.on_key(key),
                Event::Mouse(mouse) => app.on_mouse(mouse),
                _ => {}
            }
            dirty = true;
        }
        if !analysed && doc.analysis_ready().is_some() {
            analysed = true;
            dirty = true;
        }
        if app.poll_run() {
            dirty = true;
        }
    }
}
