//! Hostile recordings, built event by event: each shape is the smallest
//! recording (per byte) that once made an analysis or an export need far
//! more than its size in time, memory or output. `scale` sets the size:
//! every shape grows linearly with it, about `scale` × 24 bytes written.
//!
//! The recordings are valid as far as the reader is concerned (every count
//! and index checks out); what they claim is what no run would report:
//! a register published thousands of times, readers by the ten thousand,
//! names of megabytes, runs all overlapping, callers looping.

use bef_trace::Recording;
use bef_trace::capture::recording::{
    CallerRef, Event, EventKind, FunctionInfo, FunctionKind, Header, KernelInfo, RegisterInfo,
    ThreadTrack, ValueState,
};

/// The shapes, each aimed at one blow-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One register published `n` times, read by `n` kernels that all ran:
    /// one edge per publication and reader made `n²` edges.
    RepeatedPublications,
    /// Executions of a function whose every kernel reads every register
    /// (a dense table, `k²` entries, shared by all executions): edges grow
    /// with executions × `k²` while the recording grows with executions × `k`.
    DenseReaders,
    /// Thousands of distinct kernel names and one of hundreds of kilobytes,
    /// kernels and threads alike: tables padded every row to the longest.
    LongNames,
    /// Runs of one long-named function all overlapping in time: a stream
    /// lane (named after the function) per run, found by scanning every
    /// lane for each run.
    OverlappingRuns,
    /// A caller chain thousands deep with many kernels at its bottom, and
    /// kernel ends that match nothing on their thread's stack.
    DeepNesting,
    /// Thousands of threads whose runs overlap: the shared wall clock cut
    /// at every boundary and shared among every running thread.
    ManyThreads,
    /// Names made of control characters, terminal escapes, bidi controls,
    /// XML specials and characters XML forbids.
    OddNames,
    /// Times at the ends of the `u64` range, ready after start, results
    /// published before their kernel started, callers that loop.
    Extremes,
    /// As many kernel runs as the bytes allow (starts that never end,
    /// results published from another thread): the most model per byte.
    SmallestRuns,
    /// One run's result reported available thousands of times from many
    /// threads, errors among them, before the run even ended, and
    /// completions of runs and executions that never were.
    RepeatedCompletions,
}

impl Shape {
    /// Every shape.
    pub const ALL: [Shape; 10] = [
        Shape::RepeatedPublications,
        Shape::DenseReaders,
        Shape::LongNames,
        Shape::OverlappingRuns,
        Shape::DeepNesting,
        Shape::ManyThreads,
        Shape::OddNames,
        Shape::Extremes,
        Shape::SmallestRuns,
        Shape::RepeatedCompletions,
    ];

    /// A file name for the shape.
    pub fn name(self) -> &'static str {
        match self {
            Shape::RepeatedPublications => "repeated_publications",
            Shape::DenseReaders => "dense_readers",
            Shape::LongNames => "long_names",
            Shape::OverlappingRuns => "overlapping_runs",
            Shape::DeepNesting => "deep_nesting",
            Shape::ManyThreads => "many_threads",
            Shape::OddNames => "odd_names",
            Shape::Extremes => "extremes",
            Shape::SmallestRuns => "smallest_runs",
            Shape::RepeatedCompletions => "repeated_completions",
        }
    }

    /// The shape named `name`.
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Names that a terminal, an XML parser or a folded-stack reader would
/// take for something else.
pub const ODD: [&str; 12] = [
    "\u{1b}]0;pwned\u{7}",
    "\u{1b}]52;c;c2VjcmV0\u{7}",
    "\u{1b}[2J\u{1b}[31mred",
    "cr\rover\rwrite",
    "c1\u{85}\u{9b}31m",
    "bidi\u{202e}txt.exe",
    "nul\0and\u{1}soh",
    "semi;colon\nnew line",
    "<svg onload=\"x\">&amp;]]>",
    "non-characters \u{fffe}\u{ffff}",
    "tab\tdel\u{7f}",
    "zero\u{200b}width\u{2066}isolate",
];

