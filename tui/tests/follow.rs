//! Following a value on the Execution tab, on a recording of
//! `corpus/befview/execution.mlir` (`@main`: `%sum` is produced by a call
//! and read by a print and an add): `p` goes to the event that produced
//! the register, `u` and `U` step through the starts of the kernels
//! reading it; `}` on a function's end goes to the next execution's end.

mod common;

use std::path::Path;

use bef_trace::recording::EventKind;
use bef_trace::{RecordOptions, RecorderOptions, record_file};
use befview::app::keys::Action;
use befview::app::tab::Tab;
use befview::model::execution::Trace;
use befview::model::rows::ListId;
use befview::{App, Document};

const PROGRAM: &str = "befview/execution.mlir";

fn trace(functions: &[&str]) -> Trace {
    let options = RecordOptions {
        work_queue: "s".into(),
        functions: functions.iter().map(|f| (*f).to_owned()).collect(),
        recorder: RecorderOptions {
            values: true,
            ..RecorderOptions::default()
        },
        ..RecordOptions::default()
    };
    let (recording, _) =
        record_file(&common::corpus(PROGRAM), &options, |_| {}).expect("the program records");
    Trace::new(Path::new("run.beftrace"), recording)
}

#[test]
fn p_goes_to_the_producer_and_u_through_the_readers() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    let mut app = App::with_trace(&doc, trace(&["main"]));
    let trace = app.execution.trace.clone().unwrap();
    // The last event of @main's execution: every register is published.
    let main = trace
        .steps
        .iter()
        .find_map(|s| match s.event.kind {
            EventKind::FunctionBegin { caller: None, .. } => Some(s.event.execution),
            _ => None,
        })
        .expect("@main begins");
    let last = trace
        .steps
        .iter()
        .rposition(|s| s.event.execution == main)
        .unwrap();
    app.cursor_mut(ListId::Events).selected = last;
    app.act(Action::Right);
    // %sum: published by the call, read by more than one kernel.
    let users = |r: usize| {
        let f = trace.function_of(main).unwrap() as usize;
        trace.recording.functions[f].registers[r].users.clone()
    };
    let sum = (0..trace.registers_at(last, main).len())
        .find(|&r| users(r).len() >= 2 && trace.producer_event(main, r as u32).is_some())
        .expect("a register read twice");
    app.cursor_mut(ListId::ExecRegisters).selected = sum;
    app.act(Action::Producer);
    let at = app.cursor(ListId::Events).selected;
    assert!(
        matches!(trace.steps[at].event.kind, EventKind::RegisterSet { register, .. } if register as usize == sum),
        "{:?}",
        trace.steps[at]
    );
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .contains("produced by kernel")
    );
    let mut readers = Vec::new();
    loop {
        app.act(Action::NextReader);
        let here = app.cursor(ListId::Events).selected;
        if readers.last() == Some(&here) {
            break;
        }
        let EventKind::KernelStart { kernel } = trace.steps[here].event.kind else {
            panic!("a reader's start: {:?}", trace.steps[here]);
        };
        assert!(users(sum).contains(&kernel));
        assert!(here > at);
        readers.push(here);
    }
    assert_eq!(readers.len(), users(sum).len(), "every reader visited once");
    assert!(app.message.as_deref().unwrap().contains("no later reader"));
    app.act(Action::PrevReader);
    assert_eq!(
        app.cursor(ListId::Events).selected,
        readers[readers.len() - 2]
    );
    assert_eq!(app.tab, Tab::Execution);
}

#[test]
fn braces_on_a_function_end_reach_the_next_execution() {
    let loaded = common::open(PROGRAM);
    let doc = Document::new(&loaded).expect("a BEF listing");
    // @fails runs twice: two executions of one function.
    let mut app = App::with_trace(&doc, trace(&["fails", "fails"]));
    let trace = app.execution.trace.clone().unwrap();
    let ends: Vec<usize> = trace
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.event.kind, EventKind::FunctionEnd))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(ends.len(), 2, "two executions");
    app.cursor_mut(ListId::Events).selected = ends[0];
    app.act(Action::KernelForward);
    assert_eq!(
        app.cursor(ListId::Events).selected,
        ends[1],
        "{:?}",
        app.message
    );
    app.act(Action::KernelForward);
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .contains("no later execution")
    );
    app.act(Action::KernelBack);
    assert_eq!(app.cursor(ListId::Events).selected, ends[0]);
}
