//! Drives the real `befview` binary in a pseudo-terminal through every tab
//! and reads the screen with a terminal emulator (vt100): what each view
//! shows, `?`, and that quitting leaves the terminal as it was.

mod common;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 50;
const COLS: u16 = 180;

/// The binary running in a pty, and the emulated screen it draws on.
struct Session {
    screen: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Session {
    /// Starts `befview FILE` in `corpus/`, FILE relative to it (short
    /// paths keep the location columns readable).
    fn start(file: &str) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pty");
        let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_befview"));
        command.arg(file);
        let corpus = common::corpus(file);
        let root = corpus
            .ancestors()
            .nth(std::path::Path::new(file).components().count())
            .expect("corpus root");
        command.cwd(root);
        command.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(command).expect("befview starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLS, 0)));
        let sink = Arc::clone(&screen);
        std::thread::spawn(move || {
            // Keeps the master alive as long as the reader runs.
            let _master = pair.master;
            let mut buffer = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("screen lock").process(&buffer[..n]);
            }
        });
        Session {
            screen,
            writer,
            child,
        }
    }

    fn contents(&self) -> String {
        self.screen.lock().expect("screen lock").screen().contents()
    }

    /// Waits until the screen shows every one of `texts`; fails with the
    /// screen otherwise.
    fn expect(&self, texts: &[&str]) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.contents();
            if texts.iter().all(|t| screen.contains(t)) {
                return;
            }
            if Instant::now() > deadline {
                let missing: Vec<&&str> = texts.iter().filter(|t| !screen.contains(**t)).collect();
                panic!("screen lacks {missing:?}:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("keys sent");
        self.writer.flush().expect("keys flushed");
        // Each key is its own event, as when typed.
        std::thread::sleep(Duration::from_millis(30));
    }

    /// Waits for the process to end; its exit status must be success.
    fn finish(mut self) -> vt100::Parser {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().expect("child status") {
                assert!(status.success(), "befview exited with {status:?}");
                break;
            }
            assert!(Instant::now() < deadline, "befview did not quit");
            std::thread::sleep(Duration::from_millis(50));
        }
        // Let the reader drain the last bytes.
        std::thread::sleep(Duration::from_millis(200));
        let mut parser = self.screen.lock().expect("screen lock");
        std::mem::replace(&mut *parser, vt100::Parser::new(ROWS, COLS, 0))
    }
}

#[test]
fn every_tab_of_a_program_with_calls_control_flow_and_attributes() {
    let mut s = Session::start("befview/inspect.mlir");
    // 1: sections.
    s.expect(&[
        "1 Sections",
        "FunctionIndex",
        "Locations",
        "AttributeNames",
        "no problems found",
    ]);
    assert!(s.screen.lock().unwrap().screen().alternate_screen());
    // 2: hex, with the inspector and the item tree.
    s.send("2");
    s.expect(&["00000000: 0b ef", "Inspector", "magic number", "VBR"]);
    s.send("g");
    s.send("0x20\r");
    s.expect(&["0x00000020"]);
    // 3: functions; into @main; its kernels with decoded attributes.
    s.send("3");
    s.expect(&["@main", "@add", "@fails", "async"]);
    s.send("jj\r");
    s.expect(&[
        "@main kernels",
        "tfrt.constant.i32",
        "value = 45 : i32",
        "message = \"befview says hello\"",
        "tfrt.if",
        "@main registers",
    ]);
    // Enter on a kernel frames it in hex, with its path in the status line.
    s.send("jjjjjjj\r");
    s.expect(&["functions › @main › kernel 7 tfrt_test.report_error_sync"]);
    // 4: source lines beside the kernels.
    s.send("4");
    s.expect(&[
        "%sum = tfrt.call @add(%a, %b)",
        "callsite(\"inner\" at",
        "fused[\"model.py\":42:7",
        // The kernel selected in hex stays selected.
        "functions › @main › kernel 7 tfrt_test.report_error_sync",
    ]);
    // Moving through kernels moves through the source: kernel 11 is line 21.
    s.send("jjjj");
    s.expect(&["functions › @main › kernel 11 tfrt.print.i32"]);
    // 5: strings, attributes, types.
    s.send("5");
    s.expect(&["\"tfrt.constant.i32\"", "kernel name"]);
    s.send("l");
    s.expect(&["\"befview says hello\"", "@main kernel 7"]);
    s.send("l");
    s.expect(&["!tfrt.chain", "1: @main %3"]);
    // Help, generated from the key table.
    s.send("?");
    s.expect(&[
        "Keys (? or Esc closes)",
        "copy the selected value",
        "go to tab 1-6",
    ]);
    s.send("\x1b");
    s.send("q");
    let parser = s.finish();
    assert!(!parser.screen().alternate_screen(), "alternate screen left");
    assert!(!parser.screen().hide_cursor(), "cursor shown again");
}

#[test]
fn a_damaged_file_shows_what_decodes_and_where_it_stops() {
    let mut s = Session::start("cli/truncated.bef");
    s.expect(&["Functions (cut)", "decoder", "runs past the end"]);
    s.send("3");
    s.expect(&["@add"]);
    s.send("\x03");
    let parser = s.finish();
    assert!(!parser.screen().alternate_screen());
    assert!(!parser.screen().hide_cursor());
}
