//! How every export presents the model, defined once: the process and
//! thread ids trace viewers see, the frame name of a run, the arguments a
//! kernel slice carries, the names of instants and counters, and the stream
//! lanes. Perfetto, Chrome JSON, folded stacks, flame graphs, statistics and
//! the critical path all name things through here, so they agree.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::analysis::model::{ErrorMark, Model};
use crate::display;

/// The process id of every trace.
pub const PID: u64 = 1;

/// Where the thread ids of stream lanes begin in traces that give lanes
/// thread ids (Chrome JSON): far above any recorded thread's.
pub const STREAM_TID_BASE: u64 = 10_000;

/// The thread id trace viewers show for recorded thread `thread`: ids 0
/// and 1 stay free, as viewers give them to the process itself.
pub fn thread_tid(thread: usize) -> u64 {
    thread as u64 + 2
}

/// The thread id of stream lane `lane` (see [`StreamLanes`]).
pub fn stream_tid(lane: usize) -> u64 {
    STREAM_TID_BASE + lane as u64
}

/// The counter of kernels ready but not started.
pub const QUEUE_DEPTH: &str = "ready queue depth";

/// The counter of async values alive.
pub const LIVE_VALUES: &str = "live async values";

/// The instant of the recording's first error value.
pub const FIRST_ERROR: &str = "first error";

/// The process's name: the program, and whether the recording is partial.
pub fn process_name(model: &Model) -> String {
    let header = &model.recording.header;
    let mut name = format!("bef-trace {}", display::text(&header.program_path));
    if header.partial {
        name.push_str(" (");
        name.push_str(display::PARTIAL);
        name.push(')');
    }
    name
}

/// A run's kernel frame: `name#index`, marked when an error touched it.
pub fn kernel_frame(model: &Model, run: usize) -> String {
    let frame = model.frame(run);
    match model.runs[run].error {
        Some(ErrorMark::Origin) => format!("{frame} [error]"),
        Some(ErrorMark::Poisoned) => format!("{frame} [poisoned]"),
        None => frame,
    }
}

/// The instant of async completion `completion` (an index into
/// [`Model::async_completions`]).
pub fn completion_name(model: &Model, completion: usize) -> String {
    format!(
        "async completion: {}",
        model.frame(model.async_completions[completion].run)
    )
}

/// The arguments of kernel slices and instants, named alike in every
/// trace. Perfetto interns their names in [`Annotation::ALL`]'s order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Annotation {
    /// The run's function.
    Function,
    /// The kernel's index in its function's kernel table.
    KernelIndex,
    /// The kernel's offset in the BEF file.
    BefOffset,
    /// The kernel's source location.
    Location,
    /// The execution's id in the recording.
    Execution,
    /// `origin` or `poisoned` (see [`ErrorMark`]), or an error's message.
    Error,
    /// A register number.
    Register,
    /// The run's recorded result values.
    Values,
    /// How long the run waited between ready and started, in ns.
    ReadyToStartNs,
    /// Its start was not recorded ([`KernelRun::cut`](crate::analysis::model::KernelRun::cut)).
    Cut,
}

impl Annotation {
    /// Every annotation, in interning order.
    pub const ALL: [Annotation; 10] = [
        Annotation::Function,
        Annotation::KernelIndex,
        Annotation::BefOffset,
        Annotation::Location,
        Annotation::Execution,
        Annotation::Error,
        Annotation::Register,
        Annotation::Values,
        Annotation::ReadyToStartNs,
        Annotation::Cut,
    ];

    /// The name a trace shows.
    pub fn name(self) -> &'static str {
        match self {
            Annotation::Function => "function",
            Annotation::KernelIndex => "kernel_index",
            Annotation::BefOffset => "bef_offset",
            Annotation::Location => "location",
            Annotation::Execution => "execution",
            Annotation::Error => "error",
            Annotation::Register => "register",
            Annotation::Values => "values",
            Annotation::ReadyToStartNs => "ready_to_start_ns",
            Annotation::Cut => "cut",
        }
    }

    /// Its interned id: position in [`Annotation::ALL`], from 1.
    pub fn iid(self) -> u64 {
        self as u64 + 1
    }
}

