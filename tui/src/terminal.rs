//! The terminal: raw mode, alternate screen and mouse capture on the way
//! in; all of it undone on every way out (return, error, panic, and a
//! SIGBUS from a mapped file truncated meanwhile: `bef::tool_io::sigbus`);
//! the event loop, with the whole-file analysis running on a second thread.

use std::io::{self, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bef::format::BefBuffer;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::Command;
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event as CrosstermEvent, KeyEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use crate::app::App;
use crate::app::events::Event;
use crate::app::worker::Worker;
use crate::model::document::Document;

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
pub fn run_with(
    doc: &Document<'_>,
    trace: Option<crate::model::execution::Trace>,
) -> io::Result<()> {
    on_screen(|terminal| {
        let (events, received) = mpsc::channel();
        read_input(events.clone())?;
        std::thread::scope(|scope| {
            // Decoding everything (findings, users) must not hold up the first
            // frame or the keys: the UI shows "analysing…" until it is done.
            let analysed = events.clone();
            scope.spawn(move || {
                doc.analysis();
                let _ = analysed.send(Event::Analysed);
            });
            let app = match trace {
                Some(trace) => App::with_trace(doc, trace),
                None => App::new(doc),
            };
            event_loop(terminal, app, Worker::scoped(events, doc, scope), &received)
        })
    })
}

/// Runs the inspector on `doc` (the program a recording names) at the
/// Execution tab, while the recording in `bytes` (from `path`) is read on
/// a worker: the first frame does not wait for it, whatever its size, and
/// the screen shows what loading is doing. Restores the terminal on every
/// exit.
///
/// `program`: the program file the recording is read with, when
/// [`open_program`](crate::model::execution::open_program) gave one.
pub fn run_loading(
    doc: &Document<'_>,
    path: &Path,
    bytes: BefBuffer,
    program: Option<bef_trace::program_file::ProgramFile>,
) -> io::Result<()> {
    on_screen(|terminal| {
        let (events, received) = mpsc::channel();
        read_input(events.clone())?;
        // Not scoped: quitting must not wait for the decoding to end.
        let loaded = events.clone();
        let file = path.to_owned();
        std::thread::Builder::new()
            .name("befview-load".into())
            .spawn(move || {
                let mut progress = |phase: String| {
                    let _ = loaded.send(Event::Loading(phase));
                };
                let outcome = crate::model::execution::load(
                    &file,
                    bytes.bytes(),
                    program.as_ref(),
                    &mut progress,
                );
                let _ = loaded.send(Event::Loaded(outcome.map(Box::new)));
            })?;
        std::thread::scope(|scope| {
            let analysed = events.clone();
            scope.spawn(move || {
                doc.analysis();
                let _ = analysed.send(Event::Analysed);
            });
            let app = App::loading(doc, path);
            event_loop(terminal, app, Worker::scoped(events, doc, scope), &received)
        })
    })
}

/// Reads the terminal's input on a thread of its own, posting keys, mouse
/// events and resizes; it ends with the process (a read cannot be
/// interrupted) or at the first read error, which it posts.
fn read_input(events: mpsc::Sender<Event>) -> io::Result<()> {
    std::thread::Builder::new()
        .name("befview-input".into())
        .spawn(move || {
            loop {
                let event = match event::read() {
                    Ok(CrosstermEvent::Key(key)) if key.kind != KeyEventKind::Release => {
                        Event::Key(key)
                    }
                    Ok(CrosstermEvent::Mouse(mouse)) => Event::Mouse(mouse),
                    Ok(CrosstermEvent::Resize(..)) => Event::Resize,
                    Ok(_) => continue,
                    Err(e) => {
                        let _ = events.send(Event::InputFailed(e.to_string()));
                        return;
                    }
                };
                if events.send(event).is_err() {
                    return;
                }
            }
        })?;
    Ok(())
}

/// Runs the Tensors view of a BTF file until the user leaves; restores
/// the terminal on every exit.
pub fn run_tensors(app: &mut crate::model::tensors::TensorsApp) -> io::Result<()> {
    on_screen(|terminal| {
        loop {
            terminal.draw(|frame| crate::ui::draw_tensors(frame, app))?;
            if app.quit {
                return Ok(());
            }
            // Any event redraws: a key moves the cursor, a resize the table.
            if let CrosstermEvent::Key(key) = event::read()?
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

/// How often time passes for the app when nothing else happens.
const TICK: Duration = Duration::from_millis(100);

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    mut app: App<'_, '_>,
    mut worker: Worker<'_, '_, '_>,
    events: &mpsc::Receiver<Event>,
) -> io::Result<()> {
    loop {
        terminal.draw(|frame| crate::ui::draw(frame, &mut app))?;
        if app.quit {
            return Ok(());
        }
        let event = match events.recv_timeout(TICK) {
            Ok(Event::InputFailed(e)) => return Err(io::Error::other(e)),
            Ok(event) => event,
            Err(mpsc::RecvTimeoutError::Timeout) => Event::Tick(Instant::now()),
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        };
        for effect in app.update(event) {
            if let Some(text) = worker.perform(effect) {
                let mut out = io::stdout();
                write!(
                    out,
                    "\x1b]52;c;{}\x07",
                    crate::model::inspector::base64(text.as_bytes())
                )?;
                out.flush()?;
            }
        }
    }
}
