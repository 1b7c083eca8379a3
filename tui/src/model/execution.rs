//! A `bef-trace` recording opened for the Execution tab: its events in
//! time order (the time cursor moves over them), and what holds at an
//! event: each register's state, each kernel's ready/start/end, the
//! inputs a kernel still waits for, the first error and the kernels it
//! poisoned. The recording is read by `bef_trace::read` and its error
//! marks come from `bef_trace::Model`; nothing here decodes bytes.

use hashbrown::HashMap;
use std::path::{Path, PathBuf};

use bef_trace::model::ErrorMark;

use bef::tool_io::named_files::{self, NamedFileKind, NotRead};

use crate::model::document::Loaded;
use crate::model::input::LoadError;
use crate::model::profile::Profile;
use crate::model::step_index::{self, StepIndex, Subject};
use bef_trace::program_file::ProgramFile;
use bef_trace::recording::{Event, EventKind, Header, Recording, ValueState, content_hash};

/// Whether `bytes` start like a `bef-trace` recording.
pub fn is_recording(bytes: &[u8]) -> bool {
    bytes.starts_with(bef_trace::codec::MAGIC)
}

/// One event of the recording, with the thread that emitted it.
#[derive(Debug, Clone)]
pub struct Step {
    /// Index into the recording's threads.
    pub thread: usize,
    /// The event. Work (recorded under execution 0) carries the execution
    /// of the kernel that reported it.
    pub event: Event,
    /// For work: the kernel that reported it, the innermost open on the
    /// thread (as `bef_trace::Model` attributes it).
    pub work_of: Option<u32>,
}

impl Step {
    /// The kernel the event is about, if any.
    pub fn kernel(&self) -> Option<u32> {
        match self.event.kind {
            EventKind::KernelReady { kernel }
            | EventKind::KernelStart { kernel }
            | EventKind::KernelEnd { kernel, .. } => Some(kernel),
            EventKind::RegisterSet { producer, .. }
            | EventKind::ResultAvailable { producer, .. } => Some(producer),
            EventKind::ValueUpdated { kernel, .. } => Some(kernel),
            EventKind::KernelWork { .. } => self.work_of,
            EventKind::FunctionBegin { .. } | EventKind::FunctionEnd => None,
        }
    }

    /// What the event is about when followed across executions: its
    /// kernel, or its function's begin or end.
    pub fn subject(&self) -> Option<Subject> {
        match self.event.kind {
            EventKind::FunctionBegin { .. } | EventKind::FunctionEnd => Some(Subject::Frame),
            _ => self.kernel().map(Subject::Kernel),
        }
    }
}

/// A register's state at the cursor.
#[derive(Debug, Clone, PartialEq)]
pub struct RegisterAt {
    /// The register's index.
    pub register: u32,
    /// Its state; `None`: nothing published yet.
    pub state: Option<ValueState>,
    /// Its rendering (values recorded with `--values`) or error message.
    pub value: Option<bef_trace::capture::recording::RecordedValue>,
    /// The kernel that produced it (known once published anywhere in the
    /// recording).
    pub producer: Option<u32>,
    /// Whether the event at the cursor published it (or updated it).
    pub changed: bool,
    /// When its value is a version a kernel wrote in place (recorded with
    /// `--values`): that kernel and when; `None` while the value is the
    /// one published.
    pub updated: Option<Update>,
}

/// A kernel's write of a register's value in place: the version of the
/// value a register shows after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Update {
    /// The kernel that wrote the value.
    pub kernel: u32,
    /// When the version was recorded (ns since the start): the kernel's
    /// end, or the completion of its result when queued tasks wrote it.
    pub time: u64,
}

impl RegisterAt {
    /// The state as the tab names it: not produced yet (nothing
    /// published), pending (published, its value still to come),
    /// available, error, or indirect (forwarded to another value).
    pub fn state_name(&self) -> &'static str {
        match self.state {
            None => "not produced",
            Some(state) => state_name(state),
        }
    }
}

/// When a kernel of an execution became ready, started and ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KernelTimes {
    /// Operands all available.
    pub ready: Option<u64>,
    /// Started.
    pub start: Option<u64>,
    /// Returned.
    pub end: Option<u64>,
    /// The thread it started on.
    pub thread: Option<usize>,
    /// Whether it was skipped.
    pub skipped: bool,
}

/// Inputs a kernel waits for: each register with the kernel producing it
/// (when the recording shows one).
pub type Inputs = Vec<(u32, Option<u32>)>;

/// The registers of an execution (`.0.1`) after an event (`.0.0`).
type RegistersAt = ((usize, u64), Vec<RegisterAt>);