/// An argument's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgValue {
    /// A count, id or offset.
    Uint(u64),
    /// Text, already cut and escaped for display.
    Text(String),
}

/// The arguments of a run's slice, in [`Annotation::ALL`]'s order; those
/// the recording does not have are left out.
pub fn slice_args(model: &Model, run: usize) -> Vec<(Annotation, ArgValue)> {
    let r = &model.runs[run];
    let mut args = vec![
        (
            Annotation::Function,
            ArgValue::Text(model.function_label(run)),
        ),
        (Annotation::KernelIndex, ArgValue::Uint(r.kernel.into())),
    ];
    if let Some(info) = model.kernel_info(run) {
        args.push((Annotation::BefOffset, ArgValue::Uint(info.bef_offset)));
        if !info.location.is_empty() {
            let location = display::text(&info.location).into_owned();
            args.push((Annotation::Location, ArgValue::Text(location)));
        }
    }
    let execution = model.executions[r.execution].id;
    args.push((Annotation::Execution, ArgValue::Uint(execution)));
    match r.error {
        Some(ErrorMark::Origin) => args.push((Annotation::Error, ArgValue::Text("origin".into()))),
        Some(ErrorMark::Poisoned) => {
            args.push((Annotation::Error, ArgValue::Text("poisoned".into())));
        }
        None => {}
    }
    let values = model.values_text(run);
    if !values.is_empty() {
        args.push((Annotation::Values, ArgValue::Text(values)));
    }
    if let Some(ready) = r.ready() {
        let waited = r.start.saturating_sub(ready);
        args.push((Annotation::ReadyToStartNs, ArgValue::Uint(waited)));
    }
    if r.cut {
        let said = "start not recorded (--keep last): shown from the window's beginning";
        args.push((Annotation::Cut, ArgValue::Text(said.into())));
    }
    args
}

/// Stream tracks: runs grouped by (function, stream id), each group laid
/// on as few lanes as keep its slices apart (executions of one function
/// can run at once, on several threads).
pub struct StreamLanes {
    /// Lane names, by lane.
    pub names: Vec<String>,
    /// Each lane's runs, in time order, none overlapping the next.
    pub runs: Vec<Vec<usize>>,
}

/// See [`StreamLanes`]. Each run takes the lowest-numbered lane of its
/// group that is free when it starts: lanes busy until a time wait in one
/// heap, free lanes in another, so a run costs a logarithm of its group's
/// lanes rather than a scan of them.
pub fn stream_lanes(model: &Model) -> StreamLanes {
    let mut order: Vec<usize> = (0..model.runs.len()).collect();
    order.sort_by_key(|&r| (model.runs[r].start, model.runs[r].end));
    let mut groups: HashMap<(u32, u64), LaneGroup> = HashMap::new();
    let mut lanes = StreamLanes {
        names: Vec::new(),
        runs: Vec::new(),
    };
    for run in order {
        let r = &model.runs[run];
        let key = (model.function_of(run), model.stream_of(run));
        let group = groups.entry(key).or_default();
        while let Some(&Reverse((end, lane))) = group.busy.peek()
            && end <= r.start
        {
            group.busy.pop();
            group.free.push(Reverse(lane));
        }
        let lane = match group.free.pop() {
            Some(Reverse(lane)) => lane,
            None => {
                let n = group.lanes;
                group.lanes += 1;
                lanes.names.push(format!(
                    "{} stream {}{}",
                    model.function_label_of(key.0),
                    key.1,
                    if n == 0 {
                        String::new()
                    } else {
                        format!(" ({})", n + 1)
                    }
                ));
                lanes.runs.push(Vec::new());
                lanes.runs.len() - 1
            }
        };
        lanes.runs[lane].push(run);
        group.busy.push(Reverse((r.end, lane)));
    }
    lanes
}

/// The lanes of one (function, stream) group in [`stream_lanes`].
#[derive(Default)]
struct LaneGroup {
    /// Lanes in use, by the end of their last run.
    busy: BinaryHeap<Reverse<(u64, usize)>>,
    /// Lanes free again, by number (lanes are numbered in creation order,
    /// so the lowest is the group's first free one).
    free: BinaryHeap<Reverse<usize>>,
    lanes: usize,
}
