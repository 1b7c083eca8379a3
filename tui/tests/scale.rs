//! befview on a generated recording of 8 million events, in a
//! pseudo-terminal: the first frame comes within a second (the events load
//! in the background), and keys are handled while a search goes through
//! the 8 million rows. Timing needs a release build: run by `.ci/run` as
//! `cargo test --release -p befview --test scale -- --ignored`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

#[path = "common/scale.rs"]
mod scale;

use scale::{EVENTS, generated};

/// Writes the generated recording into a directory of its own.
fn write_recording(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("befview-scale-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("scale.beftrace");
    let recording = generated(EVENTS);
    assert!(recording.event_count() > 7_900_000);
    std::fs::write(&file, bef_trace::write(&recording)).expect("the recording is written");
    file
}

/// `befview FILE` in a pseudo-terminal of 120×40.
struct Screen {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Screen {
    fn spawn(file: &Path) -> Screen {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: 40,
                cols: 120,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pty");
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_befview"));
        command.arg(file);
        command.cwd(file.parent().expect("a directory"));
        command.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(command).expect("befview starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(40, 120, 0)));
        let sink = Arc::clone(&parser);
        std::thread::spawn(move || {
            let _master = pair.master;
            let mut buffer = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("screen lock").process(&buffer[..n]);
            }
        });
        Screen {
            parser,
            writer,
            child,
        }
    }

    fn contents(&self) -> String {
        self.parser.lock().expect("screen lock").screen().contents()
    }

    /// How long until the screen shows `text`, failing after `limit`.
    fn wait_for(&self, text: &str, limit: Duration) -> Duration {
        let start = Instant::now();
        loop {
            if self.contents().contains(text) {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < limit,
                "no {text:?} within {limit:?}:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("keys sent");
        self.writer.flush().expect("keys flushed");
        std::thread::sleep(Duration::from_millis(30));
    }

    fn quit(mut self) {
        self.send("q");
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.child.try_wait().expect("child status").is_none() {
            assert!(Instant::now() < deadline, "befview did not quit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
#[ignore = "timing: run in release by .ci/run"]
fn first_frame_within_a_second_and_keys_during_a_search() {
    let file = write_recording("pty");
    let started = Instant::now();
    let mut screen = Screen::spawn(&file);
    // The tab bar and the loading screen: drawn before any event is read.
    screen.wait_for("Loading ", Duration::from_secs(5));
    let first = started.elapsed();
    eprintln!("first frame after {first:?}");
    assert!(
        first < Duration::from_secs(1),
        "first frame after {first:?}"
    );
    // The events arrive in the background.
    let loaded = screen.wait_for("Events (", Duration::from_secs(120));
    eprintln!("loaded after {:?}", started.elapsed());
    // A search that finds nothing goes through every row on a worker;
    // keys are handled meanwhile, and Esc stops it.
    screen.send("/no-such-kernel\r");
    screen.wait_for("rows (", Duration::from_secs(10));
    let at = Instant::now();
    screen.send("2");
    screen.wait_for(" 2 Hex ", Duration::from_secs(1));
    let tab = screen.wait_for("Inspector", Duration::from_secs(1));
    eprintln!("a key during the search handled in {:?}", at.elapsed());
    assert!(at.elapsed() < Duration::from_secs(1), "{tab:?}");
    screen.send("6");
    screen.send("\x1b");
    screen.wait_for("cancelled", Duration::from_secs(2));
    eprintln!("load took {loaded:?}");
    screen.quit();
    std::fs::remove_dir_all(file.parent().expect("a directory")).ok();
}

#[test]
fn a_long_list_is_searched_by_the_worker_and_esc_stops_it() {
    use befview::app::events::{Effect, Event};
    use befview::app::keys::Action;
    use befview::app::worker::Driver;
    use befview::model::rows::ListId;
    use befview::{App, Document, Loaded};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    let bytes = bef_trace::write(&generated(60_000));
    let trace =
        befview::model::execution::Trace::read(Path::new("scale.beftrace"), &bytes).expect("reads");
    let last = trace.steps.len() - 1;
    let empty = befview::model::document::empty_program();
    let program = Loaded::from_bytes(Path::new("scale.bef"), &empty).expect("a program");
    let doc = Document::new(&program).expect("lists");
    let mut app = App::with_trace(&doc, trace);
    let mut driver = Driver::new(&doc);
    let key = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    let type_query = |app: &mut App<'_, '_>, text: &str| {
        app.act(Action::Search);
        for c in text.chars() {
            let _ = app.update(key(KeyCode::Char(c)));
        }
    };
    // 60,000 rows are more than a key press searches: a worker finds the
    // row, its reports applied as the event loop would.
    type_query(&mut app, "k16 tfrt.add.i32");
    driver.send(&mut app, key(KeyCode::Enter));
    assert!(app.searching.is_some(), "{:?}", app.message);
    driver.settle(&mut app);
    assert!(app.searching.is_none());
    let found = app.cursor(ListId::Events).selected;
    assert!(found > 0 && found <= last, "{found} of {last}");
    assert!(
        befview::model::rows::cells(&app.rows(), ListId::Events, found)[3].starts_with("k16 "),
        "row {found}"
    );
    // Esc stops a search under way and says so.
    type_query(&mut app, "no such text");
    let effects = app.update(key(KeyCode::Enter));
    assert!(matches!(effects.as_slice(), [Effect::Search(..)]));
    let effects = app.update(key(KeyCode::Esc));
    assert!(matches!(effects.as_slice(), [Effect::CancelSearch]));
    assert!(app.searching.is_none());
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("cancelled")),
        "{:?}",
        app.message
    );
}
