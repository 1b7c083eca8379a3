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
    /// Everything the binary wrote, for what the emulator does not keep
    /// (OSC 52 clipboard requests).
    raw: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Session {
    /// Starts `befview FILE` in `corpus/`, FILE relative to it (short
    /// paths keep the location columns readable).
    fn start(file: &str) -> Session {
        let corpus = common::corpus(file);
        let root = corpus
            .ancestors()
            .nth(std::path::Path::new(file).components().count())
            .expect("corpus root");
        Session::spawn(std::path::Path::new(file), root)
    }

    /// Starts `befview FILE` in directory `cwd`.
    fn spawn(file: &std::path::Path, cwd: &std::path::Path) -> Session {
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
        command.cwd(cwd);
        command.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(command).expect("befview starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLS, 0)));
        let sink = Arc::clone(&screen);
        let raw = Arc::new(Mutex::new(Vec::new()));
        let raw_sink = Arc::clone(&raw);
        std::thread::spawn(move || {
            // Keeps the master alive as long as the reader runs.
            let _master = pair.master;
            let mut buffer = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("screen lock").process(&buffer[..n]);
                raw_sink
                    .lock()
                    .expect("raw lock")
                    .extend_from_slice(&buffer[..n]);
            }
        });
        Session {
            screen,
            raw,
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
    fn finish(self) -> vt100::Parser {
        let (status, parser) = self.wait();
        assert!(status.success(), "befview exited with {status:?}");
        parser
    }

    /// Waits for the process to end: its exit status and the screen.
    fn wait(mut self) -> (portable_pty::ExitStatus, vt100::Parser) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("child status") {
                break status;
            }
            assert!(Instant::now() < deadline, "befview did not quit");
            std::thread::sleep(Duration::from_millis(50));
        };
        // Let the reader drain the last bytes.
        std::thread::sleep(Duration::from_millis(200));
        let mut parser = self.screen.lock().expect("screen lock");
        let parser = std::mem::replace(&mut *parser, vt100::Parser::new(ROWS, COLS, 0));
        (status, parser)
    }
}

/// A temporary directory for one test, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("befview-e2e-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// `value` as a BEF VBR integer (big-endian groups of 7 bits).
fn vbr(mut value: u64) -> Vec<u8> {
    let mut out = vec![(value & 0x7f) as u8];
    value >>= 7;
    while value != 0 {
        out.push(0x80 | (value & 0x7f) as u8);
        value >>= 7;
    }
    out.reverse();
    out
}

/// Writes a BEF file of `size` bytes or more: a small program, then a
/// section of an unknown id (which readers skip) that is a hole, so that
/// the file takes no disk space.
fn write_bef_of_size(path: &std::path::Path, size: u64) -> u64 {
    let program = std::fs::read(common::corpus("bef/add_i32.bef")).expect("corpus file");
    let mut head = program.clone();
    head.push(0x40);
    head.extend(vbr(size << 1));
    let file = std::fs::File::create(path).expect("file created");
    std::io::Write::write_all(&mut &file, &head).expect("file written");
    file.set_len(head.len() as u64 + size)
        .expect("file extended");
    program.len() as u64
}

/// The file is cut to `len` bytes while the inspector shows it; then the
/// end of the hex view is drawn, which the file no longer has.
fn truncate_while_shown(size: u64) -> (TempDir, portable_pty::ExitStatus, vt100::Parser) {
    let dir = TempDir::new(&format!("truncated-{size}"));
    let file = dir.0.join("big.bef");
    let keep = write_bef_of_size(&file, size);
    let mut s = Session::spawn(std::path::Path::new("big.bef"), &dir.0);
    s.expect(&["1 Sections", "Unknown(64)"]);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&file)
        .and_then(|f| f.set_len(keep))
        .expect("file truncated");
    s.send("2");
    s.send("G");
    // The screen after the end was drawn, or the process gone.
    std::thread::sleep(Duration::from_millis(500));
    s.send("q");
    let (status, parser) = s.wait();
    (dir, status, parser)
}

