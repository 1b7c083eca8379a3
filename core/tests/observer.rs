//! The observer contract (`bef::exec` observer module documentation),
//! checked on recordings: every conformance program that loads, on the
//! single-threaded and a two-thread work queue, and focused programs whose
//! call stacks and event sequences are known.
//!
//! A recorder appends every event under one lock, so the recording is in
//! an order consistent with causality (the contract's delivery promise),
//! and [`check`] verifies, event by event:
//! - an execution's `FunctionBegin` comes first and once, its `FunctionEnd`
//!   last and once, after all its kernels ended; after the call finished
//!   without leaks every execution has ended;
//! - every `KernelStart` has exactly one `KernelEnd` on the same thread,
//!   and on each thread starts and ends nest like brackets;
//! - in asynchronous executions every started kernel was ready first, and
//!   only they report `KernelReady`;
//! - a register is set at most once, after its producer's `KernelEnd` (or
//!   its execution's begin, for arguments);
//! - a result unavailable when its kernel returned is reported available
//!   once, after that `KernelEnd`, before the register's `RegisterSet` when
//!   it is published available, after it when published unavailable (and
//!   then possibly after the execution's end), and, when the call finished
//!   without leaks, for every result published unavailable;
//! - a caller link names a kernel that has started; exactly one execution
//!   per call (the function the host called) has none;
//! - timestamps never go backwards on a thread.

mod common;

use bef::exec::Timestamp;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use bef::exec::{
    AllocatorKind, Caller, ExecEvent, ExecutionId, Function, KernelRegistry, Observer, Program,
    ResultValue, Runner,
};
use bef::format::FunctionKind;
use bef::runtime::AsyncState;

/// Serializes the tests: leak reports count live async values process-wide.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// An event with its borrowed names copied.
#[derive(Debug, Clone, PartialEq)]
enum What {
    Begin {
        function: String,
        kind: FunctionKind,
        caller: Option<Caller>,
    },
    End,
    Ready {
        kernel: u32,
    },
    Start {
        kernel: u32,
        name: String,
    },
    KernelEnd {
        kernel: u32,
        skipped: bool,
    },
    Set {
        register: u32,
        producer: u32,
        state: AsyncState,
    },
    Available {
        register: u32,
        producer: u32,
        state: AsyncState,
    },
}

#[derive(Debug, Clone)]
struct Record {
    execution: ExecutionId,
    thread: ThreadId,
    time: Timestamp,
    what: What,
}

#[derive(Default)]
struct Recorder {
    records: Mutex<Vec<Record>>,
}

impl Observer for Recorder {
    fn on_event(&self, event: &ExecEvent<'_>) {
        let what = match *event {
            ExecEvent::FunctionBegin {
                name, kind, caller, ..
            } => What::Begin {
                function: name.to_string(),
                kind,
                caller,
            },
            ExecEvent::FunctionEnd { .. } => What::End,
            ExecEvent::KernelReady { kernel, .. } => What::Ready { kernel },
            ExecEvent::KernelStart { kernel, name, .. } => What::Start {
                kernel,
                name: name.to_string(),
            },
            ExecEvent::KernelEnd {
                kernel, skipped, ..
            } => What::KernelEnd { kernel, skipped },
            ExecEvent::RegisterSet {
                register,
                producer,
                state,
                ..
            } => What::Set {
                register,
                producer,
                state,
            },
            ExecEvent::ResultAvailable {
                register,
                producer,
                state,
                ..
            } => What::Available {
                register,
                producer,
                state,
            },
        };
        let record = Record {
            execution: event.execution(),
            thread: event.thread(),
            time: event.time(),
            what,
        };
        self.records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(record);
    }
}