/// A recording with its events in time order.
pub struct Trace {
    /// The recording file.
    pub path: PathBuf,
    /// The recording, without its events: they moved to `steps`.
    pub recording: Recording,
    /// Every event, by time (then thread, then emission order).
    pub steps: Vec<Step>,
    /// What is wrong with the program the recording names, if anything.
    pub program_note: Option<String>,
    /// The first error: its execution, kernel and message.
    pub first_error: Option<(u64, u32, Option<String>)>,
    /// `bef-trace stats`' tables per kernel and function (the Kernels view).
    pub profile: Profile,
    marks: HashMap<(u64, u32), ErrorMark>,
    functions: HashMap<u64, u32>,
    ordinals: HashMap<u64, usize>,
    producers: HashMap<(u64, u32), u32>,
    /// Where each kernel's and register's events are.
    index: StepIndex,
    /// The last [`registers_at`](Self::registers_at) answer: drawing asks
    /// once per row, and each answer scans the events up to the cursor.
    /// Behind a mutex so that a trace can be read from a worker too.
    registers_cache: std::sync::Mutex<Option<RegistersAt>>,
}

impl Trace {
    /// Reads the recording in `bytes` (from `path`); one made without its
    /// program (`bef-trace record --no-embed`) is refused.
    pub fn read(path: &Path, bytes: &[u8]) -> Result<Trace, String> {
        Trace::read_with_progress(path, bytes, None, &mut |_| {})
    }

    /// Reads the recording in `bytes` (from `path`) with `program` (the
    /// program it ran, which a recording made without its program needs:
    /// [`bef_trace::program_file::attach`]), saying what it is doing
    /// through `progress` (for a loading screen).
    pub fn read_with_progress(
        path: &Path,
        bytes: &[u8],
        program: Option<&ProgramFile>,
        progress: &mut dyn FnMut(String),
    ) -> Result<Trace, String> {
        progress(format!("decoding {:.1} MB", bytes.len() as f64 / 1e6));
        let shown = bef::tool_io::escape::path(path);
        let mut recording = bef_trace::read(bytes)
            .map_err(|e| format!("error: {shown}: not a readable recording: {e}"))?;
        bef_trace::program_file::attach(&mut recording, program)
            .map_err(|e| format!("error: {shown}: {e}"))?;
        Ok(Trace::with_progress(path, recording, progress))
    }

    /// The recording `recording`, read from `path`.
    pub fn new(path: &Path, recording: Recording) -> Trace {
        Trace::with_progress(path, recording, &mut |_| {})
    }

    /// The recording `recording`, read from `path`, saying what it is doing
    /// through `progress`.
    pub fn with_progress(
        path: &Path,
        recording: Recording,
        progress: &mut dyn FnMut(String),
    ) -> Trace {
        let events: usize = recording.threads.iter().map(|t| t.events.len()).sum();
        progress(format!("indexing {events} events"));
        let mut functions = HashMap::new();
        let mut producers = HashMap::new();
        for track in &recording.threads {
            for event in &track.events {
                match event.kind {
                    EventKind::FunctionBegin { function, .. } => {
                        functions.entry(event.execution).or_insert(function);
                    }
                    EventKind::RegisterSet {
                        register, producer, ..
                    }
                    | EventKind::ResultAvailable {
                        register, producer, ..
                    } => {
                        producers
                            .entry((event.execution, register))
                            .or_insert(producer);
                    }
                    _ => {}
                }
            }
        }
        progress(format!("finding the errors of {events} events"));
        // The model shares the recording while it is built, then gives it back.
        let recording = std::sync::Arc::new(recording);
        let model = bef_trace::Model::new(std::sync::Arc::clone(&recording));
        let mut marks = HashMap::new();
        for run in &model.runs {
            if let (Some(mark), Some(execution)) = (run.error, model.executions.get(run.execution))
            {
                marks.insert((execution.id, run.kernel), mark);
            }
        }
        let first_error = model.first_error.as_ref().and_then(|e| {
            let run = model.runs.get(e.run?)?;
            let execution = model.executions.get(run.execution)?;
            Some((execution.id, run.kernel, e.message.clone()))
        });
        // Work events, by thread and index, with the execution id and
        // kernel of the run that reported them.
        let work: HashMap<(usize, usize), (u64, u32)> = model
            .work_events
            .iter()
            .map(|w| {
                let run = &model.runs[w.run];
                let execution = model.executions[run.execution].id;
                ((w.thread, w.event), (execution, run.kernel))
            })
            .collect();
        progress("tabulating kernels and functions".to_owned());
        let profile = Profile::new(&model);
        drop(model);
        let mut recording = std::sync::Arc::try_unwrap(recording).unwrap_or_else(|r| (*r).clone());
        // The events move into the steps rather than being copied: the
        // recording keeps its threads' names and counts, the steps the
        // events (an 8 M-event recording would otherwise hold 450 MB twice).
        progress(format!("ordering {events} events"));
        let mut steps: Vec<Step> = Vec::with_capacity(events);
        for (thread, track) in recording.threads.iter_mut().enumerate() {
            let track_events = std::mem::take(&mut track.events);
            // Work goes to its kernel's execution; work no kernel open on
            // its thread reported (its start dropped) belongs to none and
            // is left out, as the model leaves it out.
            steps.extend(
                track_events
                    .iter()
                    .enumerate()
                    .filter_map(|(index, mut event)| {
                        let mut work_of = None;
                        if let EventKind::KernelWork { .. } = event.kind {
                            let &(execution, kernel) = work.get(&(thread, index))?;
                            event.execution = execution;
                            work_of = Some(kernel);
                        }
                        Some(Step {
                            thread,
                            event,
                            work_of,
                        })
                    }),
            );
        }
        // Stable: events of one thread at one time keep their order.
        steps.sort_by_key(|s| (s.event.time, s.thread));
        let mut ordinals = HashMap::new();
        for s in &steps {
            let next = ordinals.len() + 1;
            ordinals.entry(s.event.execution).or_insert(next);
        }
        progress(format!("indexing the kernels of {events} events"));
        let index = StepIndex::build(
            steps.iter().map(|s| {
                (
                    s.event.execution,
                    s.subject(),
                    step_index::register_of(&s.event.kind),
                )
            }),
            |e| functions.get(&e).copied(),
            |e| ordinals.get(&e).copied(),
        );
        Trace {
            path: path.to_owned(),
            steps,
            recording,
            program_note: None,
            first_error,
            profile,
            marks,
            functions,
            ordinals,
            producers,
            index,
            registers_cache: std::sync::Mutex::new(None),
        }
    }

