//! The values the Execution tab shows at the time cursor for tensors that
//! kernels write in place, on a recording (`--values`) of the digits model
//! (`corpus/models/digits/digits.mlir`, function `digits`): at the end of
//! the run the hidden layer shows what `relu_inplace` left (no negative
//! value), and the scores and the predictions what the matrix product and
//! `equal_inplace` wrote, not their first published snapshots.

mod common;

use std::path::Path;

use bef_trace::recording::{EventKind, Recording};
use bef_trace::{RecordOptions, RecorderOptions, record_file};
use befview::model::execution::{RegisterAt, Trace};
use befview::{App, Document};

const PROGRAM: &str = "models/digits/digits.mlir";

fn recording(queue: &str) -> Recording {
    // The program names its weights relative to the repository's root.
    std::env::set_current_dir(bef_test_support::corpus::repo_root()).expect("the root exists");
    let options = RecordOptions {
        work_queue: queue.into(),
        functions: vec!["digits".into()],
        recorder: RecorderOptions {
            values: true,
            ..RecorderOptions::default()
        },
        ..RecordOptions::default()
    };
    record_file(&common::corpus(PROGRAM), &options, |_| {})
        .expect("the digits model records")
        .0
}

/// The one execution of `@function`.
fn execution_of(trace: &Trace, function: &str) -> u64 {
    let index = trace
        .recording
        .functions
        .iter()
        .position(|f| f.name == function)
        .unwrap_or_else(|| panic!("@{function} is in the program")) as u32;
    trace
        .steps
        .iter()
        .find(|s| {
            matches!(s.event.kind, EventKind::FunctionBegin { function, .. } if function == index)
        })
        .map(|s| s.event.execution)
        .unwrap_or_else(|| panic!("@{function} ran"))
}

/// The index of the `nth` kernel named `name` in execution's function.
fn kernel(trace: &Trace, execution: u64, name: &str, nth: usize) -> u32 {
    let function = trace.function_of(execution).expect("a function");
    trace.recording.functions[function as usize]
        .kernels
        .iter()
        .enumerate()
        .filter(|(_, k)| k.name == name)
        .nth(nth)
        .unwrap_or_else(|| panic!("{name} #{nth}"))
        .0 as u32
}

/// The register kernel `producer` publishes, as it is after the last event,
/// and its first published value.
fn register(trace: &Trace, execution: u64, producer: u32) -> (RegisterAt, String) {
    let last = trace.steps.len() - 1;
    let at = trace
        .registers_at(last, execution)
        .into_iter()
        .find(|r| r.producer == Some(producer))
        .unwrap_or_else(|| panic!("kernel {producer} published a register"));
    let first = trace
        .steps
        .iter()
        .find_map(|s| match &s.event.kind {
            EventKind::RegisterSet {
                register, value, ..
            } if s.event.execution == execution && *register == at.register => {
                value.as_ref().map(|v| v.text.clone())
            }
            _ => None,
        })
        .expect("a first published value");
    (at, first)
}

/// The numbers of a rendering (`f32[360,32] [0.0, 1.5, …]`).
fn numbers(shown: &str) -> Vec<f64> {
    let list = shown.split_once("] [").map_or("", |(_, l)| l);
    list.split([',', ' ', ']', '…'])
        .filter_map(|n| n.parse().ok())
        .collect()
}

#[test]
fn values_at_the_end_are_those_kernels_wrote_in_place() {
    for queue in ["s", "mstd:2"] {
        let trace = Trace::new(Path::new("digits.beftrace"), recording(queue));
        let forward = execution_of(&trace, "forward");
        let digits = execution_of(&trace, "digits");
        let broadcast = "tfrt_test.broadcast.f32.2";

        // The hidden layer: the bias broadcast, then images × w1 added,
        // then the ReLU in place.
        let (hidden, first) = register(&trace, forward, kernel(&trace, forward, broadcast, 0));
        let shown = hidden.value.clone().expect("a value").text;
        let relu = kernel(&trace, forward, "tfrt_test.relu_inplace.f32", 0);
        assert_eq!(
            hidden.updated.map(|u| u.kernel),
            Some(relu),
            "{queue}: {shown}"
        );
        assert_ne!(shown, first, "{queue}");
        let values = numbers(&shown);
        assert!(!values.is_empty(), "{queue}: {shown}");
        assert!(values.iter().all(|&x| x >= 0.0), "{queue}: {shown}");
        assert!(
            numbers(&first).iter().any(|&x| x < 0.0),
            "{queue}: the bias has negative values: {first}"
        );

        // The scores: b2 broadcast, then hidden × w2 added by the product.
        let (scores, first) = register(&trace, forward, kernel(&trace, forward, broadcast, 1));
        let matmul = kernel(&trace, forward, "tfrt_test.matmul.f32.2", 1);
        assert_eq!(scores.updated.map(|u| u.kernel), Some(matmul), "{queue}");
        assert_ne!(scores.value.as_deref(), Some(first.as_str()), "{queue}");

        // The predictions, overwritten with 1 where they equal the label.
        let argmax = kernel(&trace, digits, "tfrt_test.argmax.f32.2", 0);
        let (predicted, first) = register(&trace, digits, argmax);
        let equal = kernel(&trace, digits, "tfrt_test.equal_inplace.i32", 0);
        assert_eq!(predicted.updated.map(|u| u.kernel), Some(equal), "{queue}");
        let shown = predicted.value.clone().expect("a value").text;
        assert_ne!(shown, first, "{queue}");
        assert!(
            numbers(&shown).iter().all(|&x| x == 0.0 || x == 1.0),
            "{queue}: {shown}"
        );

        // Before the ReLU ran, the hidden layer showed the product's sum.
        let relu_end = trace
            .steps
            .iter()
            .position(|s| {
                s.event.execution == forward
                    && matches!(s.event.kind, EventKind::KernelStart { kernel } if kernel == relu)
            })
            .expect("the ReLU started");
        let before = trace
            .registers_at(relu_end, forward)
            .into_iter()
            .find(|r| r.register == hidden.register)
            .expect("the hidden register");
        let first_matmul = kernel(&trace, forward, "tfrt_test.matmul.f32.2", 0);
        assert_eq!(
            before.updated.map(|u| u.kernel),
            Some(first_matmul),
            "{queue}"
        );
    }
}

#[test]
fn dump_execution_names_the_kernel_that_wrote_each_version() {
    let trace = Trace::new(Path::new("digits.beftrace"), recording("s"));
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let mut app = App::with_trace(&doc, trace);
    let mut out = Vec::new();
    befview::dump::dump(&mut out, &mut app, "execution").expect("dump");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(
        text.contains("updated in place by kernel") && text.contains("tfrt_test.relu_inplace.f32"),
        "{text}"
    );
    // The registers after the last event say which kernel left the value.
    assert!(
        text.lines().any(|l| l.contains("%")
            && l.contains("(updated in place by k")
            && l.contains("tfrt_test.relu_inplace.f32 at ")),
        "{text}"
    );
}
