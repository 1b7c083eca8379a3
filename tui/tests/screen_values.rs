//! What the screen shows is what the file says, read back from the drawn
//! screen: every time in the Execution tab parses back to the recorded
//! nanoseconds, every location is the decoded `file:line:col` (or an
//! elision of it that keeps its `:line:col`), and the Strings tab's user
//! counts are the references `bef dump` lists (the names of its Kernels,
//! Types, FunctionIndex and AttributeNames sections).

mod common;

use std::collections::HashMap;
use std::path::Path;

use bef::format::Location;
use bef_trace::recording::{
    Event, EventKind, FunctionInfo, FunctionKind, Header, KernelInfo, Recording, RegisterInfo,
    ThreadTrack, ValueState,
};
use befview::app::keys::Action;
use befview::model::execution::Trace;
use befview::model::rows::ListId;
use befview::{App, Document, Loaded, Tab};
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The screen as lines of characters (one per terminal cell; the cell
/// after a wide character is skipped by ratatui, so ASCII tests only).
fn screen(app: &mut App<'_, '_>, width: u16, height: u16) -> Vec<Vec<char>> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| befview::ui::draw(frame, app))
        .expect("draw");
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol().chars().next().unwrap_or(' '))
                .collect()
        })
        .collect()
}

/// The column where `header` starts in the header line of the list whose
/// top border is at line `top`, searching from column `from`; and the
/// list's rows (their lines, up to its bottom border).
fn column_of(lines: &[Vec<char>], top: usize, from: usize, header: &str) -> Option<usize> {
    let line: String = lines.get(top + 1)?[from..].iter().collect();
    let at = line.find(&format!(" {header} "))?;
    Some(from + line[..at + 1].chars().count())
}

/// The text of a cell of a list's last column (or one followed by two
/// spaces): from `x` to the next run of two spaces or the pane's border.
fn cell_at(line: &[char], x: usize) -> String {
    let mut out = String::new();
    for &c in &line[x..] {
        if c == '│' || out.ends_with(' ') && c == ' ' {
            break;
        }
        out.push(c);
    }
    out.trim_end().to_owned()
}

fn event(time: u64, execution: u64, kind: EventKind) -> Event {
    Event {
        time,
        execution,
        kind,
    }
}