impl Recorder {
    fn take(&self) -> Vec<Record> {
        std::mem::take(&mut self.records.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// What the checker knows about one execution.
#[derive(Default)]
struct ExecutionState {
    kind: Option<FunctionKind>,
    ended: bool,
    ready: HashSet<u32>,
    started: HashSet<u32>,
    kernel_ended: HashSet<u32>,
    registers: HashSet<u32>,
    /// Registers of kernels' results published unavailable.
    published_unavailable: HashSet<u32>,
    /// Registers whose result was reported available.
    available: HashSet<u32>,
}

/// Checks the contract on `records` (see the file's documentation);
/// `all_ended`: the call finished without leaks, so every execution must
/// have ended.
fn check(records: &[Record], all_ended: bool) -> Result<(), String> {
    let mut executions: HashMap<ExecutionId, ExecutionState> = HashMap::new();
    let mut stacks: HashMap<ThreadId, Vec<(ExecutionId, u32)>> = HashMap::new();
    let mut last_time: HashMap<ThreadId, Timestamp> = HashMap::new();
    let mut roots = 0;
    for (i, r) in records.iter().enumerate() {
        let fail = |message: String| Err(format!("event #{i} {r:?}: {message}"));
        let e = r.execution;
        if let Some(&previous) = last_time.get(&r.thread)
            && r.time < previous
        {
            return fail("timestamp earlier than the thread's previous event".into());
        }
        last_time.insert(r.thread, r.time);
        if let What::Begin { kind, caller, .. } = &r.what {
            if executions.contains_key(&e) {
                return fail("a second FunctionBegin, or one after other events".into());
            }
            match caller {
                None => roots += 1,
                Some(c) => {
                    let started = executions
                        .get(&c.execution)
                        .is_some_and(|s| s.started.contains(&c.kernel));
                    if !started {
                        return fail(format!("caller {c:?} has not started"));
                    }
                }
            }
            executions.insert(
                e,
                ExecutionState {
                    kind: Some(*kind),
                    ..Default::default()
                },
            );
            continue;
        }
        let Some(state) = executions.get_mut(&e) else {
            return fail("before its FunctionBegin".into());
        };
        if state.ended && !matches!(r.what, What::Available { .. }) {
            return fail("after its FunctionEnd".into());
        }
        let asynchronous = state.kind == Some(FunctionKind::Bef);
        match &r.what {
            What::Begin { .. } => unreachable!("handled above"),
            What::End => {
                if state.started.len() != state.kernel_ended.len() {
                    return fail("kernels still running".into());
                }
                state.ended = true;
            }
            What::Ready { kernel } => {
                if !asynchronous {
                    return fail("KernelReady outside the asynchronous executor".into());
                }
                if !state.ready.insert(*kernel) {
                    return fail("ready twice".into());
                }
            }
            What::Start { kernel, .. } => {
                if asynchronous && !state.ready.contains(kernel) {
                    return fail("started before it was ready".into());
                }
                if !state.started.insert(*kernel) {
                    return fail("started twice".into());
                }
                stacks.entry(r.thread).or_default().push((e, *kernel));
            }
            What::KernelEnd { kernel, .. } => {
                if !state.started.contains(kernel) {
                    return fail("ended without a start".into());
                }
                if !state.kernel_ended.insert(*kernel) {
                    return fail("ended twice".into());
                }
                let top = stacks.entry(r.thread).or_default().pop();
                if top != Some((e, *kernel)) {
                    return fail(format!(
                        "not the innermost kernel running on this thread ({top:?})"
                    ));
                }
            }
            What::Set {
                register,
                producer,
                state: value,
            } => {
                if *producer != 0 && !state.kernel_ended.contains(producer) {
                    return fail("set before its producer ended".into());
                }
                if !state.registers.insert(*register) {
                    return fail("register set twice".into());
                }
                if *producer != 0 && asynchronous && !value.is_available() {
                    if state.available.contains(register) {
                        return fail("published unavailable after it became available".into());
                    }
                    state.published_unavailable.insert(*register);
                }
            }
            What::Available {
                register,
                producer,
                state: value,
            } => {
                if !asynchronous || *producer == 0 {
                    return fail("only kernels' results of the executor are reported".into());
                }
                if !state.kernel_ended.contains(producer) {
                    return fail("available before its producer ended".into());
                }
                if !value.is_available() {
                    return fail("reported available in an unavailable state".into());
                }
                if !state.available.insert(*register) {
                    return fail("reported available twice".into());
                }
                if state.registers.contains(register)
                    && !state.published_unavailable.contains(register)
                {
                    return fail("reported available after it was published available".into());
                }
                if state.ended && !state.published_unavailable.contains(register) {
                    return fail("after its FunctionEnd, though something read it".into());
                }
            }
        }
    }
    if records.is_empty() {
        return Err("no events".into());
    }
    if roots != 1 {
        return Err(format!(
            "{roots} executions without a caller; only the called function has none"
        ));
    }
    for (thread, stack) in &stacks {
        if !stack.is_empty() {
            return Err(format!("kernels never ended on {thread:?}: {stack:?}"));
        }
    }
    if all_ended {
        let open: Vec<_> = executions
            .iter()
            .filter(|(_, s)| !s.ended)
            .map(|(e, _)| e)
            .collect();
        if !open.is_empty() {
            return Err(format!("executions never ended: {open:?}"));
        }
        for (e, s) in &executions {
            if let Some(r) = s.published_unavailable.difference(&s.available).next() {
                return Err(format!(
                    "execution {e}: register {r} published unavailable, never reported available"
                ));
            }
        }
    }
    Ok(())
}

fn registry() -> KernelRegistry {
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    registry
}

/// A runner that keeps kernel output and runtime errors to itself.
fn quiet_runner(queue: &str) -> Runner {
    Runner::builder(registry())
        .work_queue(queue)
        .allocator(AllocatorKind::Malloc)
        // The deep recursions of the corpus then end at the limit, which
        // checks the contract on that path too, at a tenth of their cost
        // (unoptimized, the full depth takes a minute).
        .max_call_depth(20_000)
        .diagnostic_sink(|_| {})
        .output_sink(|_| {})
        .build()
        .expect("valid work queue")
}

/// Runs `function` with a recorder attached; the recording and whether
/// the call finished without leaks.
fn record(runner: &Runner, function: &Function) -> (Vec<Record>, Vec<ResultValue>, bool) {
    let recorder = Arc::new(Recorder::default());
    let finished = runner
        .run(function, &[], Some(recorder.clone()))
        .expect("runs");
    (recorder.take(), finished.results, finished.leaks.is_clean())
}

#[test]
fn conformance_programs_keep_the_contract() {
    let _serial = serial();
    check_conformance_programs();
}

fn check_conformance_programs() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for queue in ["s", "mstd:2"] {
        let runner = quiet_runner(queue);
        for path in common::corpus_files("conformance", "mlir") {
            // Programs that are meant not to load (unknown kernels, syntax
            // errors for diagnostics tests) have nothing to observe.
            let Ok(program) = runner.open(&path) else {
                continue;
            };
            let functions = runner
                .select_functions(&program, &[], None)
                .expect("every function");
            for function in functions.iter().filter(|f| f.num_arguments() == 0) {
                let (records, _, clean) = record(&runner, function);
                if let Err(e) = check(&records, clean) {
                    failures.push(format!(
                        "{} @{} on {queue}: {e}",
                        path.file_name().unwrap().display(),
                        function.name()
                    ));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Most of the corpus runs: a change that stopped it loading would
    // otherwise make this test vacuous.
    assert!(checked > 200, "only {checked} functions ran");
}

fn load(runner: &Runner, source: &str) -> Arc<Program> {
    let input = bef::exec::Input::from_bytes(source.as_bytes(), "observed.mlir").expect("parses");
    runner.load(input).expect("loads")
}

/// The executions' function names and the kernels' names, by execution.
struct Names {
    functions: HashMap<ExecutionId, (String, Option<Caller>)>,
    kernels: HashMap<(ExecutionId, u32), String>,
}

impl Names {
    fn of(records: &[Record]) -> Names {
        let mut names = Names {
            functions: HashMap::new(),
            kernels: HashMap::new(),
        };
        for r in records {
            match &r.what {
                What::Begin {
                    function, caller, ..
                } => {
                    names
                        .functions
                        .insert(r.execution, (function.clone(), *caller));
                }
                What::Start { kernel, name } => {
                    names.kernels.insert((r.execution, *kernel), name.clone());
                }
                _ => {}
            }
        }
        names
    }

    /// The call stack of kernel `kernel` of `execution`, outermost first:
    /// function, kernel, function, kernel, ...
    fn stack(&self, execution: ExecutionId, kernel: u32) -> Vec<String> {
        let mut frames = Vec::new();
        let mut at = Some(Caller { execution, kernel });
        while let Some(c) = at {
            let (function, caller) = &self.functions[&c.execution];
            frames.push(self.kernels[&(c.execution, c.kernel)].clone());
            frames.push(function.clone());
            at = *caller;
        }
        frames.reverse();
        frames
    }
}

const CALL_IN_IF: &str = r#"
func.func @leaf(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}

func.func @main() -> i32 {
  %t = tfrt.constant.i1 1
  %x = tfrt.constant.i32 41
  %r = tfrt.if %t, %x : (i32) -> (i32) {
    %y = tfrt.call @leaf(%x) : (i32) -> i32
    tfrt.return %y : i32
  } else {
    tfrt.return %x : i32
  }
  tfrt.return %r : i32
}
"#;

#[test]
fn call_stack_through_if_and_call() {
    let _serial = serial();
    for queue in ["s", "mstd:2"] {
        let runner = quiet_runner(queue);
        let program = load(&runner, CALL_IN_IF);
        let main = runner.function(&program, "main").unwrap();
        let (records, results, clean) = record(&runner, &main);
        assert_eq!(results, [ResultValue::I32(42)]);
        check(&records, clean).unwrap();
        let names = Names::of(&records);
        let add = records
            .iter()
            .find_map(|r| match &r.what {
                What::Start { kernel, name } if name == "tfrt.add.i32" => {
                    Some((r.execution, *kernel))
                }
                _ => None,
            })
            .expect("the leaf's add ran");
        let stack = names.stack(add.0, add.1);
        // The branch is a function of its own (a region), named by the
        // translator; the rest is fixed.
        assert_eq!(stack.len(), 6, "{stack:?}");
        assert_eq!(
            [&stack[..2], &stack[3..]].concat(),
            ["main", "tfrt.if", "tfrt.call", "leaf", "tfrt.add.i32"],
            "{stack:?}"
        );
        let branch = &stack[2];
        let branch_index = program.function_named(branch);
        assert!(
            branch_index.is_some(),
            "the branch '{branch}' is a function"
        );
        // Only the true branch ran: main, the branch and the leaf.
        assert_eq!(names.functions.len(), 3, "{:?}", names.functions);
    }
}

/// A sync function called directly and from an asynchronous one, and a
/// native function called from a sync-free caller.
const SYNC_AND_NATIVE: &str = r#"
func.func @sync_add() -> i32 attributes {tfrt.sync} {
  %x = "tfrt.constant_s.i32"() {value = 40 : i32} : () -> i32
  %y = "tfrt.constant_s.i32"() {value = 2 : i32} : () -> i32
  %z = "tfrt.add_s.i32"(%x, %y) : (i32, i32) -> i32
  tfrt.return %z : i32
}

func.func @calls_sync() -> i32 {
  %r = tfrt.call @sync_add() : () -> i32
  tfrt.return %r : i32
}

func.func private @native_add(%a: i32, %b: i32) -> i32 attributes {tfrt.native}

func.func @calls_native() -> i32 {
  %a = tfrt.constant.i32 1
  %b = tfrt.constant.i32 2
  %r = tfrt.call @native_add(%a, %b) : (i32, i32) -> i32
  tfrt.return %r : i32
}
"#;

#[test]
fn sync_functions_report_every_kernel_in_order() {
    let _serial = serial();
    let runner = quiet_runner("s");
    let program = load(&runner, SYNC_AND_NATIVE);
    let sync_add = runner.function(&program, "sync_add").unwrap();
    let (records, results, clean) = record(&runner, &sync_add);
    assert_eq!(results, [ResultValue::I32(42)]);
    assert!(clean);
    check(&records, true).unwrap();
    let thread = records[0].thread;
    assert!(records.iter().all(|r| r.thread == thread), "one thread");
    let execution = records[0].execution;
    assert!(records.iter().all(|r| r.execution == execution));
    let whats: Vec<What> = records.into_iter().map(|r| r.what).collect();
    let set = |register, producer| What::Set {
        register,
        producer,
        state: AsyncState::Concrete,
    };
    let start = |kernel, name: &str| What::Start {
        kernel,
        name: name.into(),
    };
    let end = |kernel| What::KernelEnd {
        kernel,
        skipped: false,
    };
    // Registers are numbered by the translator: the constants' results
    // first, then the sum.
    assert_eq!(
        whats,
        [
            What::Begin {
                function: "sync_add".into(),
                kind: FunctionKind::Sync,
                caller: None
            },
            start(1, "tfrt.constant_s.i32"),
            end(1),
            set(0, 1),
            start(2, "tfrt.constant_s.i32"),
            end(2),
            set(1, 2),
            start(3, "tfrt.add_s.i32"),
            end(3),
            set(2, 3),
            What::End,
        ]
    );

    // Called by tfrt.call, it names that kernel as its caller.
    let calls_sync = runner.function(&program, "calls_sync").unwrap();
    let (records, results, clean) = record(&runner, &calls_sync);
    assert_eq!(results, [ResultValue::I32(42)]);
    check(&records, clean).unwrap();
    let names = Names::of(&records);
    let sync_execution = names
        .functions
        .iter()
        .find(|(_, (name, _))| name == "sync_add")
        .map(|(e, _)| *e)
        .expect("sync_add ran");
    assert_eq!(
        names.stack(sync_execution, 3),
        ["calls_sync", "tfrt.call", "sync_add", "tfrt.add_s.i32"]
    );
}

#[test]
fn native_functions_report_their_body_as_kernel_zero() {
    let _serial = serial();
    for queue in ["s", "mstd:2"] {
        let runner = quiet_runner(queue);
        let program = load(&runner, SYNC_AND_NATIVE);
        let calls_native = runner.function(&program, "calls_native").unwrap();
        let (records, results, clean) = record(&runner, &calls_native);
        assert_eq!(results, [ResultValue::I32(3)]);
        check(&records, clean).unwrap();
        let native: Vec<&Record> = records
            .iter()
            .filter(|r| {
                records.iter().any(|b| {
                    b.execution == r.execution
                        && matches!(
                            &b.what,
                            What::Begin {
                                kind: FunctionKind::Native,
                                ..
                            }
                        )
                })
            })
            .collect();
        let whats: Vec<&What> = native.iter().map(|r| &r.what).collect();
        assert_eq!(whats.len(), 4, "{whats:?}");
        assert!(
            matches!(whats[0], What::Begin { function, caller: Some(_), .. } if function == "native_add")
        );
        assert_eq!(
            whats[1..],
            [
                &What::Start {
                    kernel: 0,
                    name: "native_add".into()
                },
                &What::KernelEnd {
                    kernel: 0,
                    skipped: false
                },
                &What::End
            ]
        );
        let names = Names::of(&records);
        assert_eq!(
            names.stack(native[0].execution, 0),
            ["calls_native", "tfrt.call", "native_add", "native_add"]
        );
    }
}

/// The checker itself: each rule must be able to fail.
#[test]
fn checker_rejects_broken_recordings() {
    let thread = std::thread::current().id();
    let time = Timestamp::now();
    let at = |execution, what| Record {
        execution,
        thread,
        time,
        what,
    };
    let begin = |caller| What::Begin {
        function: "f".into(),
        kind: FunctionKind::Bef,
        caller,
    };
    let start = |kernel| What::Start {
        kernel,
        name: "k".into(),
    };
    let end = |kernel| What::KernelEnd {
        kernel,
        skipped: false,
    };
    let good = vec![
        at(1, begin(None)),
        at(1, What::Ready { kernel: 1 }),
        at(1, start(1)),
        at(
            2,
            begin(Some(Caller {
                execution: 1,
                kernel: 1,
            })),
        ),
        at(2, What::End),
        at(1, end(1)),
        at(
            1,
            What::Set {
                register: 0,
                producer: 1,
                state: AsyncState::Concrete,
            },
        ),
        at(1, What::End),
    ];
    check(&good, true).unwrap();
    let broken = |edit: &dyn Fn(&mut Vec<Record>)| {
        let mut records = good.clone();
        edit(&mut records);
        check(&records, true).expect_err("must be rejected");
    };
    // Not ready before start.
    broken(&|r| {
        r.remove(1);
    });
    // Caller not started.
    broken(&|r| r.swap(2, 3));
    // A second root.
    broken(&|r| r[3] = at(2, begin(None)));
    // Register set before its producer ended.
    broken(&|r| r.swap(5, 6));
    // Execution ends with a kernel running.
    broken(&|r| r.swap(5, 7));
    // Never ends.
    broken(&|r| {
        r.pop();
    });
    // Kernels ending in the order they started (brackets not nested).
    let crossed = vec![
        at(1, begin(None)),
        at(1, What::Ready { kernel: 1 }),
        at(1, What::Ready { kernel: 2 }),
        at(1, start(1)),
        at(1, start(2)),
        at(1, end(1)),
        at(1, end(2)),
        at(1, What::End),
    ];
    check(&crossed, true).expect_err("crossed brackets");
    // A result published unavailable, reported available after the end.
    let set = |state| What::Set {
        register: 0,
        producer: 1,
        state,
    };
    let available = What::Available {
        register: 0,
        producer: 1,
        state: AsyncState::Concrete,
    };
    let mut late = good.clone();
    late[6] = at(1, set(AsyncState::Unconstructed));
    late.push(at(1, available.clone()));
    check(&late, true).unwrap();
    // Never reported available.
    check(&late[..late.len() - 1], true).expect_err("never available");
    // Reported twice.
    let mut twice = late.clone();
    twice.push(at(1, available.clone()));
    check(&twice, true).expect_err("available twice");
    // Reported after a publication of the available value.
    let mut after = good.clone();
    after.push(at(1, available.clone()));
    check(&after, true).expect_err("available after published available");
    // Reported before its producer ended.
    let mut early = late.clone();
    let reported = early.pop().unwrap();
    early.insert(3, reported);
    check(&early, true).expect_err("available before its producer ended");
    // Time going backwards.
    broken(&|r| r[0].time = Timestamp::from_raw(time.raw() + 1_000_000_000));
}

#[test]
fn timestamps_measure_nanoseconds_as_the_monotonic_clock_does() {
    let (start, instant) = (Timestamp::now(), std::time::Instant::now());
    std::thread::sleep(std::time::Duration::from_millis(30));
    let (end, elapsed) = (Timestamp::now(), instant.elapsed());
    let measured = end.nanos_since(start) as f64;
    let expected = elapsed.as_nanos() as f64;
    // The counter is calibrated against the monotonic clock: the two agree
    // within the calibration's error and the readings' order.
    assert!(
        (measured - expected).abs() <= expected * 0.02 + 200_000.0,
        "{measured} ns against {expected} ns ({})",
        Timestamp::source()
    );
    assert_eq!(start.nanos_since(end), 0, "a later start saturates");
    assert_eq!(Timestamp::from_raw(end.raw()), end);
}

/// Two sleeps on the blocking pool: one result read by a kernel, one only
/// returned.
const BLOCKING: &str = r#"
func.func @main() -> (!tfrt.chain, !tfrt.chain) {
  %us = tfrt.constant.i32 2000
  %read = "tfrt_test.blocking.usleep"(%us) : (i32) -> !tfrt.chain
  %returned = "tfrt_test.blocking.usleep"(%us) : (i32) -> !tfrt.chain
  %done = tfrt.merge.chains %read, %read : !tfrt.chain, !tfrt.chain
  tfrt.return %done, %returned : !tfrt.chain, !tfrt.chain
}
"#;

#[test]
fn results_completed_on_the_blocking_pool_are_reported_there() {
    let _serial = serial();
    for queue in ["s", "mstd:2"] {
        let runner = quiet_runner(queue);
        let program = load(&runner, BLOCKING);
        let main = runner.function(&program, "main").unwrap();
        let (records, _, clean) = record(&runner, &main);
        check(&records, clean).unwrap();
        let sleeps: Vec<(u32, &Record)> = records
            .iter()
            .filter_map(|r| match &r.what {
                What::KernelEnd { kernel, .. }
                    if Names::of(&records).kernels[&(r.execution, *kernel)]
                        == "tfrt_test.blocking.usleep" =>
                {
                    Some((*kernel, r))
                }
                _ => None,
            })
            .collect();
        assert_eq!(sleeps.len(), 2, "{queue}");
        let mut orders = Vec::new();
        for (kernel, end) in sleeps {
            let position = |wanted: fn(&What, u32) -> bool| {
                records
                    .iter()
                    .position(|r| wanted(&r.what, kernel))
                    .unwrap_or_else(|| panic!("{queue}: kernel {kernel}: {records:#?}"))
            };
            let available =
                position(|w, k| matches!(w, What::Available { producer, .. } if *producer == k));
            let set = position(|w, k| matches!(w, What::Set { producer, .. } if *producer == k));
            let a = &records[available];
            // The single-threaded queue runs blocking work on the thread
            // that waits for the results.
            if queue != "s" {
                assert_ne!(a.thread, end.thread, "{queue}: completed on the pool");
            }
            assert!(
                a.time.nanos_since(end.time) >= 1_000_000,
                "{queue}: completed after the sleep"
            );
            orders.push(available < set);
        }
        // The result read is published once available; the one only
        // returned was published at once, unavailable.
        orders.sort();
        assert_eq!(orders, [false, true], "{queue}");
    }
}
