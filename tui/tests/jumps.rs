//! Following a kernel across executions (`}`/`{`) and a watchpoint to its
//! next stop (`)`/`(`) on generated recordings: the indexed answers agree
//! with a pass over every event, a function's `end` row follows to the
//! next execution's end, and on 8 million events each jump takes at most
//! 100 ms (timing: release only, `cargo test --release -p befview --test
//! jumps -- --ignored`).

use std::path::Path;
use std::time::{Duration, Instant};

use bef_trace::recording::{EventKind, Recording, ValueState};
use befview::model::execution::Trace;
use befview::model::watch::{Condition, Watch, Watched};

#[path = "common/scale.rs"]
mod scale;

/// The generated recording with values: each execution's registers hold
/// its number modulo 5, and one publication is an error.
fn with_values(events: usize) -> Recording {
    let mut recording = scale::generated(events);
    for track in &mut recording.threads {
        let mut events = track.events.to_vec();
        for event in &mut events {
            let execution = event.execution;
            if let EventKind::RegisterSet { value, state, .. } = &mut event.kind {
                *value = Some((execution % 5).to_string().into());
                if execution == 77 {
                    *state = ValueState::Error;
                }
            }
        }
        track.events = events.into();
    }
    recording
}

/// `}`/`{` as a pass over every event computes it: the nearest execution
/// (by first appearance) of the same function holding the same kernel,
/// its event of the same kind, else its first event of the kernel.
fn reference(trace: &Trace, cursor: usize, forward: bool) -> Option<usize> {
    let at = &trace.steps[cursor];
    let frame =
        |k: &EventKind| matches!(k, EventKind::FunctionBegin { .. } | EventKind::FunctionEnd);
    let about = |s: &befview::model::execution::Step| {
        if frame(&s.event.kind) {
            Some(u32::MAX)
        } else {
            s.kernel()
        }
    };
    let subject = about(at)?;
    let function = trace.function_of(at.event.execution)?;
    let ordinal = |s: &befview::model::execution::Step| {
        trace.execution_label(s.event.execution)[1..]
            .parse::<usize>()
            .ok()
    };
    let here = ordinal(at)?;
    let same_kind = |a: &EventKind, b: &EventKind| {
        std::mem::discriminant(a) == std::mem::discriminant(b)
            && befview::model::step_index::register_of(a)
                == befview::model::step_index::register_of(b)
    };
    let mut best: Option<(usize, bool, usize)> = None;
    for (i, s) in trace.steps.iter().enumerate() {
        if about(s) != Some(subject) || trace.function_of(s.event.execution) != Some(function) {
            continue;
        }
        let Some(o) = ordinal(s) else { continue };
        if (forward && o <= here) || (!forward && o >= here) {
            continue;
        }
        let matches = same_kind(&s.event.kind, &at.event.kind);
        let better = match best {
            None => true,
            Some((b, _, _)) if b != o => (forward && o < b) || (!forward && o > b),
            Some((_, m, _)) => matches && !m,
        };
        if better {
            best = Some((o, matches, i));
        }
    }
    best.map(|(_, _, i)| i)
}

#[test]
fn braces_agree_with_a_pass_over_every_event() {
    let trace = Trace::new(Path::new("gen"), scale::generated(30_000));
    let len = trace.steps.len();
    for cursor in (0..len).step_by(37).chain([0, 1, len - 2, len - 1]) {
        for forward in [true, false] {
            assert_eq!(
                trace.same_kernel(cursor, forward),
                reference(&trace, cursor, forward),
                "cursor {cursor}, forward {forward}: {}",
                trace.what(cursor)
            );
        }
    }
}

#[test]
fn an_end_row_follows_to_the_next_execution_s_end() {
    let trace = Trace::new(Path::new("gen"), scale::generated(30_000));
    let end = trace
        .steps
        .iter()
        .position(|s| matches!(s.event.kind, EventKind::FunctionEnd))
        .expect("an end");
    let next = trace
        .same_kernel(end, true)
        .expect("a later execution ends");
    assert!(matches!(
        trace.steps[next].event.kind,
        EventKind::FunctionEnd
    ));
    assert_ne!(
        trace.steps[next].event.execution,
        trace.steps[end].event.execution
    );
    assert_eq!(trace.same_kernel(next, false), Some(end));
}