#[test]
fn a_mapped_file_truncated_while_shown_ends_befview_with_the_terminal_restored() {
    let size = befview::model::input::READ_LIMIT + (1 << 20);
    let (_dir, status, parser) = truncate_while_shown(size);
    assert_eq!(status.exit_code(), 1, "{status:?}");
    let screen = parser.screen();
    assert!(!screen.alternate_screen(), "alternate screen left on");
    assert!(!screen.hide_cursor(), "cursor hidden");
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse tracking left on"
    );
    let text = screen.contents();
    assert!(
        text.contains(
            "error: big.bef changed while it was being read (truncated by another process?)"
        ),
        "{text}"
    );
}

#[test]
fn a_file_read_into_memory_is_still_shown_after_it_is_truncated() {
    let (_dir, status, parser) = truncate_while_shown(1 << 20);
    assert!(status.success(), "{status:?}");
    assert!(!parser.screen().alternate_screen());
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
    // A click selects a row (SGR mouse: button 0 at column 10, row 7 is
    // the fourth function, @add); the wheel scrolls.
    s.send("\x1b[<0;10;7M\x1b[<0;10;7m");
    s.expect(&["functions › @add ›"]);
    s.send("\x1b[<65;10;7M");
    s.expect(&["functions › @fails"]);
    // `y` copies the selected function's name through OSC 52.
    s.send("y");
    s.expect(&["copied @fails"]);
    let wanted = format!(
        "\x1b]52;c;{}\x07",
        befview::model::inspector::base64(b"@fails")
    );
    let raw = s.raw.lock().expect("raw lock").clone();
    assert!(
        raw.windows(wanted.len()).any(|w| w == wanted.as_bytes()),
        "no OSC 52 request for @fails"
    );
    s.send("gg");
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
        "fused[model.py:42:7, \"layer\"]",
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
        "Keys (? or Esc closes;",
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

#[test]
fn a_recording_opens_on_the_execution_tab_and_steps() {
    let program = common::corpus("befview/execution.mlir");
    let options = bef_trace::RecordOptions {
        work_queue: "s".into(),
        recorder: bef_trace::RecorderOptions {
            values: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let (recording, _) = bef_trace::record_file(&program, &options, |_| {}).expect("records");
    let dir = std::env::temp_dir().join(format!("befview-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("run.beftrace");
    std::fs::write(&file, bef_trace::write(&recording)).expect("the recording is written");
    let mut s = Session::spawn(&file, &dir);
    s.expect(&[
        "6 Execution",
        "Events ([ ] step",
        "execution › @main",
        "first error: ",
    ]);
    s.send("]]]");
    s.expect(&["Kernel at the cursor", "kernel "]);
    s.send("l");
    s.expect(&["› register %"]);
    s.send("1");
    s.expect(&["Sections"]);
    s.send("6");
    s.expect(&["Events ([ ] step"]);
    s.send("q");
    let parser = s.finish();
    assert!(!parser.screen().alternate_screen());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn r_in_functions_runs_and_shows_the_recording() {
    let mut s = Session::start("befview/execution.mlir");
    s.send("3");
    s.expect(&["@fails"]);
    s.send("/fails\r");
    s.send("r");
    s.expect(&["execution › @fails", "first error: "]);
    s.send("q");
    let parser = s.finish();
    assert!(!parser.screen().alternate_screen());
}

#[test]
fn the_tensors_view_of_a_btf_file_runs_in_the_one_event_loop() {
    let mut s = Session::start("btf/tensors.btf");
    s.expect(&["BTF, 13 tensors", "Tensors: #0 of 0–12", "j/k move"]);
    assert!(s.screen.lock().unwrap().screen().alternate_screen());
    s.send("j");
    s.expect(&["Tensors: #1 of 0–12"]);
    s.send("G");
    s.expect(&["Tensors: #12 of 0–12"]);
    s.send("g");
    s.send("3");
    s.send("\r");
    s.expect(&["Tensors: #3 of 0–12"]);
    s.send("\r");
    s.expect(&["tensor 3 ·", "z numbers/heat map"]);
    s.send("\x1b");
    s.expect(&["Tensors: #3 of 0–12"]);
    s.send("?");
    s.expect(&["Home/gg first"]);
    s.send("q");
    let parser = s.finish();
    assert!(!parser.screen().alternate_screen());
}
