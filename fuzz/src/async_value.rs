//! Body of the `async_value_ops` fuzz target: arbitrary operations on a set
//! of AsyncValues, run from several threads at once, with invariants checked
//! afterwards. Also run by `cargo test` (see `run_seeded`).
//!
//! Invariants:
//! * exactly one write (emplace, set_state_concrete, set_error, forward_to)
//!   per value succeeds, and the final state matches the winning write;
//! * a payload read while available never changes afterwards;
//! * a wrong-type emplace is always refused;
//! * every `and_then` callback runs exactly once, after the value became
//!   available;
//! * every payload is dropped exactly once (none leaks, none is dropped
//!   twice), and every callback closure is freed.
//!
//! The caller may also compare `bef::runtime::live_async_values` before
//! and after.

use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use arbitrary::{Arbitrary, Unstructured};

use bef::runtime::{AsyncState, AsyncValue, AsyncValueKind, SetError};

/// The payload: a number plus a live-payload counter.
struct Payload {
    value: u16,
    live: Arc<AtomicIsize>,
}

impl Payload {
    fn new(value: u16, live: &Arc<AtomicIsize>) -> Self {
        live.fetch_add(1, Ordering::SeqCst);
        Payload {
            value,
            live: live.clone(),
        }
    }
}

impl Drop for Payload {
    fn drop(&mut self) {
        self.live.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Make {
    Unconstructed,
    Constructed(u16),
    ConstructedKeep(u16),
    Available(u16),
    Error,
    Indirect,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Emplace(u8, u16),
    EmplaceWrongType(u8),
    SetConcrete(u8),
    SetError(u8),
    /// Forward value a to value b; only when b's index is >= a's, so that
    /// forwards form no cycle (a self-forward becomes an error).
    Forward(u8, u8),
    AndThen(u8),
    Get(u8),
    Clone(u8),
    Drop(u8),
}

#[derive(Debug)]
struct Program {
    values: Vec<Make>,
    threads: Vec<Vec<Op>>,
}

impl Program {
    /// Bounded decoding: 1..=8 values, 1..=3 threads of up to 48 operations
    /// (the derived `Vec` decoding spends the input on lengths and yields
    /// mostly empty programs).
    fn decode(u: &mut Unstructured<'_>) -> arbitrary::Result<Program> {
        let n_values = u.int_in_range(1..=MAX_VALUES)?;
        let values = (0..n_values)
            .map(|_| Make::arbitrary(u))
            .collect::<arbitrary::Result<_>>()?;
        let n_threads = u.int_in_range(1..=MAX_THREADS)?;
        let mut threads = Vec::with_capacity(n_threads);
        for _ in 0..n_threads {
            let n_ops = u.int_in_range(0..=MAX_OPS)?;
            let mut ops = Vec::with_capacity(n_ops);
            for _ in 0..n_ops {
                if u.is_empty() {
                    break;
                }
                ops.push(Op::arbitrary(u)?);
            }
            threads.push(ops);
        }
        Ok(Program { values, threads })
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Write {
    Emplace(u16),
    Concrete,
    Error,
    Forward(usize),
}

struct Shared {
    made: Vec<Make>,
    roots: Vec<AsyncValue>,
    winners: Mutex<Vec<Vec<Write>>>,
    reads: Mutex<Vec<(usize, u16)>>,
    callbacks_added: AtomicUsize,
    callbacks_run: AtomicUsize,
    live: Arc<AtomicIsize>,
}

const MAX_VALUES: usize = 8;
const MAX_THREADS: usize = 3;
const MAX_OPS: usize = 48;

fn make(m: Make, live: &Arc<AtomicIsize>) -> AsyncValue {
    match m {
        Make::Unconstructed => AsyncValue::unconstructed::<Payload>(),
        Make::Constructed(v) => AsyncValue::constructed(Payload::new(v, live)),
        Make::ConstructedKeep(v) => {
            AsyncValue::constructed_keep_payload_on_error(Payload::new(v, live))
        }
        Make::Available(v) => AsyncValue::available(Payload::new(v, live)),
        Make::Error => AsyncValue::error("made as error"),
        Make::Indirect => AsyncValue::indirect_of::<Payload>(),
    }
}

fn run_ops(shared: &Arc<Shared>, ops: &[Op]) {
    let n = shared.roots.len();
    let mut mine: Vec<Vec<AsyncValue>> = shared.roots.iter().map(|v| vec![v.clone()]).collect();
    let idx = |i: u8| i as usize % n;
    for &op in ops {
        match op {
            Op::Emplace(i, v) => {
                let i = idx(i);
                let Some(h) = mine[i].last() else { continue };
                if h.try_emplace(Payload::new(v, &shared.live)).is_ok() {
                    shared.winners.lock().unwrap()[i].push(Write::Emplace(v));
                }
            }
            Op::EmplaceWrongType(i) => {
                let i = idx(i);
                let Some(h) = mine[i].last() else { continue };
                let r = h.try_emplace(0u64);
                match r {
                    Err(rej) => assert!(matches!(
                        rej.reason,
                        SetError::TypeMismatch { .. } | SetError::AlreadySet
                    )),
                    Ok(()) => panic!("wrong-type emplace accepted"),
                }
            }
            Op::SetConcrete(i) => {
                let i = idx(i);
                let Some(h) = mine[i].last() else { continue };
                if h.try_set_state_concrete().is_ok() {
                    shared.winners.lock().unwrap()[i].push(Write::Concrete);
                }
            }
            Op::SetError(i) => {
                let i = idx(i);
                let Some(h) = mine[i].last() else { continue };
                if h.try_set_error("fuzz error").is_ok() {
                    shared.winners.lock().unwrap()[i].push(Write::Error);
                }
            }
            Op::Forward(a, b) => {
                let (a, b) = (idx(a), idx(b));
                if b < a {
                    continue;
                }
                let (Some(ha), Some(hb)) = (mine[a].last(), mine[b].last()) else {
                    continue;
                };
                if ha.try_forward_to(hb.clone()).is_ok() {
                    shared.winners.lock().unwrap()[a].push(Write::Forward(b));
                }
            }
            Op::AndThen(i) => {
                let i = idx(i);
                let Some(h) = mine[i].last() else { continue };
                shared.callbacks_added.fetch_add(1, Ordering::SeqCst);
                let (s, v) = (shared.clone(), h.clone());
                h.and_then(move || {
                    assert!(v.is_available(), "callback ran before availability");
                    if let Ok(p) = v.get::<Payload>() {
                        s.reads.lock().unwrap().push((i, p.value));
                    }
                    s.callbacks_run.fetch_add(1, Ordering::SeqCst);
                });
            }
            Op::Get(i) => {
                let i = idx(i);
                let Some(h) = mine[i].last() else { continue };
                if let Ok(p) = h.get::<Payload>() {
                    shared.reads.lock().unwrap().push((i, p.value));
                }
            }
            Op::Clone(i) => {
                let i = idx(i);
                if let Some(h) = mine[i].last().cloned() {
                    mine[i].push(h);
                }
            }
            Op::Drop(i) => {
                mine[idx(i)].pop();
            }
        }
    }
}

/// Decodes a program from `u` and runs it, panicking on a violated
/// invariant. Returns the number of operations run.
pub fn async_value_ops(u: &mut Unstructured<'_>) -> arbitrary::Result<usize> {
    let program = Program::decode(u)?;
    let live = Arc::new(AtomicIsize::new(0));
    let roots: Vec<AsyncValue> = program.values.iter().map(|&m| make(m, &live)).collect();
    let shared = Arc::new(Shared {
        made: program.values.clone(),
        winners: Mutex::new(vec![Vec::new(); roots.len()]),
        roots,
        reads: Mutex::new(Vec::new()),
        callbacks_added: AtomicUsize::new(0),
        callbacks_run: AtomicUsize::new(0),
        live: live.clone(),
    });
    std::thread::scope(|scope| {
        for ops in &program.threads {
            let s = shared.clone();
            scope.spawn(move || run_ops(&s, ops));
        }
    });
    check(&shared);
    drop(shared);
    assert_eq!(
        live.load(Ordering::SeqCst),
        0,
        "payload leaked or dropped twice"
    );
    Ok(program.threads.iter().map(Vec::len).sum())
}

fn check(shared: &Arc<Shared>) {
    let n = shared.roots.len();
    let mut winners = shared.winners.lock().unwrap().clone();
    // Finish every value nobody wrote, from the last to the first so that
    // forward targets (higher indices) settle first.
    for i in (0..n).rev() {
        let v = &shared.roots[i];
        assert!(
            winners[i].len() <= 1,
            "value {i} written twice: {:?}",
            winners[i]
        );
        let created_available = matches!(shared.made[i], Make::Available(_) | Make::Error);
        if created_available {
            assert!(winners[i].is_empty(), "write to a value created available");
        }
        if winners[i].is_empty() && !created_available {
            v.try_set_error("finished by the checker")
                .unwrap_or_else(|r| panic!("value {i} unwritten but refused: {}", r.reason));
            winners[i].push(Write::Error);
        }
    }
    for (i, v) in shared.roots.iter().enumerate() {
        assert!(
            v.is_available(),
            "value {i} not available after all writes: {v:?}"
        );
        let expected: Option<Option<u16>> = match (shared.made[i], winners[i].first()) {
            (Make::Available(x), None) => Some(Some(x)),
            (Make::Error, None) => Some(None),
            (_, Some(Write::Emplace(x))) => Some(Some(*x)),
            (Make::Constructed(x) | Make::ConstructedKeep(x), Some(Write::Concrete)) => {
                Some(Some(x))
            }
            (_, Some(Write::Error)) => Some(None),
            (_, Some(Write::Forward(_))) => None,
            (m, w) => panic!("impossible write {w:?} on {m:?}"),
        };
        let actual = v.get::<Payload>().ok().map(|p| p.value);
        match expected {
            Some(e) => assert_eq!(actual, e, "value {i}"),
            None => {
                let Some(Write::Forward(t)) = winners[i].first() else {
                    unreachable!()
                };
                let target = &shared.roots[*t];
                if *t == i {
                    assert!(v.is_error());
                } else {
                    assert_eq!(v.state(), target.state(), "value {i} forwarded to {t}");
                    assert_eq!(actual, target.get::<Payload>().ok().map(|p| p.value));
                }
            }
        }
        if let Some(p) = v.kept_payload::<Payload>() {
            // Follow forwards to the value that holds the payload.
            let mut src = i;
            while let Some(Write::Forward(t)) = winners[src].first() {
                if *t == src {
                    break;
                }
                src = *t;
            }
            assert!(
                matches!(shared.made[src], Make::ConstructedKeep(x) if x == p.value),
                "value {i}: kept payload {} not from a keep-on-error value",
                p.value
            );
        }
        assert_ne!(v.state(), AsyncState::Constructed);
        assert!(v.kind() != AsyncValueKind::Error || v.is_error());
    }
    for &(i, value) in shared.reads.lock().unwrap().iter() {
        let now = shared.roots[i].get::<Payload>().map(|p| p.value);
        assert_eq!(
            now,
            Ok(value),
            "payload of value {i} changed after it was read"
        );
    }
    assert_eq!(
        shared.callbacks_run.load(Ordering::SeqCst),
        shared.callbacks_added.load(Ordering::SeqCst),
        "every callback runs exactly once"
    );
}

/// Runs `iterations` programs decoded from seeded pseudo-random bytes and
/// returns the total number of operations run.
pub fn run_seeded(seed: u64, iterations: usize) -> usize {
    let mut state = seed;
    let mut next = move || {
        // splitmix64
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut bytes = Vec::new();
    let mut total = 0;
    for _ in 0..iterations {
        let len = 16 + (next() % 512) as usize;
        bytes.clear();
        while bytes.len() < len {
            bytes.extend_from_slice(&next().to_le_bytes());
        }
        let mut u = Unstructured::new(&bytes);
        // Running out of bytes mid-program is fine: that is a short program.
        total += async_value_ops(&mut u).unwrap_or(0);
    }
    total
}
