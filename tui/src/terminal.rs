//! The terminal: raw mode, alternate screen and mouse capture on the way
//! in; all of it undone on every way out (return, error, panic, and a
//! SIGBUS from a mapped file truncated meanwhile: `bef::tool_io::sigbus`);
//! the one event loop, for the inspector (with the whole-file analysis
//! running on a second thread) and for the Tensors view of a BTF file.

use std::io::{self, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bef::format::BefBuffer;
use ratatui::Frame;
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
use crate::app::compare::CompareApp;
use crate::app::events::{Effect, Event};
use crate::app::tensors::TensorsApp;
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
            let mut app = match trace {
                Some(trace) => App::with_trace(doc, trace),
                None => App::new(doc),
            };
            let mut worker = Worker::scoped(events, doc, scope);
            event_loop(terminal, &mut app, |e| worker.perform(e), &received)
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
            let mut app = App::loading(doc, path);
            let mut worker = Worker::scoped(events, doc, scope);
            event_loop(terminal, &mut app, |e| worker.perform(e), &received)
        })
    })
}

/// Reads the terminal's input on a thread of its own, posting keys, mouse
/// events and resizes; it ends with the process (a read cannot be
/// interrupted) or at the first read error, which it posts.
/// Runs the inspector on `doc` following the live recording `attached`
/// (`befview --attach`): the attach thread posts its model as events
/// arrive.
pub fn run_attached(
    doc: &Document<'_>,
    attached: crate::app::attach::Attached,
    program: Option<bef_trace::program_file::ProgramFile>,
) -> io::Result<()> {
    on_screen(|terminal| {
        let (events, received) = mpsc::channel();
        read_input(events.clone())?;
        let program = program.map(std::sync::Arc::new);
        let live = crate::app::live::Live::new(
            attached.socket.clone(),
            std::sync::Arc::clone(&attached.received),
            program.clone(),
        );
        let paused = std::sync::Arc::clone(&live.paused);
        // Not scoped: quitting must not wait for the stream to end.
        crate::app::attach::follow(attached, program, paused, events.clone())?;
        std::thread::scope(|scope| {
            let analysed = events.clone();
            scope.spawn(move || {
                doc.analysis();
                let _ = analysed.send(Event::Analysed);
            });
            let mut app = App::attached(doc, live);
            let mut worker = Worker::scoped(events, doc, scope);
            event_loop(terminal, &mut app, |e| worker.perform(e), &received)
        })
    })
}

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
pub fn run_tensors(app: &mut TensorsApp) -> io::Result<()> {
    on_screen(|terminal| {
        let (events, received) = mpsc::channel();
        read_input(events)?;
        // It asks for nothing: there are no effects to perform.
        event_loop(terminal, app, |_| None, &received)
    })
}

/// Runs the compare view of two inputs until the user leaves; restores
/// the terminal on every exit.
pub fn run_compare(app: &mut CompareApp) -> io::Result<()> {
    on_screen(|terminal| {
        let (events, received) = mpsc::channel();
        read_input(events)?;
        event_loop(terminal, app, |_| None, &received)
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

/// What the event loop runs: the inspector, the Tensors view of a BTF
/// file, or the compare view of two inputs.
trait Screen {
    /// Draws the whole screen.
    fn draw(&mut self, frame: &mut Frame<'_>);
    /// Applies `event`; what it asks for.
    fn update(&mut self, event: Event) -> Vec<Effect>;
    /// Whether the user has left.
    fn quit(&self) -> bool;
}

impl Screen for App<'_, '_> {
    fn draw(&mut self, frame: &mut Frame<'_>) {
        crate::ui::draw(frame, self);
    }

    fn update(&mut self, event: Event) -> Vec<Effect> {
        App::update(self, event)
    }

    fn quit(&self) -> bool {
        self.quit
    }
}

impl Screen for CompareApp {
    fn draw(&mut self, frame: &mut Frame<'_>) {
        crate::ui::draw_compare(frame, self);
    }

    fn update(&mut self, event: Event) -> Vec<Effect> {
        CompareApp::update(self, event)
    }

    fn quit(&self) -> bool {
        self.quit
    }
}

impl Screen for TensorsApp {
    fn draw(&mut self, frame: &mut Frame<'_>) {
        crate::ui::draw_tensors(frame, self);
    }

    fn update(&mut self, event: Event) -> Vec<Effect> {
        TensorsApp::update(self, event)
    }

    fn quit(&self) -> bool {
        self.quit
    }
}

/// Draws `screen`, then waits for an event (time passes every [`TICK`]),
/// applies it and has `perform` do what it asks, until the user leaves.
/// `perform` returns text to copy to the clipboard.
fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    screen: &mut impl Screen,
    mut perform: impl FnMut(Effect) -> Option<String>,
    events: &mpsc::Receiver<Event>,
) -> io::Result<()> {
    loop {
        terminal.draw(|frame| screen.draw(frame))?;
        if screen.quit() {
            return Ok(());
        }
        let event = match events.recv_timeout(TICK) {
            Ok(Event::InputFailed(e)) => return Err(io::Error::other(e)),
            Ok(event) => event,
            Err(mpsc::RecvTimeoutError::Timeout) => Event::Tick(Instant::now()),
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        };
        for effect in screen.update(event) {
            if let Some(text) = perform(effect) {
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
