//! Property test: random single-threaded sequences of AsyncValue operations
//! checked after every step against a simple model of the state machine
//! (states, payloads, errors, callbacks run, reference counts).

#![cfg(not(loom))]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bef::runtime::{AsyncState, AsyncValue, GetError, SetError};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Make {
    Unconstructed,
    Constructed(u32),
    ConstructedKeep(u32),
    Available(u32),
    Error,
    Indirect,
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Emplace(usize, u32),
    SetConcrete(usize),
    SetError(usize),
    Forward(usize, usize),
    AndThen(usize),
    Clone(usize),
    Drop(usize),
}

#[derive(Clone, Debug, PartialEq)]
enum S {
    Unconstructed,
    Constructed(u32),
    Concrete(u32),
    Error(String),
}

#[derive(Clone, Debug)]
struct M {
    indirect: bool,
    keep: bool,
    state: S,
    kept: Option<u32>,
    claimed: bool,
    /// Resolved indirect: index of the (non-indirect) value it points at,
    /// or None for an anonymous value made by emplace / set_error.
    target: Option<usize>,
    pending_forward: bool,
    waiting: Vec<usize>,
    callbacks_added: usize,
    handles: usize,
}

fn make_strategy() -> impl Strategy<Value = Make> {
    prop_oneof![
        Just(Make::Unconstructed),
        any::<u32>().prop_map(Make::Constructed),
        any::<u32>().prop_map(Make::ConstructedKeep),
        any::<u32>().prop_map(Make::Available),
        Just(Make::Error),
        Just(Make::Indirect),
    ]
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let i = 0usize..6;
    prop_oneof![
        (i.clone(), any::<u32>()).prop_map(|(i, v)| Op::Emplace(i, v)),
        i.clone().prop_map(Op::SetConcrete),
        i.clone().prop_map(Op::SetError),
        (i.clone(), i.clone()).prop_map(|(a, b)| Op::Forward(a, b)),
        i.clone().prop_map(Op::AndThen),
        i.clone().prop_map(Op::Clone),
        i.prop_map(Op::Drop),
    ]
}

struct Harness {
    values: Vec<Vec<AsyncValue>>,
    runs: Vec<Arc<AtomicUsize>>,
    model: Vec<M>,
}

impl Harness {
    fn new(makes: &[Make]) -> Self {
        let mut values = Vec::new();
        let mut model = Vec::new();
        for &m in makes {
            let (v, s, indirect, keep, claimed) = match m {
                Make::Unconstructed => (
                    AsyncValue::unconstructed::<u32>(),
                    S::Unconstructed,
                    false,
                    false,
                    false,
                ),
                Make::Constructed(x) => (
                    AsyncValue::constructed(x),
                    S::Constructed(x),
                    false,
                    false,
                    false,
                ),
                Make::ConstructedKeep(x) => (
                    AsyncValue::constructed_keep_payload_on_error(x),
                    S::Constructed(x),
                    false,
                    true,
                    false,
                ),
                Make::Available(x) => {
                    (AsyncValue::available(x), S::Concrete(x), false, false, true)
                }
                Make::Error => (
                    AsyncValue::error("made"),
                    S::Error("made".into()),
                    false,
                    false,
                    true,
                ),
                Make::Indirect => (AsyncValue::indirect(), S::Unconstructed, true, false, false),
            };
            values.push(vec![v]);
            model.push(M {
                indirect,
                keep,
                state: s,
                kept: None,
                claimed,
                target: None,
                pending_forward: false,
                waiting: Vec::new(),
                callbacks_added: 0,
                handles: 1,
            });
        }
        let runs = (0..makes.len())
            .map(|_| Arc::new(AtomicUsize::new(0)))
            .collect();
        Harness {
            values,
            runs,
            model,
        }
    }

    fn available(&self, i: usize) -> bool {
        matches!(self.model[i].state, S::Concrete(_) | S::Error(_))
    }

    /// Model: value i became available; resolve indirect values waiting on it.
    fn became_available(&mut self, i: usize) {
        let waiting = std::mem::take(&mut self.model[i].waiting);
        let final_target = if self.model[i].indirect {
            self.model[i].target
        } else {
            Some(i)
        };
        for k in waiting {
            self.model[k].pending_forward = false;
            self.model[k].state = self.model[i].state.clone();
            self.model[k].target = final_target;
            self.model[k].kept = final_target.and_then(|t| self.model[t].kept);
            self.became_available(k);
        }
    }

