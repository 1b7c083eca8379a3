//! Regions are named by the kernel that owns them, in the recording and in
//! every export: corpus/trace/regions.mlir nests `tfrt.if` in `tfrt.if` in
//! the body of a `tfrt.repeat.i32`.

mod common;

use bef_trace::Model;
use bef_trace::analysis::critical_path::CriticalOptions;
use bef_trace::export::Export;
use bef_trace::export::flamegraph::FlameOptions;
use bef_trace::export::folded::FoldOptions;
use bef_trace::export::{chrome, perfetto, stats};
use bef_trace::progress::Progress;

/// The functions of corpus/trace/regions.mlir as a recording names them:
/// kernel indices count the arguments' pseudo kernel as 0.
const NAMES: [&str; 7] = [
    "tally",
    "tally_to_100",
    "tally tfrt.repeat.i32#9 body",
    "tally tfrt.repeat.i32#9 body tfrt.if#4 then",
    "tally tfrt.repeat.i32#9 body tfrt.if#4 else",
    "tally tfrt.repeat.i32#9 body tfrt.if#4 then tfrt.if#3 then",
    "tally tfrt.repeat.i32#9 body tfrt.if#4 then tfrt.if#3 else",
];

#[test]
fn the_recording_names_each_region_by_its_owner() {
    let recording = common::record("trace/regions.mlir", "s");
    let mut names: Vec<&str> = recording
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    let mut expected = NAMES.to_vec();
    names.sort_unstable();
    expected.sort_unstable();
    assert_eq!(names, expected);
}

#[test]
fn every_export_shows_region_names() {
    let model = Model::new(common::record("trace/regions.mlir", "s"));
    let mut outputs: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut out = Vec::new();
    FoldOptions::default()
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("folds");
    outputs.push(("folded", out));
    let mut out = Vec::new();
    FlameOptions::default()
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("draws");
    outputs.push(("flame graph", out));
    outputs.push(("Perfetto", perfetto::export(&model)));
    outputs.push(("Chrome JSON", chrome::export(&model).into_bytes()));
    let mut out = Vec::new();
    stats::Options::default()
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("tabulates");
    outputs.push(("stats", out));
    let mut out = Vec::new();
    let options = CriticalOptions {
        json: true,
        ..Default::default()
    };
    options
        .write(&model, &mut out, Progress::HIDDEN)
        .expect("analyses");
    outputs.push(("critical path", out));
    for (what, bytes) in &outputs {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains("(region "), "{what} has an unnamed region");
        // The stats list kernels, the critical path those on the path:
        // both run in the loop's body.
        assert!(
            text.contains("tally tfrt.repeat.i32#9 body"),
            "{what} does not name the loop's body"
        );
    }
    // The branches run inside the body: the exports that show every run
    // name them too (a name past 60 characters is cut in its middle).
    for (what, bytes) in &outputs[..4] {
        let text = String::from_utf8_lossy(bytes);
        for branch in ["tfrt.if#4 then", "tfrt.if#3 then"] {
            assert!(text.contains(branch), "{what} does not show {branch}");
        }
    }
}