    /// Checks the program named by the recording against `file` (the
    /// program file's bytes, or why it was not read) and notes what
    /// differs. The hash is of the BEF bytes that ran: the file's own, or
    /// its translation as `bef::exec::Input` makes it for running.
    pub fn check_program(&mut self, file: Result<&[u8], &NotRead>) {
        self.check_program_or(file.map_err(|e| e.to_string()));
    }

    /// As [`check_program`](Self::check_program), with why the program
    /// was not read in words (`not read: ...`).
    pub fn check_program_or(&mut self, file: Result<&[u8], String>) {
        let header = &self.recording.header;
        let ran = file.map(|raw| {
            bef::exec::Input::from_bytes(raw, header.program_path.clone())
                .map(|input| input.bef().bytes().to_vec())
                .unwrap_or_else(|_| raw.to_vec())
        });
        self.program_note = match ran.as_deref() {
            Err(why) => Some(format!("program {why}: showing the recording alone")),
            Ok(b) if content_hash(b) != header.program_hash => Some(format!(
                "program {} has changed since it was recorded (hash {:016x}, recorded {:016x})",
                header.program_path,
                content_hash(b),
                header.program_hash
            )),
            Ok(_) => None,
        };
    }

    /// The function execution `execution` runs.
    pub fn function_of(&self, execution: u64) -> Option<u32> {
        self.functions.get(&execution).copied()
    }

    /// `@name` of execution `execution`'s function.
    pub fn function_name(&self, execution: u64) -> String {
        match self.function_of(execution) {
            Some(f) => format!("@{}", self.recording.function_name(f)),
            None => "?".to_owned(),
        }
    }

    /// How the tab names execution `execution`: `#N`, numbered in the
    /// order executions first appear (recorded ids depend on what else
    /// ran in the process).
    pub fn execution_label(&self, execution: u64) -> String {
        match self.ordinals.get(&execution) {
            Some(n) => format!("#{n}"),
            None => "#?".to_owned(),
        }
    }

    /// The name of kernel `kernel` of execution `execution`.
    pub fn kernel_name(&self, execution: u64, kernel: u32) -> &str {
        match self.function_of(execution) {
            Some(f) => self.recording.kernel_name(f, kernel),
            None => "?",
        }
    }

    /// The error mark of kernel `kernel` of execution `execution`.
    pub fn mark(&self, execution: u64, kernel: u32) -> Option<ErrorMark> {
        self.marks.get(&(execution, kernel)).copied()
    }

    /// The error mark of the kernel event `step` is about.
    pub fn step_mark(&self, step: usize) -> Option<ErrorMark> {
        let s = self.steps.get(step)?;
        self.mark(s.event.execution, s.kernel()?)
    }

