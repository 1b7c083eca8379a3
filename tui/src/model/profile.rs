//! The Kernels view of a recording: `bef-trace stats`' tables per kernel
//! name and per function, taken from `bef_trace::export::stats` (the one
//! analysis `bef-trace stats` prints), with the GFLOP/s of kernels that
//! report their work, each row's share of the on-CPU time, and where its
//! slowest run or execution is, for the Execution tab to jump to.

use std::collections::HashMap;

use bef_trace::Model;
use bef_trace::export::stats::{self, Summary};

/// One row: a kernel name or a function with its statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileRow {
    /// The statistics, as `bef-trace stats` computes them.
    pub summary: Summary,
    /// `flops / time` of the runs that reported work, in 10^9 a second.
    pub gflops_per_s: Option<f64>,
    /// The slowest run (a kernel) or execution (a function): its
    /// execution id and, for a kernel, the kernel's index.
    pub slowest: Option<(u64, Option<u32>)>,
}

/// The column a profile table is sorted by, in `s` order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ProfileSort {
    /// Total time, most first (`bef-trace stats`' order).
    #[default]
    Total,
    /// On-CPU (self) time, most first; the share follows it.
    SelfTime,
    /// Runs or executions, most first.
    Count,
    /// Mean duration, longest first.
    Mean,
    /// Longest duration, longest first.
    Max,
    /// Off-CPU time, most first.
    OffCpu,
    /// GFLOP/s, fastest first (rows without work last).
    Gflops,
    /// Name, in order.
    Name,
}

impl ProfileSort {
    /// Every sort, in `s` order.
    pub const ALL: &'static [ProfileSort] = &[
        ProfileSort::Total,
        ProfileSort::SelfTime,
        ProfileSort::Count,
        ProfileSort::Mean,
        ProfileSort::Max,
        ProfileSort::OffCpu,
        ProfileSort::Gflops,
        ProfileSort::Name,
    ];

    /// The name the title gives it.
    pub fn name(self) -> &'static str {
        match self {
            ProfileSort::Total => "total",
            ProfileSort::SelfTime => "self",
            ProfileSort::Count => "count",
            ProfileSort::Mean => "mean",
            ProfileSort::Max => "max",
            ProfileSort::OffCpu => "off-CPU",
            ProfileSort::Gflops => "GFLOP/s",
            ProfileSort::Name => "name",
        }
    }

    /// The sort `s` goes to next, back to the first after the last.
    pub fn next(self) -> ProfileSort {
        let at = ProfileSort::ALL
            .iter()
            .position(|&k| k == self)
            .unwrap_or(0);
        ProfileSort::ALL[(at + 1) % ProfileSort::ALL.len()]
    }

    fn order(self, rows: &[ProfileRow]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..rows.len()).collect();
        // Stable, over rows in `bef-trace stats`' order: ties keep it.
        order.sort_by(|&a, &b| {
            let (x, y) = (&rows[a], &rows[b]);
            let (s, t) = (&x.summary, &y.summary);
            match self {
                ProfileSort::Total => t.total_ns.cmp(&s.total_ns),
                ProfileSort::SelfTime => t.self_ns.cmp(&s.self_ns),
                ProfileSort::Count => t.count.cmp(&s.count),
                ProfileSort::Mean => t.mean_ns.cmp(&s.mean_ns),
                ProfileSort::Max => t.max_ns.cmp(&s.max_ns),
                ProfileSort::OffCpu => t.off_cpu_ns.cmp(&s.off_cpu_ns),
                ProfileSort::Gflops => {
                    let g = |r: &ProfileRow| r.gflops_per_s.unwrap_or(-1.0);
                    g(y).total_cmp(&g(x))
                }
                ProfileSort::Name => s.name.cmp(&t.name),
            }
        });
        order
    }
}

/// The kernel and function tables of a recording, with their orders.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    /// By kernel name, in `bef-trace stats`' order (most total time first).
    pub kernels: Vec<ProfileRow>,
    /// By function name, in the same order.
    pub functions: Vec<ProfileRow>,
    /// The on-CPU time of every kernel run: what shares are of.
    pub self_total_ns: u64,
    kernel_orders: Vec<Vec<usize>>,
    function_orders: Vec<Vec<usize>>,
}

impl Profile {
    /// The tables of `model`, as `bef-trace stats` computes them.
    pub fn new(model: &Model) -> Profile {
        let stats = stats::stats(model);
        let gflops: HashMap<&str, f64> = stats
            .throughput
            .iter()
            .filter_map(|t| Some((t.name.as_str(), t.gflops_per_s?)))
            .collect();
        let kernels: Vec<ProfileRow> = stats
            .kernels
            .iter()
            .map(|s| ProfileRow {
                gflops_per_s: gflops.get(s.name.as_str()).copied(),
                slowest: s.longest.and_then(|r| {
                    let run = model.runs.get(r)?;
                    let execution = model.executions.get(run.execution)?;
                    Some((execution.id, Some(run.kernel)))
                }),
                summary: s.clone(),
            })
            .collect();
        let functions: Vec<ProfileRow> = stats
            .functions
            .iter()
            .map(|s| ProfileRow {
                gflops_per_s: None,
                slowest: s
                    .longest
                    .and_then(|x| Some((model.executions.get(x)?.id, None))),
                summary: s.clone(),
            })
            .collect();
        let self_total_ns = kernels
            .iter()
            .fold(0u64, |sum, r| sum.saturating_add(r.summary.self_ns));
        let orders = |rows: &[ProfileRow]| {
            ProfileSort::ALL
                .iter()
                .map(|s| s.order(rows))
                .collect::<Vec<_>>()
        };
        Profile {
            kernel_orders: orders(&kernels),
            function_orders: orders(&functions),
            kernels,
            functions,
            self_total_ns,
        }
    }

    /// The rows of the kernel table (`kernels`) or the function table.
    pub fn rows(&self, kernels: bool) -> &[ProfileRow] {
        if kernels {
            &self.kernels
        } else {
            &self.functions
        }
    }

    /// Row `row` of a table sorted by `sort`.
    pub fn row(&self, kernels: bool, sort: ProfileSort, row: usize) -> Option<&ProfileRow> {
        let orders = if kernels {
            &self.kernel_orders
        } else {
            &self.function_orders
        };
        let at = ProfileSort::ALL.iter().position(|&k| k == sort)?;
        let index = *orders.get(at)?.get(row)?;
        self.rows(kernels).get(index)
    }

    /// A row's share of the on-CPU time of every kernel run, in percent.
    pub fn share(&self, row: &ProfileRow) -> f64 {
        if self.self_total_ns == 0 {
            0.0
        } else {
            row.summary.self_ns as f64 * 100.0 / self.self_total_ns as f64
        }
    }

    /// The cells of a row, in [`HEADERS`] order: durations as `bef-trace
    /// stats` writes them.
    pub fn cells(&self, row: &ProfileRow) -> Vec<String> {
        let s = &row.summary;
        vec![
            bef_trace::display::name(&s.name).into_owned(),
            s.count.to_string(),
            stats::human(s.total_ns),
            stats::human(s.self_ns),
            stats::human(s.mean_ns),
            stats::human(s.max_ns),
            format!("{:.1}%", self.share(row)),
            stats::human(s.off_cpu_ns),
            row.gflops_per_s
                .map_or_else(|| "-".to_owned(), |g| format!("{g:.2}")),
        ]
    }
}

/// The columns of a profile table.
pub const HEADERS: [&str; 9] = [
    "name", "count", "total", "self", "mean", "max", "share", "off-CPU", "GFLOP/s",
];