/// A recording of `shape` at `scale`.
pub fn recording(shape: Shape, scale: usize) -> Recording {
    let scale = scale.max(4);
    let mut b = Builder::default();
    match shape {
        Shape::RepeatedPublications => {
            let f = b.function("f", scale + 2);
            b.readers(f, 0, 2..scale + 2);
            b.begin(0, 1, f, None);
            for k in 2..scale + 2 {
                b.run(0, 1, k as u32);
            }
            b.run(0, 1, 1);
            for _ in 0..scale {
                b.set(0, 1, 0, 1);
            }
            b.end_function(0, 1);
        }
        Shape::DenseReaders => {
            let k = ((scale as f64).sqrt() as usize).max(2);
            let f = b.function("dense", k + 1);
            for r in 0..k {
                b.readers(f, r, 1..k + 1);
            }
            for x in 0..(scale / k).max(1) as u64 {
                let x = 10 + x;
                b.begin(0, x, f, None);
                for kernel in 1..=k as u32 {
                    b.run(0, x, kernel);
                }
                for r in 0..k as u32 {
                    b.set(0, x, r, 1 + r % k as u32);
                }
                b.end_function(0, x);
            }
        }
        Shape::LongNames => {
            let long = "n".repeat(scale * 8);
            let kernels = scale / 2;
            let f = b.function(&long, kernels + 1);
            b.rename_kernel(f, 1, &long);
            for k in 2..=kernels {
                b.rename_kernel(f, k, &format!("k{k}"));
            }
            b.begin(0, 1, f, None);
            for k in 1..=kernels as u32 {
                b.run(0, 1, k);
            }
            for _ in 0..scale / 4 {
                b.run(0, 1, 1);
            }
            b.end_function(0, 1);
            b.thread(&long);
            b.begin(1, 2, f, None);
            b.run(1, 2, 1);
            b.end_function(1, 2);
            for t in 0..scale / 8 {
                let thread = b.thread(&format!("t{t}"));
                b.run(thread, 1, 1);
            }
        }
        Shape::OverlappingRuns => {
            let long = "o".repeat(scale * 4);
            let f = b.function(&long, 2);
            let runs = scale;
            // Every execution's run opens before any closes.
            for x in 0..runs as u64 {
                b.begin(0, 100 + x, f, None);
                b.start(0, 100 + x, 1);
            }
            for x in (0..runs as u64).rev() {
                b.end_kernel(0, 100 + x, 1);
                b.end_function(0, 100 + x);
            }
        }
        Shape::DeepNesting => {
            let name = "d".repeat(200);
            let f = b.function(&name, 2 + scale / 4);
            let depth = scale / 2;
            b.begin(0, 1, f, None);
            b.start(0, 1, 1);
            for x in 2..=depth as u64 {
                b.begin(
                    0,
                    x,
                    f,
                    Some(CallerRef {
                        execution: x - 1,
                        kernel: 1,
                    }),
                );
                b.start(0, x, 1);
            }
            // Kernels at the bottom, each its own stack.
            for k in 2..2 + scale / 4 {
                b.run(0, depth as u64, k as u32);
            }
            // Ends of a run open on another thread: never on this stack.
            b.thread("other");
            b.begin(1, 1_000_000, f, None);
            b.start(1, 1_000_000, 1);
            for _ in 0..scale / 4 {
                b.end_kernel(0, 1_000_000, 1);
            }
            for x in (1..=depth as u64).rev() {
                b.end_kernel(0, x, 1);
                b.end_function(0, x);
            }
            b.end_kernel(1, 1_000_000, 1);
        }
        Shape::ManyThreads => {
            let f = b.function("spread", 2);
            let threads = scale / 2;
            for t in 0..threads {
                let thread = if t == 0 { 0 } else { b.thread("w") };
                let x = 10 + t as u64;
                b.begin(thread, x, f, None);
                b.at(thread, t as u64);
                b.start(thread, x, 1);
                b.at(thread, (threads + t) as u64 * 3);
                b.end_kernel(thread, x, 1);
                b.end_function(thread, x);
            }
        }
        Shape::OddNames => {
            let n = scale / 8;
            let f = b.function(ODD[0], n + 1);
            for k in 1..=n {
                b.rename_kernel(f, k, ODD[k % ODD.len()]);
            }
            b.header.program_path = ODD[1].to_string();
            b.header.work_queue = ODD[2].to_string();
            b.header.clock = ODD[3].to_string();
            for (i, odd) in ODD.iter().enumerate() {
                let g = b.function(odd, 2);
                b.rename_kernel(g, 1, odd);
                let thread = b.thread(odd);
                b.begin(thread, 500 + i as u64, g, None);
                b.run(thread, 500 + i as u64, 1);
                b.set_value(thread, 500 + i as u64, 0, 1, ODD[(i + 3) % ODD.len()]);
                b.end_function(thread, 500 + i as u64);
            }
            b.begin(0, 1, f, None);
            for k in 1..=n as u32 {
                b.run(0, 1, k);
                b.set_value(0, 1, 0, k, ODD[k as usize % ODD.len()]);
            }
            b.end_function(0, 1);
        }
        Shape::Extremes => {
            let f = b.function("x", 4);
            b.readers(f, 0, 1..4);
            b.readers(f, 1, 1..4);
            let n = scale / 6;
            for i in 0..n as u64 {
                let x = 1 + i % 7;
                b.at(0, u64::MAX - i);
                b.begin(
                    0,
                    x,
                    f,
                    Some(CallerRef {
                        execution: 1 + (i + 1) % 7,
                        kernel: 1,
                    }),
                );
                b.at(0, i);
                b.start(0, x, 1);
                b.at(0, u64::MAX);
                b.ready(0, x, 1 + (i % 3) as u32);
                b.set(0, x, (i % 2) as u32, 1 + (i % 3) as u32);
                b.at(0, 0);
                b.end_kernel(0, x, 1);
                b.at(0, u64::MAX / 2 + i);
                b.run(0, x, 2);
                b.set(0, x, 0, 0);
            }
        }
        Shape::SmallestRuns => {
            let kernels = scale;
            let f = b.function("s", kernels + 1);
            for k in 1..=kernels {
                b.readers(f, k, k..k + 1);
            }
            b.begin(0, 1, f, None);
            for k in 1..=kernels as u32 {
                b.ready(0, 1, k);
                b.start(0, 1, k);
            }
            let other = b.thread("");
            for k in 1..=kernels as u32 {
                b.set(other, 1, k, k);
            }
        }
        Shape::RepeatedCompletions => {
            b.header.completions_recorded = true;
            let f = b.function("c", 4);
            b.readers(f, 0, 2..4);
            b.begin(0, 1, f, None);
            b.start(0, 1, 1);
            let threads: Vec<usize> = (0..8).map(|t| b.thread(&format!("pool {t}"))).collect();
            for i in 0..scale {
                let thread = threads[i % threads.len()];
                b.at(
                    thread,
                    if i % 5 == 0 {
                        u64::MAX - i as u64
                    } else {
                        i as u64
                    },
                );
                let error = (i % 3 == 0).then_some(ODD[i % ODD.len()]);
                // The run's own result, another producer's, producer 0 and
                // an execution that never began.
                let (execution, producer) = match i % 4 {
                    0 | 1 => (1, 1),
                    2 => (1, (i % 4) as u32),
                    _ => (2 + i as u64, 0),
                };
                b.available(thread, execution, (i % 4) as u32, producer, error);
            }
            b.end_kernel(0, 1, 1);
            b.run(0, 1, 2);
            b.end_function(0, 1);
        }
    }
    b.finish()
}