    /// What event `step` reports, in words.
    pub fn what(&self, step: usize) -> String {
        let Some(s) = self.steps.get(step) else {
            return String::new();
        };
        match &s.event.kind {
            EventKind::FunctionBegin { caller, .. } => match caller {
                Some(c) => format!(
                    "begin (called by {} kernel {})",
                    self.execution_label(c.execution),
                    c.kernel
                ),
                None => "begin".to_owned(),
            },
            EventKind::FunctionEnd => "end".to_owned(),
            EventKind::KernelReady { .. } => "ready".to_owned(),
            EventKind::KernelStart { .. } => "start".to_owned(),
            EventKind::KernelWork { flops, bytes } => {
                format!("work: {flops} operations, {bytes} bytes")
            }
            EventKind::KernelEnd {
                kernel, skipped, ..
            } => {
                let what = if *skipped { "skipped" } else { "end" };
                match self.mark(s.event.execution, *kernel) {
                    Some(ErrorMark::Origin) => format!("{what}: origin of error"),
                    Some(ErrorMark::Poisoned) => format!("{what}: poisoned by an error"),
                    None => what.to_owned(),
                }
            }
            EventKind::RegisterSet {
                register,
                state,
                value,
                ..
            } => {
                let state = state_name(*state);
                match value {
                    Some(v) => format!("%{register} {state} = {v}"),
                    None => format!("%{register} {state}"),
                }
            }
            EventKind::ResultAvailable {
                register,
                state,
                value,
                ..
            } => {
                let state = state_name(*state);
                match value {
                    Some(v) => format!("%{register} completed: {state} = {v}"),
                    None => format!("%{register} completed: {state}"),
                }
            }
            EventKind::ValueUpdated {
                register, value, ..
            } => match value {
                Some(v) => format!("%{register} updated in place = {v}"),
                None => format!("%{register} updated in place"),
            },
        }
    }

    /// The registers of execution `execution` as they are after event
    /// `cursor`.
    pub fn registers_at(&self, cursor: usize, execution: u64) -> Vec<RegisterAt> {
        // A poisoned cache is only a cache: its contents are replaced whole.
        let mut cache = self
            .registers_cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((key, registers)) = cache.as_ref()
            && *key == (cursor, execution)
        {
            return registers.clone();
        }
        let registers = self.scan_registers(cursor, execution);
        *cache = Some(((cursor, execution), registers.clone()));
        registers
    }

    fn scan_registers(&self, cursor: usize, execution: u64) -> Vec<RegisterAt> {
        let count = self
            .function_of(execution)
            .and_then(|f| self.recording.functions.get(f as usize))
            .map_or(0, |f| f.registers.len());
        let mut registers: Vec<RegisterAt> = (0..count as u32)
            .map(|register| RegisterAt {
                register,
                state: None,
                value: None,
                producer: self.producers.get(&(execution, register)).copied(),
                changed: false,
                updated: None,
            })
            .collect();
        let end = cursor.saturating_add(1).min(self.steps.len());
        for (i, s) in self.steps[..end].iter().enumerate() {
            if s.event.execution != execution {
                continue;
            }
            // A result nothing read was published unavailable; its
            // completion makes it available.
            if let EventKind::RegisterSet {
                register,
                producer,
                state,
                value,
            }
            | EventKind::ResultAvailable {
                register,
                producer,
                state,
                value,
            } = &s.event.kind
                && let Some(r) = registers.get_mut(*register as usize)
            {
                r.state = Some(*state);
                r.value = value.clone();
                r.producer = Some(*producer);
                r.changed = i == cursor;
                r.updated = None;
            }
            // A kernel wrote the value in place: the register shows the
            // version it left.
            if let EventKind::ValueUpdated {
                register,
                kernel,
                value,
            } = &s.event.kind
                && let Some(r) = registers.get_mut(*register as usize)
            {
                r.value = value.clone();
                r.changed = i == cursor;
                r.updated = Some(Update {
                    kernel: *kernel,
                    time: s.event.time,
                });
            }
        }
        registers
    }

    /// When kernel `kernel` of execution `execution` became ready, started
    /// and ended over the whole recording.
    pub fn kernel_times(&self, execution: u64, kernel: u32) -> KernelTimes {
        let mut times = KernelTimes::default();
        for s in &self.steps {
            if s.event.execution != execution {
                continue;
            }
            match s.event.kind {
                EventKind::KernelReady { kernel: k } if k == kernel => {
                    times.ready.get_or_insert(s.event.time);
                }
                EventKind::KernelStart { kernel: k } if k == kernel => {
                    times.start.get_or_insert(s.event.time);
                    times.thread.get_or_insert(s.thread);
                }
                EventKind::KernelEnd {
                    kernel: k, skipped, ..
                } if k == kernel => {
                    times.end.get_or_insert(s.event.time);
                    times.skipped |= skipped;
                }
                _ => {}
            }
        }
        times
    }

    /// Whether kernel `kernel` of `execution` has started by event `cursor`.
    pub fn started_by(&self, cursor: usize, execution: u64, kernel: u32) -> bool {
        let end = cursor.saturating_add(1).min(self.steps.len());
        self.steps[..end].iter().any(|s| {
            s.event.execution == execution
                && matches!(s.event.kind, EventKind::KernelStart { kernel: k } if k == kernel)
        })
    }

