//! A generated recording of millions of events, for the scale test and
//! the bench.

use bef_trace::recording::{
    Event, EventKind, FunctionInfo, FunctionKind, Header, KernelInfo, Recording, RegisterInfo,
    ThreadTrack, ValueState,
};

/// Events in the generated recording.
pub const EVENTS: usize = 8_000_000;

/// Kernels of the generated function: each run is 2 + 4 × this events.
pub const KERNELS: u32 = 16;

/// A recording of `events` events on two threads: executions of one
/// function whose kernels become ready, start, publish a register and end.
pub fn generated(events: usize) -> Recording {
    let kernels = (0..=KERNELS)
        .map(|k| KernelInfo {
            name: format!("tfrt.add.i32 #{k}"),
            bef_offset: 100 + u64::from(k) * 20,
            location: format!("scale.mlir:{}:5", k + 2),
            stream: 0,
        })
        .collect();
    let registers = (0..=KERNELS)
        .map(|k| RegisterInfo {
            users: if k < KERNELS { vec![k + 1] } else { Vec::new() },
        })
        .collect();
    let per_run = 2 + 4 * KERNELS as usize;
    let mut threads = Vec::new();
    let mut execution = 0u64;
    for thread in 0..2 {
        let mut list = Vec::with_capacity(events / 2 + per_run);
        let mut time = 0u64;
        while list.len() + per_run <= events / 2 {
            execution += 1;
            let mut push = |kind| {
                time += 7;
                list.push(Event {
                    time,
                    execution,
                    kind,
                });
            };
            push(EventKind::FunctionBegin {
                function: 0,
                caller: None,
            });
            for kernel in 1..=KERNELS {
                push(EventKind::KernelReady { kernel });
                push(EventKind::KernelStart { kernel });
                push(EventKind::RegisterSet {
                    register: kernel,
                    producer: kernel,
                    state: ValueState::Concrete,
                    value: None,
                });
                push(EventKind::KernelEnd {
                    kernel,
                    skipped: false,
                    live_values: None,
                });
            }
            push(EventKind::FunctionEnd);
        }
        threads.push(ThreadTrack {
            name: format!("worker-{thread}"),
            events: list.into(),
            dropped: 0,
        });
    }
    Recording {
        header: Header {
            program_path: "scale.bef".into(),
            work_queue: "mstd:2".into(),
            clock: "monotonic".into(),
            ..Header::default()
        },
        functions: vec![FunctionInfo {
            name: "scale".into(),
            kind: FunctionKind::Bef,
            kernels,
            registers,
            signature: String::new(),
        }],
        threads,
    }
}
