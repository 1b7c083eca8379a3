//! Every view and the help screen drawn on a test backend at 80×24 and
//! 200×60, compared with the committed snapshots in `snapshots/`
//! (`cargo insta review` or `INSTA_UPDATE=always` to accept changes).

mod common;

use befview::app::keys::Action;
use befview::{App, Document};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Draws `app` at `width`×`height` and returns the screen as text.
fn screen(app: &mut App<'_, '_>, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw(frame, app))
        .expect("draw");
    terminal.backend().to_string()
}

fn check(name: &str, file: &str, actions: &[Action]) {
    let loaded = common::open(file);
    let doc = Document::new(&loaded).expect("a BEF listing");
    doc.analysis();
    for (width, height) in [(80, 24), (200, 60)] {
        let mut app = App::new(&doc);
        // A first frame sets page sizes as the terminal would.
        screen(&mut app, width, height);
        for &action in actions {
            app.act(action);
            screen(&mut app, width, height);
        }
        let text = screen(&mut app, width, height);
        insta::with_settings!({ description => format!("{actions:?}") }, {
            insta::assert_snapshot!(format!("{name}_{width}x{height}"), text);
        });
    }
}

const PROGRAM: &str = "befview/inspect.mlir";

#[test]
fn sections() {
    check("sections", PROGRAM, &[]);
}

#[test]
fn sections_of_a_damaged_file() {
    check("damaged_sections", "cli/truncated.bef", &[]);
}

#[test]
fn hex_at_a_kernel_attribute() {
    // Functions → @main → kernel 7 (the one with a message attribute) → hex.
    let mut actions = vec![Action::Tab(2), Action::Down, Action::Down, Action::Enter];
    actions.extend([Action::Down; 7]);
    actions.push(Action::ShowBytes);
    check("hex", PROGRAM, &actions);
}

#[test]
fn functions() {
    check("functions", PROGRAM, &[Action::Tab(2)]);
}

#[test]
fn function_kernels_and_registers() {
    check(
        "function_main",
        PROGRAM,
        &[
            Action::Tab(2),
            Action::Down,
            Action::Down,
            Action::Enter,
            Action::Down,
        ],
    );
}

#[test]
fn source() {
    check(
        "source",
        PROGRAM,
        &[Action::Tab(3), Action::Down, Action::Down, Action::Down],
    );
}

#[test]
fn strings() {
    check("strings", PROGRAM, &[Action::Tab(4)]);
}

#[test]
fn attributes() {
    check("attributes", PROGRAM, &[Action::Tab(4), Action::Right]);
}

#[test]
fn types() {
    check(
        "types",
        PROGRAM,
        &[Action::Tab(4), Action::Right, Action::Right],
    );
}

#[test]
fn locations() {
    check(
        "locations",
        PROGRAM,
        &[Action::Tab(4), Action::Left, Action::Down, Action::Down],
    );
}

#[test]
fn help() {
    check("help", PROGRAM, &[Action::Help]);
}

#[test]
fn hex_at_an_attribute_shows_its_value() {
    // Attributes table → attribute 4 ("befview says hello") → its bytes.
    check(
        "hex_attribute",
        PROGRAM,
        &[
            Action::Tab(4),
            Action::Right,
            Action::Down,
            Action::Down,
            Action::Down,
            Action::Down,
            Action::ShowBytes,
        ],
    );
}