/// Builds a recording thread by thread.
struct Builder {
    header: Header,
    functions: Vec<FunctionInfo>,
    threads: Vec<ThreadTrack>,
    /// The next event time of each thread.
    clocks: Vec<u64>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            header: Header {
                program_path: "hostile.mlir".into(),
                work_queue: "s".into(),
                clock: "generated".into(),
                ..Header::default()
            },
            functions: Vec::new(),
            threads: vec![ThreadTrack {
                name: "main".into(),
                ..ThreadTrack::default()
            }],
            clocks: vec![0],
        }
    }
}

impl Builder {
    fn finish(self) -> Recording {
        Recording {
            header: self.header,
            functions: self.functions,
            threads: self.threads,
        }
    }

    /// A function of `kernels` kernels named `k`, and as many registers.
    fn function(&mut self, name: &str, kernels: usize) -> u32 {
        self.functions.push(FunctionInfo {
            name: name.into(),
            kind: FunctionKind::Bef,
            kernels: (0..kernels)
                .map(|_| KernelInfo {
                    name: "k".into(),
                    ..KernelInfo::default()
                })
                .collect(),
            registers: vec![RegisterInfo::default(); kernels],
            signature: String::new(),
        });
        (self.functions.len() - 1) as u32
    }

    fn rename_kernel(&mut self, function: u32, kernel: usize, name: &str) {
        self.functions[function as usize].kernels[kernel].name = name.into();
    }

