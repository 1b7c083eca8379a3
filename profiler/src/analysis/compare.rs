//! Two recordings side by side, for `bef-trace diff --json` and `befview
//! A B`: the CPU time of each kernel and each function in both, and the
//! change. Kernels are matched by function, kernel name and source location
//! (by kernel index when the location is unknown), as the differential
//! flame graph matches stacks by their names, so two runs of one program
//! line up whatever their threads or order. Times are self times (CPU time
//! in the kernel itself), the measure the flame graphs use.
//!
//! Runs are grouped by their kernel-table entry before their names are
//! built, so the work is linear in the runs and the names are built once
//! per kernel of the program.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::analysis::model::Model;
use crate::display;

/// One kernel in both recordings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelDelta {
    /// The function it belongs to (as every export names it).
    pub function: String,
    /// The kernel's name.
    pub kernel: String,
    /// Its source location; empty when the recording does not know it.
    pub location: String,
    /// Its index in the function, which matches it when the location is
    /// unknown; `None` when the location matched it.
    pub kernel_index: Option<u32>,
    /// Self time in the first recording (0 when it did not run there).
    pub before_ns: u64,
    /// Self time in the second recording.
    pub after_ns: u64,
    /// `after_ns - before_ns`.
    pub delta_ns: i64,
    /// Runs in the first recording.
    pub before_count: u64,
    /// Runs in the second recording.
    pub after_count: u64,
}

/// One function in both recordings: its kernels' self times summed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FunctionDelta {
    /// The function's name.
    pub function: String,
    /// Self time of its kernels in the first recording.
    pub before_ns: u64,
    /// Self time of its kernels in the second recording.
    pub after_ns: u64,
    /// `after_ns - before_ns`.
    pub delta_ns: i64,
    /// Executions in the first recording.
    pub before_count: u64,
    /// Executions in the second recording.
    pub after_count: u64,
}

/// The comparison of two recordings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// Whether the recordings ran programs with different hashes (kernels
    /// are still matched by name and location).
    pub different_programs: bool,
    /// Self time of every kernel in the first recording.
    pub before_ns: u64,
    /// Self time of every kernel in the second recording.
    pub after_ns: u64,
    /// `after_ns - before_ns`.
    pub delta_ns: i64,
    /// Functions, the largest change (either way) first.
    pub functions: Vec<FunctionDelta>,
    /// Kernels, the largest change (either way) first.
    pub kernels: Vec<KernelDelta>,
}

/// How a kernel is matched across recordings.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct KernelKey {
    function: String,
    kernel: String,
    location: String,
    index: Option<u32>,
}

/// Sums of one side: self time and count.
#[derive(Debug, Clone, Copy, Default)]
struct Sum {
    ns: u64,
    count: u64,
}

impl Sum {
    fn add(&mut self, ns: u64, count: u64) {
        self.ns = self.ns.saturating_add(ns);
        self.count += count;
    }
}

/// Per kernel and per function, the sums of one recording.
fn sums(model: &Model) -> (BTreeMap<KernelKey, Sum>, BTreeMap<String, Sum>) {
    let mut by_entry: HashMap<(u32, u32), Sum> = HashMap::new();
    for (r, run) in model.runs.iter().enumerate() {
        by_entry
            .entry((model.function_of(r), run.kernel))
            .or_default()
            .add(run.self_time, 1);
    }
    let mut kernels: BTreeMap<KernelKey, Sum> = BTreeMap::new();
    let mut functions: BTreeMap<String, Sum> = BTreeMap::new();
    for ((function, kernel), sum) in by_entry {
        let info = model
            .recording
            .functions
            .get(function as usize)
            .and_then(|f| f.kernels.get(kernel as usize));
        let location = info.map_or_else(String::new, |k| display::text(&k.location).into_owned());
        let key = KernelKey {
            function: model.function_label_of(function),
            kernel: display::name(model.recording.kernel_name(function, kernel)).into_owned(),
            index: location.is_empty().then_some(kernel),
            location,
        };
        functions
            .entry(key.function.clone())
            .or_default()
            .add(sum.ns, 0);
        kernels.entry(key).or_default().add(sum.ns, sum.count);
    }
    for execution in &model.executions {
        functions
            .entry(model.function_label_of(execution.function))
            .or_default()
            .add(0, 1);
    }
    (kernels, functions)
}

fn delta(before: u64, after: u64) -> i64 {
    let clamp = |ns: u64| i64::try_from(ns).unwrap_or(i64::MAX);
    clamp(after).saturating_sub(clamp(before))
}

/// Both recordings' sums of each key, from either side.
fn joined<K: Ord + Clone>(
    before: &BTreeMap<K, Sum>,
    after: &BTreeMap<K, Sum>,
) -> Vec<(K, Sum, Sum)> {
    let mut keys: Vec<&K> = before.keys().chain(after.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|k| {
            let get = |m: &BTreeMap<K, Sum>| m.get(k).copied().unwrap_or_default();
            (k.clone(), get(before), get(after))
        })
        .collect()
}

/// Compares recording `before` with recording `after`.
pub fn compare(before: &Model, after: &Model) -> Comparison {
    let (before_kernels, before_functions) = sums(before);
    let (after_kernels, after_functions) = sums(after);
    let mut kernels: Vec<KernelDelta> = joined(&before_kernels, &after_kernels)
        .into_iter()
        .map(|(key, b, a)| KernelDelta {
            function: key.function,
            kernel: key.kernel,
            location: key.location,
            kernel_index: key.index,
            before_ns: b.ns,
            after_ns: a.ns,
            delta_ns: delta(b.ns, a.ns),
            before_count: b.count,
            after_count: a.count,
        })
        .collect();
    // Stable: equal changes keep the order of their keys.
    kernels.sort_by_key(|k| Reverse(k.delta_ns.unsigned_abs()));
    let mut functions: Vec<FunctionDelta> = joined(&before_functions, &after_functions)
        .into_iter()
        .map(|(function, b, a)| FunctionDelta {
            function,
            before_ns: b.ns,
            after_ns: a.ns,
            delta_ns: delta(b.ns, a.ns),
            before_count: b.count,
            after_count: a.count,
        })
        .collect();
    functions.sort_by_key(|f| Reverse(f.delta_ns.unsigned_abs()));
    let total = |m: &Model| {
        m.runs
            .iter()
            .fold(0u64, |sum, r| sum.saturating_add(r.self_time))
    };
    let (before_ns, after_ns) = (total(before), total(after));
    Comparison {
        different_programs: before.recording.header.program_hash
            != after.recording.header.program_hash,
        before_ns,
        after_ns,
        delta_ns: delta(before_ns, after_ns),
        functions,
        kernels,
    }
}