    /// The inputs kernel `kernel` of `execution` still waits for after event
    /// `cursor` (empty once it started): each register with the kernel
    /// that produces it, when the recording shows one.
    pub fn waiting_for(
        &self,
        cursor: usize,
        execution: u64,
        kernel: u32,
    ) -> Vec<(u32, Option<u32>)> {
        if self.started_by(cursor, execution, kernel) {
            return Vec::new();
        }
        let Some(function) = self
            .function_of(execution)
            .and_then(|f| self.recording.functions.get(f as usize))
        else {
            return Vec::new();
        };
        let registers = self.registers_at(cursor, execution);
        function
            .registers
            .iter()
            .enumerate()
            .filter(|(_, info)| info.users.contains(&kernel))
            .filter_map(|(r, _)| {
                let at = registers.get(r)?;
                (at.state.is_none()).then_some((r as u32, at.producer))
            })
            .collect()
    }

    /// Every kernel of `execution` not started by event `cursor` that still
    /// waits for an input, with the inputs (register, producing kernel).
    pub fn pending(&self, cursor: usize, execution: u64) -> Vec<(u32, Inputs)> {
        let Some(function) = self
            .function_of(execution)
            .and_then(|f| self.recording.functions.get(f as usize))
        else {
            return Vec::new();
        };
        let end = cursor.saturating_add(1).min(self.steps.len());
        let started: std::collections::HashSet<u32> = self.steps[..end]
            .iter()
            .filter(|s| s.event.execution == execution)
            .filter_map(|s| match s.event.kind {
                EventKind::KernelStart { kernel } => Some(kernel),
                _ => None,
            })
            .collect();
        let registers = self.registers_at(cursor, execution);
        let mut waits: std::collections::BTreeMap<u32, Inputs> = std::collections::BTreeMap::new();
        for (r, info) in function.registers.iter().enumerate() {
            let Some(at) = registers.get(r) else { continue };
            if at.state.is_some() {
                continue;
            }
            for &user in &info.users {
                if !started.contains(&user) {
                    let list = waits.entry(user).or_default();
                    if !list.iter().any(|(x, _)| *x == r as u32) {
                        list.push((r as u32, at.producer));
                    }
                }
            }
        }
        waits.into_iter().collect()
    }

    /// The event about the same kernel as the event at `cursor` in the
    /// next (`forward`) or previous execution of the same function, in
    /// the tab's execution numbering: loop iterations and repeated calls.
    /// The event of the same kind is preferred (the same register's
    /// publication, the same start or end), else the kernel's first event
    /// there. A function's `begin` and `end` rows go to the begin and end
    /// of the next or previous execution.
    pub fn same_kernel(&self, cursor: usize, forward: bool) -> Option<usize> {
        let at = self.steps.get(cursor)?;
        let subject = at.subject()?;
        let function = self.function_of(at.event.execution)?;
        let here = self.index.ordinal(cursor);
        if here == 0 {
            return None;
        }
        let kind = event_kind_key(&at.event.kind);
        let there = self
            .index
            .nearest_execution(function, subject, here, forward);
        let matching = there.iter().find(|&&(_, step)| {
            self.steps
                .get(step as usize)
                .is_some_and(|s| event_kind_key(&s.event.kind) == kind)
        });
        matching.or(there.first()).map(|&(_, step)| step as usize)
    }

    /// The index of where each kernel's and register's events are.
    pub fn index(&self) -> &StepIndex {
        &self.index
    }

    /// The event where execution `execution` begins (`kernel` `None`) or
    /// its kernel `kernel` starts: where the Kernels view's Enter goes.
    pub fn start_of(&self, execution: u64, kernel: Option<u32>) -> Option<usize> {
        self.steps.iter().position(|s| {
            s.event.execution == execution
                && match (kernel, &s.event.kind) {
                    (None, EventKind::FunctionBegin { .. }) => true,
                    (Some(k), EventKind::KernelStart { kernel }) => *kernel == k,
                    _ => false,
                }
        })
    }

    /// The event that published register `register` of execution
    /// `execution` (its first publication), if the recording has it.
    pub fn producer_event(&self, execution: u64, register: u32) -> Option<usize> {
        self.steps.iter().position(|s| {
            s.event.execution == execution
                && matches!(s.event.kind, EventKind::RegisterSet { register: r, .. } if r == register)
        })
    }