/// The events a watch stops at, by a pass over every event.
fn stops(trace: &Trace, watch: &Watch) -> Vec<usize> {
    let Watched::Register { function, register } = watch.watched else {
        unreachable!("registers only here")
    };
    let mut out = Vec::new();
    let mut before: Option<(ValueState, Option<String>)> = None;
    for (i, s) in trace.steps.iter().enumerate() {
        if trace.function_of(s.event.execution) != Some(function) {
            continue;
        }
        let EventKind::RegisterSet {
            register: r,
            state,
            value,
            ..
        } = &s.event.kind
        else {
            continue;
        };
        if *r != register {
            continue;
        }
        let now = (*state, value.as_ref().map(|v| v.text.clone()));
        let stop = match &watch.condition {
            Condition::Changes => before.as_ref() != Some(&now),
            Condition::Error => *state == ValueState::Error,
            Condition::Equals(v) => value.as_deref() == Some(v.as_str()),
        };
        if stop {
            out.push(i);
        }
        before = Some(now);
    }
    out
}

#[test]
fn watches_stop_where_a_pass_over_every_event_does() {
    let trace = Trace::new(Path::new("gen"), with_values(20_000));
    for condition in [
        Condition::Changes,
        Condition::Error,
        Condition::Equals("3".into()),
    ] {
        let watch = Watch {
            watched: Watched::Register {
                function: 0,
                register: 4,
            },
            condition,
        };
        let expected = stops(&trace, &watch);
        assert!(!expected.is_empty(), "{watch:?}");
        // Forward from the start visits every stop, backward from the end
        // every one again.
        let mut seen = Vec::new();
        let mut cursor = 0;
        while let Some(next) = watch.next(&trace, cursor, true) {
            assert!(next > cursor);
            seen.push(next);
            cursor = next;
        }
        assert_eq!(seen, expected, "{watch:?}");
        let mut back = Vec::new();
        let mut cursor = trace.steps.len() - 1;
        while let Some(previous) = watch.next(&trace, cursor, false) {
            back.push(previous);
            cursor = previous;
        }
        back.reverse();
        assert_eq!(back, expected, "{watch:?} rewinding");
    }
    // A kernel watched for errors: none of its ends is marked here.
    let kernel = Watch {
        watched: Watched::Kernel {
            function: 0,
            kernel: 3,
        },
        condition: Condition::Changes,
    };
    let first = kernel.next(&trace, 0, true).expect("kernel 3 runs");
    assert_eq!(trace.steps[first].kernel(), Some(3));
}

/// The worst time of `jump` from cursors spread over the recording.
fn worst(trace: &Trace, jump: impl Fn(usize) -> Option<usize>) -> Duration {
    let len = trace.steps.len();
    let mut worst = Duration::ZERO;
    for i in 0..20 {
        let cursor = len / 20 * i + 5;
        let started = Instant::now();
        let found = jump(cursor);
        worst = worst.max(started.elapsed());
        assert!(found.is_some() || i == 0 || i == 19, "cursor {cursor}");
    }
    worst
}

#[test]
#[ignore = "timing: run in release"]
fn jumps_on_eight_million_events_take_at_most_100_ms() {
    let started = Instant::now();
    let trace = Trace::new(Path::new("gen"), with_values(scale::EVENTS));
    eprintln!(
        "{} events ordered and indexed in {:.2?}",
        trace.steps.len(),
        started.elapsed()
    );
    let limit = Duration::from_millis(100);
    let forward = worst(&trace, |c| trace.same_kernel(c, true));
    let backward = worst(&trace, |c| trace.same_kernel(c, false));
    let watch = Watch {
        watched: Watched::Register {
            function: 0,
            register: 4,
        },
        condition: Condition::Equals("3".into()),
    };
    let watched = worst(&trace, |c| watch.next(&trace, c, true));
    let rewind = worst(&trace, |c| watch.next(&trace, c, false));
    eprintln!("worst of 20: }} {forward:.2?}, {{ {backward:.2?}, ) {watched:.2?}, ( {rewind:.2?}");
    for (what, took) in [
        ("}", forward),
        ("{", backward),
        (")", watched),
        ("(", rewind),
    ] {
        assert!(took <= limit, "{what} took {took:?}");
    }
}
