//! `befview --dump execution` is linear in its recording: an execution's
//! state is printed as what each event changed, never reprinted whole at
//! every event. The recording here is the shape that made the old dump
//! quadratic: 2,000 executions of a function of 3,001 kernels, each kernel
//! reading its predecessor's register, every execution recorded only
//! beginning and ending, so that every kernel waits at every event.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use bef_trace::recording::{
    Event, EventKind, FunctionInfo, FunctionKind, Header, KernelInfo, Recording, RegisterInfo,
    ThreadTrack, ValueState,
};

const KERNELS: u32 = 3_001;
const EXECUTIONS: u64 = 2_000;

/// The recording described above, plus one execution that runs its first
/// kernels, so that changes are printed too.
fn waiting_chain() -> Recording {
    let kernels = (0..KERNELS)
        .map(|k| KernelInfo {
            name: format!("tfrt.add.i32 #{k}"),
            bef_offset: 100 + u64::from(k) * 20,
            location: format!("chain.mlir:{}:5", k + 2),
            stream: 0,
        })
        .collect();
    let registers = (0..KERNELS)
        .map(|k| RegisterInfo {
            users: if k + 1 < KERNELS {
                vec![k + 1]
            } else {
                Vec::new()
            },
        })
        .collect();
    let mut events = Vec::new();
    let mut time = 0;
    let mut push = |execution, kind| {
        time += 5;
        events.push(Event {
            time,
            execution,
            kind,
        });
    };
    for execution in 1..=EXECUTIONS {
        push(
            execution,
            EventKind::FunctionBegin {
                function: 0,
                caller: None,
            },
        );
        if execution == 1 {
            for kernel in 0..4 {
                push(execution, EventKind::KernelReady { kernel });
                push(execution, EventKind::KernelStart { kernel });
                push(
                    execution,
                    EventKind::RegisterSet {
                        register: kernel,
                        producer: kernel,
                        state: ValueState::Concrete,
                        value: Some(format!("{kernel}").into()),
                    },
                );
                push(
                    execution,
                    EventKind::KernelEnd {
                        kernel,
                        skipped: false,
                        live_values: None,
                    },
                );
            }
        }
        push(execution, EventKind::FunctionEnd);
    }
    Recording {
        header: Header {
            program_path: "chain.bef".into(),
            work_queue: "s".into(),
            clock: "monotonic".into(),
            ..Header::default()
        },
        functions: vec![FunctionInfo {
            name: "chain".into(),
            kind: FunctionKind::Bef,
            kernels,
            registers,
            signature: String::new(),
        }],
        threads: vec![ThreadTrack {
            name: "main".into(),
            events: events.into(),
            dropped: 0,
        }],
    }
}

#[test]
fn dump_execution_is_linear_in_events_and_kernels() {
    let dir = std::env::temp_dir().join(format!("befview-dump-linear-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file: PathBuf = dir.join("chain.beftrace");
    let recording = waiting_chain();
    let events = recording.event_count() as u64;
    std::fs::write(&file, bef_trace::write(&recording)).expect("written");
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_befview"))
        .args(["--dump", "execution"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("befview starts");
    // A hang guard, not a timing assertion: the old dump wrote 437 MB.
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut bytes).map(|_| bytes)
    });
    loop {
        if child.try_wait().expect("waitable").is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(120) {
            child.kill().ok();
            panic!("befview --dump execution still running after 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = reader.join().expect("reader").expect("stdout read");
    let status = child.wait().expect("exited");
    assert!(status.success(), "{status:?}");
    let bound = 200 * (events + u64::from(KERNELS));
    assert!(
        (out.len() as u64) <= bound,
        "{} bytes for {events} events and {KERNELS} kernels (bound {bound})",
        out.len()
    );
    let text = String::from_utf8(out).expect("utf-8");
    // What changed is there: a kernel starting, a register set and who
    // reads it; and each execution's end state, by counts.
    assert!(
        text.contains("kernel 2 tfrt.add.i32 #2 started"),
        "{text:.2000}"
    );
    assert!(
        text.contains("%1: not produced -> available, from kernel 1 tfrt.add.i32 #1; read by kernel 2 tfrt.add.i32 #2"),
        "{text:.4000}"
    );
    assert!(text.contains("== #2000 @chain after its last event"));
    assert!(text.contains("registers: 4 of 3001 published (the others not produced)"));
    let _ = std::fs::remove_dir_all(&dir);
}