    fn readers(&mut self, function: u32, register: usize, users: std::ops::Range<usize>) {
        self.functions[function as usize].registers[register].users =
            users.map(|u| u as u32).collect();
    }

    fn thread(&mut self, name: &str) -> usize {
        self.threads.push(ThreadTrack {
            name: name.into(),
            ..ThreadTrack::default()
        });
        self.clocks.push(0);
        self.threads.len() - 1
    }

    /// The next event of `thread` happens at `time`.
    fn at(&mut self, thread: usize, time: u64) {
        self.clocks[thread] = time;
    }

    fn push(&mut self, thread: usize, execution: u64, kind: EventKind) {
        let time = self.clocks[thread];
        self.clocks[thread] = time.wrapping_add(1);
        self.threads[thread].events.push(Event {
            time,
            execution,
            kind,
        });
    }

    fn begin(&mut self, thread: usize, execution: u64, function: u32, caller: Option<CallerRef>) {
        self.push(
            thread,
            execution,
            EventKind::FunctionBegin { function, caller },
        );
    }

    fn end_function(&mut self, thread: usize, execution: u64) {
        self.push(thread, execution, EventKind::FunctionEnd);
    }

    fn ready(&mut self, thread: usize, execution: u64, kernel: u32) {
        self.push(thread, execution, EventKind::KernelReady { kernel });
    }

    fn start(&mut self, thread: usize, execution: u64, kernel: u32) {
        self.push(thread, execution, EventKind::KernelStart { kernel });
    }

    fn end_kernel(&mut self, thread: usize, execution: u64, kernel: u32) {
        self.push(
            thread,
            execution,
            EventKind::KernelEnd {
                kernel,
                skipped: false,
                live_values: None,
            },
        );
    }

    /// A kernel starting and ending.
    fn run(&mut self, thread: usize, execution: u64, kernel: u32) {
        self.start(thread, execution, kernel);
        self.end_kernel(thread, execution, kernel);
    }

    fn set(&mut self, thread: usize, execution: u64, register: u32, producer: u32) {
        self.push(
            thread,
            execution,
            EventKind::RegisterSet {
                register,
                producer,
                state: ValueState::Concrete,
                value: None,
            },
        );
    }

    /// A result-available event; an error with `error` as its message.
    fn available(
        &mut self,
        thread: usize,
        execution: u64,
        register: u32,
        producer: u32,
        error: Option<&str>,
    ) {
        self.push(
            thread,
            execution,
            EventKind::ResultAvailable {
                register,
                producer,
                state: match error {
                    Some(_) => ValueState::Error,
                    None => ValueState::Concrete,
                },
                value: error.map(Into::into),
            },
        );
    }

    fn set_value(
        &mut self,
        thread: usize,
        execution: u64,
        register: u32,
        producer: u32,
        value: &str,
    ) {
        self.push(
            thread,
            execution,
            EventKind::RegisterSet {
                register,
                producer,
                state: ValueState::Error,
                value: Some(value.into()),
            },
        );
    }
}