/// A recording of one function with `kernels` kernels, its events at
/// random times (up to hours, so that times have up to 13 digits) on up
/// to three threads.
fn recording() -> impl Strategy<Value = Recording> {
    let kind = (0u8..5, 0u32..4).prop_map(|(k, kernel)| match k {
        0 => EventKind::KernelReady { kernel },
        1 => EventKind::KernelStart { kernel },
        2 => EventKind::KernelEnd {
            kernel,
            skipped: false,
            live_values: None,
        },
        3 => EventKind::RegisterSet {
            register: kernel,
            producer: kernel,
            state: ValueState::Concrete,
            value: Some(kernel.to_string().into()),
        },
        _ => EventKind::FunctionEnd,
    });
    let track = prop::collection::vec(
        (0u64..10_000_000_000_000, 1u64..4, kind).prop_map(|(t, e, k)| event(t, e, k)),
        1..40,
    );
    prop::collection::vec(track, 1..4).prop_map(|tracks| {
        let threads = tracks
            .into_iter()
            .enumerate()
            .map(|(i, mut events)| {
                for execution in 1..4 {
                    events.insert(
                        0,
                        event(
                            0,
                            execution,
                            EventKind::FunctionBegin {
                                function: 0,
                                caller: None,
                            },
                        ),
                    );
                }
                ThreadTrack {
                    name: format!("bef-worker-{i}"),
                    events: events.into(),
                    dropped: 0,
                }
            })
            .collect();
        Recording {
            header: Header::default(),
            functions: vec![FunctionInfo {
                name: "loop_body".into(),
                kind: FunctionKind::Bef,
                kernels: (0..4)
                    .map(|k| KernelInfo {
                        name: format!("tfrt.kernel_number_{k}.i32"),
                        ..KernelInfo::default()
                    })
                    .collect(),
                registers: vec![RegisterInfo { users: vec![1] }; 4],
                signature: String::new(),
            }],
            threads,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn times_shown_parse_back_to_the_recorded_nanoseconds(
        recording in recording(),
        at in any::<prop::sample::Index>(),
        wide in any::<bool>(),
    ) {
        let loaded = common::open("befview/execution.mlir");
        let doc = Document::new(&loaded).expect("a BEF listing");
        let trace = Trace::new(Path::new("random.beftrace"), recording);
        let steps = trace.steps.len();
        let mut app = App::with_trace(&doc, trace);
        app.cursor_mut(ListId::Events).selected = at.index(steps);
        let (width, height) = if wide { (200, 60) } else { (80, 24) };
        let lines = screen(&mut app, width, height);
        let Some(x) = column_of(&lines, 1, 0, "time ns") else {
            // Hidden (never cut) when the kernel names take the room; at
            // 200 columns there is room for it.
            prop_assert!(!wide, "no time column at 200 columns");
            return Ok(());
        };
        let scroll = app.cursor(ListId::Events).scroll;
        let trace = app.execution.trace.as_ref().expect("a trace");
        let mut checked = 0;
        for (i, line) in lines[3..].iter().enumerate() {
            if line[0] == '└' || scroll + i >= trace.steps.len() {
                break;
            }
            // Times hold no space; the next column follows one space on.
            let shown: String = line[x..].iter().take_while(|&&c| c != ' ').collect();
            let digits: String = shown.chars().filter(|&c| c != ',').collect();
            let ns: u64 = digits.parse().map_err(|e| {
                TestCaseError::fail(format!("{shown:?} is not a time: {e}"))
            })?;
            prop_assert_eq!(ns, trace.steps[scroll + i].event.time, "row {}", scroll + i);
            checked += 1;
        }
        prop_assert!(checked > 0);
    }
}

/// A program of one function whose kernels have random file locations;
/// with the kernels' (file, line, column).
fn located_program() -> impl Strategy<Value = (String, Vec<(String, u64, u64)>)> {
    let file = "[a-z][a-z_]{0,30}\\.mlir";
    prop::collection::vec((file, 1u64..10_000_000, 1u64..100_000), 2..25).prop_map(|locations| {
        let mut text = String::from("func.func @main() -> i32 {\n");
        for (i, (file, line, column)) in locations.iter().enumerate() {
            text.push_str(&format!(
                "  %v{i} = tfrt.constant.i32 {i} loc(\"dir/{file}\":{line}:{column})\n"
            ));
        }
        text.push_str("  tfrt.return %v0 : i32\n}\n");
        (text, locations)
    })
}

/// Checks a location as shown against the decoded one: equal, or an
/// elision (`…`) of it that keeps all of its `:line:col`.
fn same_location(shown: &str, decoded: &str, line: u64, column: u64) -> Result<(), String> {
    if shown == decoded {
        return Ok(());
    }
    let Some((head, tail)) = shown.split_once('…') else {
        return Err(format!("{shown:?} shown for {decoded:?}"));
    };
    let line_col = format!(":{line}:{column}");
    if decoded.starts_with(head) && decoded.ends_with(tail) && tail.ends_with(&line_col) {
        Ok(())
    } else {
        Err(format!("{shown:?} shown for {decoded:?}"))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn locations_shown_are_the_decoded_ones(
        (text, _) in located_program(),
        width in 70u16..200,
    ) {
        let loaded = Loaded::from_bytes(Path::new("random.mlir"), text.as_bytes())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let doc = Document::new(&loaded).expect("a BEF listing");
        doc.analysis();
        let mut app = App::new(&doc);
        let decoded = |offset: u64| match doc.listing.location(offset) {
            Ok(Some(Location::FileLineCol { file, line, column })) => {
                Some((file.to_string(), line, column))
            }
            _ => None,
        };

        // The Source tab's kernels, their files shown by base name.
        app.act(Action::Tab(Tab::Source.index()));
        let lines = screen(&mut app, width, 40);
        let kernels = app.source_kernels();
        let mut checked = 0;
        if let Some(x) = column_of(&lines, 1, 0, "location") {
            for (i, line) in lines[3..].iter().enumerate() {
                if line[0] == '└' {
                    break;
                }
                let Some(k) = kernels.get(i) else { break };
                let kernel = doc.listing.function(k.function).and_then(|f| f.kernel(k.kernel));
                let Some((file, l, c)) = kernel.and_then(|k| decoded(k.location_offset()?)) else {
                    continue;
                };
                let base = file.rsplit('/').next().unwrap_or(&file);
                same_location(&cell_at(line, x), &format!("{base}:{l}:{c}"), l, c)
                    .map_err(TestCaseError::fail)?;
                checked += 1;
            }
            prop_assert!(checked > 0);
        } else {
            prop_assert!(width < 120, "no location column at {} columns", width);
        }

        // The Locations table: each location as MLIR prints it.
        app.act(Action::Tab(Tab::Tables.index()));
        app.table = ListId::Locations;
        let lines = screen(&mut app, width, 40);
        let x = column_of(&lines, 2, 0, "location").expect("the location column");
        let rows = doc.listing.locations();
        for (i, line) in lines[4..].iter().enumerate() {
            if line[0] == '└' {
                break;
            }
            let Some(row) = rows.get(i) else { break };
            let Some((file, l, c)) = decoded(row.offset) else { continue };
            same_location(&cell_at(line, x), &format!("{file:?}:{l}:{c}"), l, c)
                .map_err(TestCaseError::fail)?;
        }
    }
}

/// How many references to each string `bef dump` lists: the names of the
/// Kernels, Types, FunctionIndex and AttributeNames sections.
fn dump_references(listing: &bef::inspect::Listing<'_>) -> HashMap<u64, usize> {
    let mut count: HashMap<u64, usize> = HashMap::new();
    for r in listing.kernel_names().iter() {
        *count.entry(r.string_offset).or_default() += 1;
    }
    for r in listing.types().iter() {
        *count.entry(r.string_offset).or_default() += 1;
    }
    for e in listing.index_entries() {
        *count.entry(e.name_offset).or_default() += 1;
    }
    for f in 0..listing.function_count() {
        if let Some(entry) = listing.attribute_names(f) {
            for name in &entry.names {
                *count.entry(name.string_offset).or_default() += 1;
            }
        }
    }
    count
}

/// The user counts the Strings tab shows for `loaded`, row by row, read
/// from a screen tall enough for every row.
fn strings_tab_counts(loaded: &Loaded) -> Vec<(u64, usize)> {
    let doc = Document::new(loaded).expect("a BEF listing");
    doc.analysis();
    let mut app = App::new(&doc);
    app.act(Action::Tab(Tab::Tables.index()));
    let strings = doc.listing.strings();
    let height = (strings.len() + 8).min(400) as u16;
    let lines = screen(&mut app, 200, height);
    let x = column_of(&lines, 2, 0, "users").expect("the users column");
    let mut out = Vec::new();
    for (i, line) in lines[4..].iter().enumerate() {
        if line[0] == '└' {
            break;
        }
        let Some(s) = strings.get(i) else { break };
        let cell = cell_at(line, x);
        let count = cell
            .split(':')
            .next()
            .unwrap_or("")
            .parse()
            .unwrap_or(usize::MAX);
        out.push((strings.offset_of(s) as u64, count));
    }
    assert_eq!(out.len(), strings.len(), "every string is on screen");
    out
}

#[test]
fn string_user_counts_are_bef_dumps_on_the_test_programs() {
    for name in [
        "befview/inspect.mlir",
        "befview/execution.mlir",
        "befview/loop.mlir",
    ] {
        let loaded = common::open(name);
        let doc = Document::new(&loaded).expect("a BEF listing");
        let expected = dump_references(&doc.listing);
        for (offset, shown) in strings_tab_counts(&loaded) {
            let want = expected.get(&offset).copied().unwrap_or(0);
            assert_eq!(shown, want, "{name}: string at {offset:#x}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn string_user_counts_are_bef_dumps((text, _) in located_program()) {
        let loaded = Loaded::from_bytes(Path::new("random.mlir"), text.as_bytes())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let doc = Document::new(&loaded).expect("a BEF listing");
        let expected = dump_references(&doc.listing);
        // Every constant names its `value` attribute: one string, used by
        // two kernels or more.
        prop_assert!(expected.values().any(|&n| n > 1));
        for (offset, shown) in strings_tab_counts(&loaded) {
            prop_assert_eq!(shown, expected.get(&offset).copied().unwrap_or(0));
        }
    }
}
