//! What a directory of inputs reaches through one fuzz target's body
//! (`corpus-coverage`): each input runs through the body the fuzz target
//! calls, and what it exercised is observed, not guessed. Kernels are
//! counted from the executor's observer events (a kernel counts when it
//! ran, not when it was skipped on an error operand); BEF sections,
//! attribute kinds and kernel names from the `bef dump` listing of the
//! file; op names from the parsed or read IR; BTF element types and
//! layouts from the records that read.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use bef::exec::{ExecEvent, ExecutionId, Observer};

use crate::verdict::run_caught;

/// The targets `corpus-coverage` observes.
pub const COVERAGE_TARGETS: &[&str] = &[
    "exec_programs",
    "bef_decode",
    "bef_roundtrip",
    "mlir_parse",
    "opt_passes",
    "mlirbc_read",
    "btf_read",
];

/// Most IR ops counted in one input (the parser bounds nesting, this
/// bounds the walk of a huge flat module).
const MAX_OPS_PER_INPUT: usize = 1_000_000;

/// Counts by name, per category (`kernels`, `ops`, `sections`, ...), over
/// every input added.
#[derive(Debug, Clone)]
pub struct Coverage {
    target: &'static str,
    inputs: usize,
    panics: Vec<(String, String)>,
    categories: BTreeMap<&'static str, BTreeMap<String, u64>>,
}

impl Coverage {
    /// An empty tally for `target`; an error naming the supported targets
    /// when `target` is not one.
    pub fn new(target: &str) -> Result<Coverage, String> {
        let Some(&target) = COVERAGE_TARGETS.iter().find(|t| **t == target) else {
            return Err(format!(
                "unknown target '{target}' (corpus-coverage supports: {})",
                COVERAGE_TARGETS.join(", ")
            ));
        };
        Ok(Coverage {
            target,
            inputs: 0,
            panics: Vec::new(),
            categories: BTreeMap::new(),
        })
    }

    /// The target observed.
    pub fn target(&self) -> &str {
        self.target
    }

    /// How many inputs were added.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The inputs whose body panicked: name and panic message.
    pub fn panics(&self) -> &[(String, String)] {
        &self.panics
    }

    /// Counts by name of one category (empty when nothing reached it).
    pub fn category(&self, name: &str) -> BTreeMap<String, u64> {
        self.categories.get(name).cloned().unwrap_or_default()
    }