    fn apply(&mut self, op: Op) {
        let n = self.values.len();
        match op {
            Op::Emplace(i, x) => {
                let i = i % n;
                let r = self.values[i][0].try_emplace(x);
                let m = &mut self.model[i];
                let ok = !m.claimed;
                assert_eq!(r.is_ok(), ok, "emplace on {m:?}");
                if ok {
                    m.claimed = true;
                    m.state = S::Concrete(x);
                    m.target = None;
                    self.became_available(i);
                } else {
                    assert_eq!(r.unwrap_err().reason, SetError::AlreadySet);
                }
            }
            Op::SetConcrete(i) => {
                let i = i % n;
                let r = self.values[i][0].try_set_state_concrete();
                let m = &mut self.model[i];
                let expected = if m.indirect {
                    Err(
                        if m.claimed && matches!(m.state, S::Concrete(_) | S::Error(_)) {
                            SetError::AlreadySet
                        } else {
                            SetError::NotConstructed
                        },
                    )
                } else if m.claimed {
                    Err(SetError::AlreadySet)
                } else {
                    match m.state {
                        S::Constructed(x) => {
                            m.state = S::Concrete(x);
                            m.claimed = true;
                            Ok(())
                        }
                        _ => Err(SetError::NotConstructed),
                    }
                };
                assert_eq!(r, expected);
                if r.is_ok() {
                    self.became_available(i);
                }
            }
            Op::SetError(i) => {
                let i = i % n;
                let r = self.values[i][0].try_set_error("err");
                let m = &mut self.model[i];
                assert_eq!(r.is_ok(), !m.claimed);
                if r.is_ok() {
                    if let S::Constructed(x) = m.state
                        && m.keep
                    {
                        m.kept = Some(x);
                    }
                    m.claimed = true;
                    m.state = S::Error("err".into());
                    m.target = None;
                    self.became_available(i);
                }
            }
            Op::Forward(a, b) => {
                let (a, b) = (a % n, b % n);
                // Only forward "down" the list (or to itself) to avoid cycles,
                // which are documented to never resolve.
                if b < a {
                    return;
                }
                let target = self.values[b][0].clone();
                let r = self.values[a][0].try_forward_to(target);
                let ok = self.model[a].indirect && !self.model[a].claimed;
                assert_eq!(r.is_ok(), ok);
                if !ok {
                    let reason = r.unwrap_err().reason;
                    let expect = if self.model[a].indirect {
                        SetError::AlreadySet
                    } else {
                        SetError::NotIndirect
                    };
                    assert_eq!(reason, expect);
                    return;
                }
                self.model[a].claimed = true;
                if a == b {
                    self.model[a].state =
                        S::Error("indirect async value forwarded to itself".into());
                    self.model[a].target = None;
                    self.became_available(a);
                } else if self.available(b) {
                    self.model[a].state = self.model[b].state.clone();
                    let t = if self.model[b].indirect {
                        self.model[b].target
                    } else {
                        Some(b)
                    };
                    self.model[a].target = t;
                    self.model[a].kept = t.and_then(|t| self.model[t].kept);
                    self.became_available(a);
                } else {
                    self.model[a].pending_forward = true;
                    self.model[b].waiting.push(a);
                }
            }
            Op::AndThen(i) => {
                let i = i % n;
                let runs = self.runs[i].clone();
                self.values[i][0].and_then(move || {
                    runs.fetch_add(1, Ordering::SeqCst);
                });
                self.model[i].callbacks_added += 1;
            }
            Op::Clone(i) => {
                let i = i % n;
                let v = self.values[i][0].clone();
                self.values[i].push(v);
                self.model[i].handles += 1;
            }
            Op::Drop(i) => {
                let i = i % n;
                if self.values[i].len() > 1 {
                    self.values[i].pop();
                    self.model[i].handles -= 1;
                }
            }
        }
    }

    fn check(&self) {
        for (i, m) in self.model.iter().enumerate() {
            let v = &self.values[i][0];
            let state = match m.state {
                S::Unconstructed => AsyncState::Unconstructed,
                S::Constructed(_) => AsyncState::Constructed,
                S::Concrete(_) => AsyncState::Concrete,
                S::Error(_) => AsyncState::Error,
            };
            // Indirect values report Unconstructed until resolved.
            assert_eq!(v.state(), state, "value {i}: {m:?}");
            match &m.state {
                S::Concrete(x) => assert_eq!(v.get::<u32>(), Ok(x)),
                S::Error(msg) => match v.get::<u32>() {
                    Err(GetError::Error(d)) => assert_eq!(&d.message, msg),
                    other => panic!("value {i}: expected error, got {other:?}"),
                },
                _ => assert_eq!(v.get::<u32>(), Err(GetError::Unavailable)),
            }
            assert_eq!(v.kept_payload::<u32>(), m.kept.as_ref());
            let expected_runs = if v.is_available() {
                m.callbacks_added
            } else {
                0
            };
            assert_eq!(
                self.runs[i].load(Ordering::SeqCst),
                expected_runs,
                "callbacks of {i}"
            );
            let pointed = self
                .model
                .iter()
                .filter(|k| k.indirect && k.target == Some(i))
                .count();
            let expected_refs = m.handles + usize::from(m.pending_forward) + pointed;
            assert_eq!(
                v.ref_count() as usize,
                expected_refs,
                "refs of value {i}: {m:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn async_value_matches_model(
        makes in prop::collection::vec(make_strategy(), 1..6),
        ops in prop::collection::vec(op_strategy(), 0..40),
    ) {
        let mut h = Harness::new(&makes);
        h.check();
        for op in ops {
            h.apply(op);
            h.check();
        }
    }
}