    /// The starts of the kernels of execution `execution` that read
    /// register `register` (the program table's users), in time order.
    pub fn reader_events(&self, execution: u64, register: u32) -> Vec<usize> {
        let Some(users) = self
            .function_of(execution)
            .and_then(|f| self.recording.functions.get(f as usize))
            .and_then(|f| f.registers.get(register as usize))
            .map(|r| &r.users)
        else {
            return Vec::new();
        };
        self.steps
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.event.execution == execution
                    && matches!(s.event.kind, EventKind::KernelStart { kernel } if users.contains(&kernel))
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// The register event `step` is about, if any.
    pub fn register_of(&self, step: usize) -> Option<u32> {
        match self.steps.get(step)?.event.kind {
            EventKind::RegisterSet { register, .. }
            | EventKind::ResultAvailable { register, .. }
            | EventKind::ValueUpdated { register, .. } => Some(register),
            _ => None,
        }
    }

    /// The time of event `step` as shown: nanoseconds since the recording
    /// started.
    pub fn time(&self, step: usize) -> u64 {
        self.steps.get(step).map_or(0, |s| s.event.time)
    }

    /// The name of thread `thread`.
    pub fn thread_name(&self, thread: usize) -> &str {
        self.recording
            .threads
            .get(thread)
            .map_or("?", |t| t.name.as_str())
    }
}

/// A published register's state as the tab names it.
pub fn state_name(state: ValueState) -> &'static str {
    match state {
        ValueState::Unavailable => "pending",
        ValueState::Concrete => "available",
        ValueState::Error => "error",
        ValueState::Indirect => "indirect",
    }
}

/// What makes two events about one kernel the same kind of event: the
/// event's kind, and for a publication its register.
fn event_kind_key(kind: &EventKind) -> (u8, Option<u32>) {
    match kind {
        EventKind::FunctionBegin { .. } => (0, None),
        EventKind::FunctionEnd => (1, None),
        EventKind::KernelReady { .. } => (2, None),
        EventKind::KernelStart { .. } => (3, None),
        EventKind::KernelWork { .. } => (4, None),
        EventKind::KernelEnd { .. } => (5, None),
        EventKind::RegisterSet { register, .. } => (6, Some(*register)),
        EventKind::ResultAvailable { register, .. } => (7, Some(*register)),
        EventKind::ValueUpdated { register, .. } => (8, Some(*register)),
    }
}

/// Opens the recording `bytes` (read from `path`) with its program (see
/// [`open_program`]), then reads its events.
pub fn open(path: &Path, bytes: &[u8], given: Option<&Path>) -> Result<(Trace, Loaded), LoadError> {
    let (loaded, program) = open_program(path, bytes, given)?;
    let trace = load(path, bytes, program.as_ref(), &mut |_| {}).map_err(LoadError)?;
    Ok((trace, loaded))
}

/// `loaded` with the source text the recording keeps when no file gave
/// it one: the program's own, else the first kept.
fn with_embedded_source(mut loaded: Loaded, header: &Header) -> Loaded {
    if loaded.source.is_some() {
        return loaded;
    }
    let kept = header
        .sources
        .iter()
        .find(|s| s.name == header.program_path)
        .or_else(|| header.sources.first());
    if let Some(kept) = kept {
        loaded.source = Some(crate::model::document::Source::new(
            kept.name.clone(),
            &kept.text,
        ));
        loaded.source_not_read.clear();
    }
    loaded
}

/// The program the recording in `bytes` (from `path`) is shown with,
/// opened from the recording's header alone, so that a viewer can start
/// before the events are read ([`load`]):
/// - `given` (`--program FILE`), refused unless it is the program the
///   recording ran (by the hash of its BEF bytes);
/// - else the program the recording names, read as the named-file policy
///   allows, and an empty program when it cannot be (the trace notes why,
///   or that it changed);
/// - but a recording made without its program's table (`--no-embed`)
///   needs that table: without a program given, the one it names must be
///   read and be the one it ran, else it is refused, asking for
///   `--program`.
///
/// The program file comes back too when the recording's events are to be
/// read with it.
pub fn open_program(
    path: &Path,
    bytes: &[u8],
    given: Option<&Path>,
) -> Result<(Loaded, Option<ProgramFile>), LoadError> {
    let shown = bef::tool_io::escape::path(path);
    let header = bef_trace::codec::read_header(bytes)
        .map_err(|e| LoadError(format!("error: {shown}: not a readable recording: {e}")))?;
    if let Some(given) = given {
        // A file the user names: the named-file policy reads it (nothing
        // under /proc, /sys or /dev, no device or FIFO, at most 16 MiB),
        // and what does not load is described, not quoted.
        let raw = named_files::read(given, NamedFileKind::UserNamed)
            .map_err(|e| LoadError(format!("error: --program {e}")))?;
        let file = checked_program(&header, given, &raw)
            .map_err(|e| LoadError(format!("error: {shown}: {e}")))?;
        return Ok((Loaded::from_program_bytes(given, &raw)?, Some(file)));
    }
    let located = bef_trace::program_file::locate(path, &header);
    let program = located
        .as_ref()
        .map_or_else(|_| PathBuf::from(&header.program_path), |l| l.path.clone());
    let read = located.map(|l| l.bytes);
    if header.program_left_out {
        let file = match &read {
            Ok(raw) => checked_program(&header, &program, raw),
            Err(why) => Err(why.clone()),
        }
        .map_err(|why| {
            LoadError(format!(
                "error: {shown} was recorded without its program (--no-embed) and cannot be \
                 shown with the program it names: {why}; give the program it ran with \
                 --program FILE"
            ))
        })?;
        let raw = read.unwrap_or_default();
        let loaded = Loaded::from_bytes(&program, &raw)?;
        return Ok((with_embedded_source(loaded, &header), Some(file)));
    }
    let loaded = program_or_missing(&program, read)?;
    Ok((with_embedded_source(loaded, &header), None))
}