    /// The categories, each with its counts by name.
    pub fn categories(&self) -> &BTreeMap<&'static str, BTreeMap<String, u64>> {
        &self.categories
    }

    fn count(&mut self, category: &'static str, name: &str, by: u64) {
        *self
            .categories
            .entry(category)
            .or_default()
            .entry(name.to_string())
            .or_default() += by;
    }

    /// Runs `data` (named `name` in the report) through the target's body
    /// and counts what it reached.
    pub fn add(&mut self, name: &str, data: &[u8]) {
        self.inputs += 1;
        let verdict = match self.target {
            "exec_programs" => self.add_exec(data),
            "bef_decode" => {
                let verdict = run_caught(crate::bef_file::bef_decode, data);
                self.add_bef_listing(data);
                verdict
            }
            "bef_roundtrip" => {
                let verdict = run_caught(crate::bef_file::bef_roundtrip, data);
                if let Some(bytes) = crate::repro::generated_bef(data) {
                    self.add_bef_listing(&bytes);
                }
                verdict
            }
            "mlir_parse" | "opt_passes" => {
                let body = if self.target == "mlir_parse" {
                    crate::text::mlir_parse
                } else {
                    crate::passes::opt_passes
                };
                let verdict = run_caught(body, data);
                if let Ok(source) = std::str::from_utf8(data)
                    && let Ok(module) = bef::text::parse_module(source, "input.mlir")
                {
                    self.add_ops(&module.op);
                }
                verdict
            }
            "mlirbc_read" => {
                let verdict = run_caught(crate::bytecode::mlirbc_read, data);
                if let Ok(module) = bef::bytecode::read_aligned(data) {
                    self.add_ops(&module.op);
                }
                verdict
            }
            "btf_read" => {
                let verdict = run_caught(crate::btf::btf_read, data);
                self.add_btf(data);
                verdict
            }
            other => unreachable!("'{other}' is in COVERAGE_TARGETS without a body"),
        };
        if let Err(message) = verdict {
            self.panics.push((name.to_string(), message));
        }
    }

    /// Runs the generated program with a counting observer.
    fn add_exec(&mut self, data: &[u8]) -> Result<(), String> {
        let observer = Arc::new(KernelRuns::default());
        let shared: Arc<dyn Observer> = observer.clone();
        let mut generated = false;
        let verdict = run_caught(
            |data| {
                generated = crate::exec::exec_program_observed(data, Some(shared))
                    .0
                    .is_some()
            },
            data,
        );
        let outcome = if generated {
            "program generated".to_string()
        } else if verdict.is_err() {
            "panicked".to_string()
        } else {
            match crate::exec::generated_program(data) {
                Err(e) => format!("no program: {e}"),
                Ok(_) => "program generated".to_string(),
            }
        };
        self.count("inputs", &outcome, 1);
        let runs = std::mem::take(&mut *observer.lock());
        for ((category, kernel), count) in runs.counts {
            self.count(category, &kernel, count);
        }
        verdict
    }

    /// Sections, attribute kinds and kernel names of a BEF file, from
    /// the listing `bef dump` shows (damaged files included).
    fn add_bef_listing(&mut self, data: &[u8]) {
        let Ok(listing) = bef::inspect::Listing::new(data) else {
            self.count("bef files", "not BEF (no listing)", 1);
            return;
        };
        self.count("bef files", "listed", 1);
        for section in listing.sections() {
            self.count("sections", &section.name(), 1);
        }
        for row in listing.attributes().iter() {
            self.count("attribute kinds", &row.ty.name(), 1);
        }
        for row in listing.kernel_names().iter() {
            if let Some(name) = row.name {
                self.count("kernel names", name, 1);
            }
        }
    }

    /// Every op of the module, regions included, by name.
    fn add_ops(&mut self, root: &bef::ir::Op) {
        let mut pending = vec![root];
        let mut seen = 0;
        while let Some(op) = pending.pop() {
            seen += 1;
            if seen > MAX_OPS_PER_INPUT {
                break;
            }
            self.count("ops", &op.name, 1);
            for region in &op.regions {
                for block in &region.blocks {
                    pending.extend(block.ops.iter());
                }
            }
        }
    }

    /// Element types and layouts of the BTF records that read.
    fn add_btf(&mut self, data: &[u8]) {
        let file = match bef::btf::BtfFile::parse(data) {
            Ok(file) => file,
            Err(_) => {
                self.count("btf files", "rejected", 1);
                return;
            }
        };
        self.count("btf files", "read", 1);
        // As many records as the body checks.
        for index in 0..file.len().min(64) {
            match file.record(index) {
                Ok(record) => {
                    self.count("dtypes", record.dtype.name(), 1);
                    self.count("layouts", record.layout().name(), 1);
                }
                Err(_) => self.count("records", "rejected", 1),
            }
        }
    }

    /// The registered kernels no input ran, sorted; `None` for targets
    /// that run no kernels.
    pub fn unreached_kernels(&self) -> Option<Vec<String>> {
        if self.target != "exec_programs" {
            return None;
        }
        let ran = self.category("kernels");
        Some(
            registered_kernels()
                .into_iter()
                .filter(|k| !ran.contains_key(k))
                .collect(),
        )
    }

    /// The report as text: each category's names with counts, then the
    /// registered kernels nothing reached.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = format!("target {}: {} inputs\n", self.target, self.inputs);
        for (category, counts) in &self.categories {
            let _ = writeln!(out, "\n{category} ({} distinct):", counts.len());
            for (name, count) in counts {
                let _ = writeln!(out, "  {count:>10}  {}", shown(name));
            }
        }
        if let Some(unreached) = self.unreached_kernels() {
            let registered = registered_kernels().len();
            let _ = writeln!(
                out,
                "\nregistered kernels reached: {} of {registered}",
                registered - unreached.len()
            );
            let _ = writeln!(out, "unreached ({}):", unreached.len());
            for name in &unreached {
                let _ = writeln!(out, "  {}", shown(name));
            }
        }
        if !self.panics.is_empty() {
            let _ = writeln!(out, "\npanicked ({}):", self.panics.len());
            for (input, message) in &self.panics {
                let message = bef::tool_io::escape::terminal_lines(message);
                let _ = writeln!(out, "  {}: {message}", shown(input));
            }
        }
        out
    }

    /// The report as JSON: `target`, `inputs`, `reached` (category → name
    /// → count), `panics`, and for kernel-running targets
    /// `registered_kernels` and `unreached_kernels`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut report = serde_json::json!({
            "target": self.target,
            "inputs": self.inputs,
            "reached": self.categories,
            "panics": self
                .panics
                .iter()
                .map(|(input, message)| serde_json::json!({"input": input, "message": message}))
                .collect::<Vec<_>>(),
        });
        if let Some(unreached) = self.unreached_kernels() {
            report["registered_kernels"] = registered_kernels().len().into();
            report["unreached_kernels"] = unreached.into();
        }
        report
    }
}

/// Longest name the text report shows whole: names come from the inputs,
/// and a hostile one may be a megabyte long.
const MAX_SHOWN_CHARS: usize = 160;

/// `name` safe for a terminal (control characters escaped) and cut to
/// [`MAX_SHOWN_CHARS`].
fn shown(name: &str) -> String {
    let escaped = bef::tool_io::escape::terminal(name);
    match escaped.char_indices().nth(MAX_SHOWN_CHARS) {
        Some((cut, _)) => format!("{}… ({} bytes)", &escaped[..cut], name.len()),
        None => escaped.into_owned(),
    }
}

/// The kernels of the standard registry the targets run with, sorted.
pub fn registered_kernels() -> Vec<String> {
    crate::standard_registry()
        .kernel_names()
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// Kernel runs seen through observer events: a kernel's name is taken at
/// its start and counted at its end, as run or as skipped.
#[derive(Default)]
struct KernelRuns(Mutex<RunCounts>);

#[derive(Default)]
struct RunCounts {
    started: HashMap<(ExecutionId, u32), String>,
    counts: HashMap<(&'static str, String), u64>,
}

impl KernelRuns {
    fn lock(&self) -> std::sync::MutexGuard<'_, RunCounts> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Observer for KernelRuns {
    fn on_event(&self, event: &ExecEvent<'_>) {
        match *event {
            ExecEvent::KernelStart {
                execution,
                kernel,
                name,
                ..
            } => {
                self.lock()
                    .started
                    .insert((execution, kernel), name.to_string());
            }
            ExecEvent::KernelEnd {
                execution,
                kernel,
                skipped,
                ..
            } => {
                let mut runs = self.lock();
                if let Some(name) = runs.started.remove(&(execution, kernel)) {
                    let category = if skipped {
                        "skipped kernels"
                    } else {
                        "kernels"
                    };
                    *runs.counts.entry((category, name)).or_default() += 1;
                }
            }
            _ => {}
        }
    }
}