/// The program at `path` as `read` found it, or an empty one that says why
/// it is not shown (`read`'s error already says `not read: ...`).
fn program_or_missing(path: &Path, read: Result<Vec<u8>, String>) -> Result<Loaded, LoadError> {
    match read {
        Ok(raw) => Loaded::from_bytes(path, &raw).or_else(|e| {
            let first = e.0.lines().next().unwrap_or_default().to_owned();
            Loaded::missing(path, first)
        }),
        Err(why) => Loaded::missing(path, why),
    }
}

/// The program in `raw` (from `path`), if it is the one the recording
/// with `header` ran; else why not.
fn checked_program(header: &Header, path: &Path, raw: &[u8]) -> Result<ProgramFile, String> {
    let file = ProgramFile::from_bytes(raw, &path.display().to_string(), &header.program_path)
        .map_err(|e| e.to_string())?;
    file.check(header).map_err(|e| e.to_string())?;
    Ok(file)
}

/// Reads the recording in `bytes` (from `path`) with `program`, the
/// program [`open_program`] checked (if any: otherwise the program it
/// names is checked here, and the trace notes what differs), saying what
/// it is doing through `progress`.
pub fn load(
    path: &Path,
    bytes: &[u8],
    program: Option<&ProgramFile>,
    progress: &mut dyn FnMut(String),
) -> Result<Trace, String> {
    let mut trace = Trace::read_with_progress(path, bytes, program, progress)?;
    if program.is_none() {
        progress("checking the program".to_owned());
        let located = bef_trace::program_file::locate(path, &trace.recording.header);
        trace.check_program_or(
            located
                .as_ref()
                .map(|l| l.bytes.as_slice())
                .map_err(|e| e.clone()),
        );
    }
    Ok(trace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bef_trace::recording::{FunctionInfo, FunctionKind, Header, RegisterInfo, ThreadTrack};

    fn event(time: u64, kind: EventKind) -> Event {
        Event {
            time,
            execution: 1,
            kind,
        }
    }

    fn recording() -> Recording {
        Recording {
            header: Header::default(),
            functions: vec![FunctionInfo {
                name: "f".into(),
                kind: FunctionKind::Bef,
                kernels: Vec::new(),
                registers: vec![
                    RegisterInfo { users: vec![1] },
                    RegisterInfo { users: vec![2] },
                ],
                signature: String::new(),
            }],
            threads: vec![ThreadTrack {
                name: "main".into(),
                events: vec![
                    event(
                        0,
                        EventKind::FunctionBegin {
                            function: 0,
                            caller: None,
                        },
                    ),
                    event(1, EventKind::KernelStart { kernel: 1 }),
                    event(
                        2,
                        EventKind::RegisterSet {
                            register: 0,
                            producer: 1,
                            state: ValueState::Concrete,
                            value: Some("7".into()),
                        },
                    ),
                    event(
                        3,
                        EventKind::RegisterSet {
                            register: 1,
                            producer: 1,
                            state: ValueState::Concrete,
                            value: Some("8".into()),
                        },
                    ),
                    event(4, EventKind::KernelStart { kernel: 2 }),
                ]
                .into(),
                dropped: 0,
            }],
        }
    }

    /// Three executions of `f` (a loop body), each with kernel 1 starting
    /// and publishing %0; the second's events come last in time.
    fn iterations() -> Recording {
        let mut recording = recording();
        let at = |time, execution, kind| Event {
            time,
            execution,
            kind,
        };
        let set = |value: &str| EventKind::RegisterSet {
            register: 0,
            producer: 1,
            state: ValueState::Concrete,
            value: Some(value.into()),
        };
        let begin = EventKind::FunctionBegin {
            function: 0,
            caller: None,
        };
        recording.threads[0].events = vec![
            at(0, 1, begin.clone()),
            at(1, 2, begin.clone()),
            at(2, 3, begin),
            at(3, 1, EventKind::KernelStart { kernel: 1 }),
            at(4, 1, set("0")),
            at(5, 3, EventKind::KernelStart { kernel: 1 }),
            at(6, 3, set("2")),
            at(7, 2, EventKind::KernelStart { kernel: 1 }),
            at(8, 2, set("1")),
        ]
        .into();
        recording
    }

    #[test]
    fn braces_follow_a_kernel_across_executions() {
        let trace = Trace::new(Path::new("r"), iterations());
        // From #1's publication of %0 to #2's (the last in time), then #3's.
        assert_eq!(trace.same_kernel(4, true), Some(8));
        assert_eq!(trace.same_kernel(8, true), Some(6));
        assert_eq!(trace.same_kernel(6, true), None);
        assert_eq!(trace.same_kernel(6, false), Some(8));
        assert_eq!(trace.same_kernel(8, false), Some(4));
        assert_eq!(trace.same_kernel(4, false), None);
        // A start goes to the start.
        assert_eq!(trace.same_kernel(3, true), Some(7));
        // A begin goes to the next execution's begin.
        assert_eq!(trace.same_kernel(0, true), Some(1));
        assert_eq!(trace.same_kernel(1, false), Some(0));
    }

    #[test]
    fn registers_follow_the_cursor() {
        let trace = Trace::new(Path::new("r"), recording());
        let at = trace.registers_at(1, 1);
        assert_eq!(at[0].state, None);
        assert_eq!(trace.waiting_for(1, 1, 2), vec![(1, Some(1))]);
        assert_eq!(trace.pending(1, 1), vec![(2, vec![(1, Some(1))])]);
        assert_eq!(
            trace.pending(0, 1).len(),
            2,
            "kernels 1 and 2 wait at the start"
        );
        assert!(trace.pending(4, 1).is_empty());
        let at = trace.registers_at(2, 1);
        assert_eq!(at[0].value.as_deref(), Some("7"));
        assert!(at[0].changed);
        assert_eq!(at[1].state, None);
        let at = trace.registers_at(3, 1);
        assert!(!at[0].changed && at[1].changed);
        assert!(trace.waiting_for(4, 1, 2).is_empty());
        // One execution only: no other to move to.
        assert_eq!(trace.same_kernel(1, true), None);
        assert_eq!(trace.same_kernel(3, false), None);
        assert_eq!(trace.kernel_times(1, 2).start, Some(4));
    }

    #[test]
    fn a_result_published_unavailable_becomes_available_when_it_completes() {
        let mut recording = recording();
        let mut events = recording.threads[0].events.to_vec();
        if let EventKind::RegisterSet { state, value, .. } = &mut events[2].kind {
            *state = ValueState::Unavailable;
            *value = None;
        }
        events.push(event(
            5,
            EventKind::ResultAvailable {
                register: 0,
                producer: 1,
                state: ValueState::Concrete,
                value: Some("7".into()),
            },
        ));
        recording.threads[0].events = events.into();
        let trace = Trace::new(Path::new("r"), recording);
        assert_eq!(trace.registers_at(4, 1)[0].state_name(), "pending");
        let at = &trace.registers_at(5, 1)[0];
        assert_eq!(
            (at.state_name(), at.value.as_deref()),
            ("available", Some("7"))
        );
        assert!(at.changed);
        assert_eq!(trace.what(5), "%0 completed: available = 7");
        assert_eq!(trace.steps[5].kernel(), Some(1));
    }

    #[test]
    fn a_value_written_in_place_shows_its_version_from_then_on() {
        let mut recording = recording();
        let events = &mut recording.threads[0].events;
        events.push(event(
            5,
            EventKind::KernelEnd {
                kernel: 2,
                skipped: false,
                live_values: None,
            },
        ));
        events.push(event(
            5,
            EventKind::ValueUpdated {
                register: 0,
                kernel: 2,
                value: Some("9".into()),
            },
        ));
        let trace = Trace::new(Path::new("r"), recording);
        let before = &trace.registers_at(5, 1)[0];
        assert_eq!((before.value.as_deref(), before.updated), (Some("7"), None));
        let at = &trace.registers_at(6, 1)[0];
        assert_eq!(at.value.as_deref(), Some("9"));
        assert_eq!(at.updated, Some(Update { kernel: 2, time: 5 }));
        assert_eq!((at.state_name(), at.producer), ("available", Some(1)));
        assert!(at.changed);
        assert_eq!(trace.what(6), "%0 updated in place = 9");
        assert_eq!(trace.steps[6].kernel(), Some(2));
        // The other register keeps its published value.
        assert_eq!(trace.registers_at(6, 1)[1].updated, None);
    }

    #[test]
    fn hostile_bytes_are_an_error() {
        assert!(Trace::read(Path::new("x"), b"BEFTRACE\xff\xff").is_err());
        assert!(is_recording(b"BEFTRACE"));
        assert!(!is_recording(b"\x0b\xef"));
    }
}
