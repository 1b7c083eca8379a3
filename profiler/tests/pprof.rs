//! The pprof export of a recorded corpus program, read back by readers
//! that are not the exporter's: gunzipped and decoded with messages
//! written here from google/pprof's `profile.proto`, and, when Go is
//! installed, by `go tool pprof` itself.

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::path::Path;
use std::process::Command;

use bef_trace::Model;
use bef_trace::export::Export;
use bef_trace::export::folded::{self, FoldOptions};
use bef_trace::export::{pprof, stats};
use bef_trace::progress::Progress;
use prost::Message;

/// `perftools.profiles.Profile`, the fields read here.
#[derive(Clone, PartialEq, Message)]
struct Profile {
    #[prost(message, repeated, tag = "1")]
    sample_type: Vec<ValueType>,
    #[prost(message, repeated, tag = "2")]
    sample: Vec<Sample>,
    #[prost(message, repeated, tag = "4")]
    location: Vec<Location>,
    #[prost(message, repeated, tag = "5")]
    function: Vec<Function>,
    #[prost(string, repeated, tag = "6")]
    string_table: Vec<String>,
    #[prost(int64, tag = "9")]
    time_nanos: i64,
    #[prost(int64, tag = "10")]
    duration_nanos: i64,
    #[prost(message, optional, tag = "11")]
    period_type: Option<ValueType>,
    #[prost(int64, tag = "12")]
    period: i64,
    #[prost(int64, tag = "14")]
    default_sample_type: i64,
}

#[derive(Clone, PartialEq, Message)]
struct ValueType {
    #[prost(int64, tag = "1")]
    r#type: i64,
    #[prost(int64, tag = "2")]
    unit: i64,
}

#[derive(Clone, PartialEq, Message)]
struct Sample {
    #[prost(uint64, repeated, tag = "1")]
    location_id: Vec<u64>,
    #[prost(int64, repeated, tag = "2")]
    value: Vec<i64>,
    #[prost(message, repeated, tag = "3")]
    label: Vec<Label>,
}

#[derive(Clone, PartialEq, Message)]
struct Label {
    #[prost(int64, tag = "1")]
    key: i64,
    #[prost(int64, tag = "2")]
    str: i64,
    #[prost(int64, tag = "3")]
    num: i64,
}

#[derive(Clone, PartialEq, Message)]
struct Location {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(message, repeated, tag = "4")]
    line: Vec<Line>,
}

#[derive(Clone, PartialEq, Message)]
struct Line {
    #[prost(uint64, tag = "1")]
    function_id: u64,
    #[prost(int64, tag = "2")]
    line: i64,
}

#[derive(Clone, PartialEq, Message)]
struct Function {
    #[prost(uint64, tag = "1")]
    id: u64,
    #[prost(int64, tag = "2")]
    name: i64,
    #[prost(int64, tag = "3")]
    system_name: i64,
    #[prost(int64, tag = "4")]
    filename: i64,
    #[prost(int64, tag = "5")]
    start_line: i64,
}

const PROGRAM: &str = "models/digits/digits.mlir";

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("the profile is gzipped");
    out
}

fn export(model: &Model) -> Vec<u8> {
    let mut out = Vec::new();
    pprof::Options
        .write(model, &mut out, Progress::HIDDEN)
        .expect("writes the profile");
    out
}

/// The profile, decoded, with its tables looked up.
struct Decoded {
    profile: Profile,
    locations: HashMap<u64, Location>,
    functions: HashMap<u64, Function>,
}

impl Decoded {
    fn new(gzipped: &[u8]) -> Decoded {
        let profile =
            Profile::decode(gunzip(gzipped).as_slice()).expect("decodes as profile.proto");
        let locations = profile.location.iter().map(|l| (l.id, l.clone())).collect();
        let functions = profile.function.iter().map(|f| (f.id, f.clone())).collect();
        Decoded {
            profile,
            locations,
            functions,
        }
    }

    fn string(&self, index: i64) -> &str {
        &self.profile.string_table[usize::try_from(index).expect("an index")]
    }

    /// The function of a location (each has one line).
    fn function_of(&self, location: u64) -> &Function {
        let line = &self.locations[&location].line[0];
        &self.functions[&line.function_id]
    }

    /// A sample's labels, key → text or number.
    fn labels(&self, sample: &Sample) -> HashMap<String, String> {
        sample
            .label
            .iter()
            .map(|l| {
                let value = if l.str != 0 {
                    self.string(l.str).to_string()
                } else {
                    l.num.to_string()
                };
                (self.string(l.key).to_string(), value)
            })
            .collect()
    }

    fn index_of(&self, kind: &str) -> usize {
        self.profile
            .sample_type
            .iter()
            .position(|t| self.string(t.r#type) == kind)
            .unwrap_or_else(|| panic!("no sample type {kind}"))
    }

    fn total(&self, kind: &str) -> i64 {
        let i = self.index_of(kind);
        self.profile.sample.iter().map(|s| s.value[i]).sum()
    }

    /// CPU time by the name of each sample's leaf function.
    fn self_time_by_leaf(&self) -> BTreeMap<String, i64> {
        let cpu = self.index_of(pprof::CPU);
        let mut by_name: BTreeMap<String, i64> = BTreeMap::new();
        for s in &self.profile.sample {
            let leaf = self.function_of(s.location_id[0]);
            *by_name
                .entry(self.string(leaf.name).to_string())
                .or_default() += s.value[cpu];
        }
        by_name
    }
}

/// The kernel names with the most self time, as `stats` counts it (more
/// than one only when they tie).
fn top_kernels(model: &Model) -> Vec<String> {
    let stats = stats::stats(model);
    let most = stats
        .kernels
        .iter()
        .map(|k| k.self_ns)
        .max()
        .expect("kernels ran");
    assert!(most > 0, "kernels took time");
    stats
        .kernels
        .iter()
        .filter(|k| k.self_ns == most)
        .map(|k| bef_trace::display::name(&k.name).into_owned())
        .collect()
}

/// The program recorded on two workers, from the repository's root (it
/// reads its weights by a path relative to it; every test here wants that
/// working directory).
fn recorded() -> Model {
    let _serial = common::serial();
    std::env::set_current_dir(common::repo_root()).expect("enters the repository");
    let model = Model::new(common::record(PROGRAM, "mstd:2"));
    assert!(model.first_error.is_none(), "{:?}", model.first_error);
    model
}

#[test]
fn profile_decodes_with_its_tables_whole_and_totals_of_the_model() {
    let model = recorded();
    let read = Decoded::new(&export(&model));
    let profile = &read.profile;
    assert_eq!(profile.string_table[0], "", "string_table[0] is empty");
    let types: Vec<(&str, &str)> = profile
        .sample_type
        .iter()
        .map(|t| (read.string(t.r#type), read.string(t.unit)))
        .collect();
    assert_eq!(
        types,
        [
            ("wall", "nanoseconds"),
            ("cpu", "nanoseconds"),
            ("kernels", "count")
        ]
    );
    assert_eq!(read.string(profile.default_sample_type), "cpu");
    let period = profile.period_type.as_ref().expect("a period type");
    assert_eq!(
        (read.string(period.r#type), read.string(period.unit)),
        ("cpu", "nanoseconds")
    );
    assert_eq!(profile.period, 1);
    let span = model.span.1 - model.span.0;
    assert_eq!(profile.duration_nanos, span as i64);
    let start = model.recording.header.start_unix_ns + model.span.0;
    assert_eq!(profile.time_nanos, start as i64);

    // Ids: unique, nonzero, every reference resolved.
    assert_eq!(read.locations.len(), profile.location.len(), "unique ids");
    assert_eq!(read.functions.len(), profile.function.len(), "unique ids");
    assert!(!read.locations.contains_key(&0) && !read.functions.contains_key(&0));
    for location in &profile.location {
        assert!(
            !location.line.is_empty(),
            "location {} has a line",
            location.id
        );
        for line in &location.line {
            assert!(read.functions.contains_key(&line.function_id));
        }
    }
    for sample in &profile.sample {
        assert_eq!(sample.value.len(), 3);
        assert!(!sample.location_id.is_empty());
        for id in &sample.location_id {
            assert!(read.locations.contains_key(id), "location {id} exists");
        }
    }
    let strings = profile.string_table.len() as i64;
    for f in &profile.function {
        for index in [f.name, f.system_name, f.filename] {
            assert!((0..strings).contains(&index));
        }
    }

    // The totals are the model's: the span, the kernels' self time, the runs.
    assert_eq!(read.total(pprof::WALL), span as i64);
    let self_time: u64 = model.runs.iter().map(|r| r.self_time).sum();
    let segments: u64 = model.segments.iter().map(|s| s.end - s.start).sum();
    assert_eq!(self_time, segments);
    assert_eq!(read.total(pprof::CPU), self_time as i64);
    assert_eq!(read.total(pprof::KERNELS), model.runs.len() as i64);
}

#[test]
fn kernel_samples_carry_labels_and_source_lines() {
    let model = recorded();
    let read = Decoded::new(&export(&model));
    let kernels = read.index_of(pprof::KERNELS);
    let threads: HashSet<&str> = (0..model.recording.threads.len())
        .map(|t| model.thread_label(t))
        .collect();
    let executions: HashSet<String> = model.executions.iter().map(|x| x.id.to_string()).collect();
    let mut seen_threads = HashSet::new();
    let mut runs = 0;
    for sample in &read.profile.sample {
        if sample.value[kernels] == 0 {
            continue;
        }
        runs += 1;
        let labels = read.labels(sample);
        let thread = &labels[pprof::THREAD];
        assert!(threads.contains(thread.as_str()), "{thread}");
        seen_threads.insert(thread.clone());
        assert!(executions.contains(&labels[pprof::EXECUTION]));
        assert!(labels[pprof::STREAM].parse::<u64>().is_ok());
        // The leaf is the kernel, the frame above it its function.
        let function = read.function_of(sample.location_id[1]);
        assert_eq!(read.string(function.name), labels[pprof::FUNCTION]);
        let kernel = read.function_of(sample.location_id[0]);
        let system = read.string(kernel.system_name);
        assert!(
            system.starts_with(read.string(kernel.name)) && system.contains('#'),
            "{system}"
        );
    }
    assert_eq!(runs, model.runs.len());
    assert!(seen_threads.len() > 1, "mstd:2 runs kernels on workers");
    // Kernels and functions are placed in the program's source.
    let placed: Vec<&Function> = read
        .profile
        .function
        .iter()
        .filter(|f| read.string(f.filename).ends_with("digits.mlir") && f.start_line > 0)
        .collect();
    let names: HashSet<&str> = placed.iter().map(|f| read.string(f.name)).collect();
    assert!(
        names.contains("digits"),
        "the function is placed: {names:?}"
    );
    let matmul = placed
        .iter()
        .find(|f| read.string(f.name).contains("matmul"))
        .unwrap_or_else(|| panic!("a matmul kernel is placed: {names:?}"));
    let source = std::fs::read_to_string(common::corpus_path(PROGRAM)).expect("reads the source");
    let line = source
        .lines()
        .nth(matmul.start_line as usize - 1)
        .expect("the line exists");
    assert!(
        line.contains("matmul"),
        "line {}: {line}",
        matmul.start_line
    );
}

#[test]
fn stacks_are_the_flame_graphs_and_the_top_kernel_is_stats() {
    let model = recorded();
    let read = Decoded::new(&export(&model));
    // Each sample's stack, root first, as folded stacks name frames.
    let cpu = read.index_of(pprof::CPU);
    let mut stacks: BTreeMap<String, u64> = BTreeMap::new();
    for sample in &read.profile.sample {
        if sample.value[cpu] == 0 {
            continue;
        }
        let frames: Vec<&str> = sample
            .location_id
            .iter()
            .rev()
            .map(|&id| read.string(read.function_of(id).system_name))
            .collect();
        *stacks.entry(frames.join(";")).or_default() += sample.value[cpu] as u64;
    }
    // Error marks are labels in the profile, not part of frame names.
    let folded: BTreeMap<String, u64> = folded::fold(&model, &FoldOptions::default())
        .into_iter()
        .map(|(stack, time)| {
            let unmarked = stack.replace(" [error]", "").replace(" [poisoned]", "");
            (unmarked, time)
        })
        .collect();
    assert_eq!(stacks, folded);

    let by_leaf = read.self_time_by_leaf();
    let most = by_leaf.values().max().copied().expect("samples");
    let top: Vec<&String> = by_leaf
        .iter()
        .filter(|(_, t)| **t == most)
        .map(|(name, _)| name)
        .collect();
    let expected = top_kernels(&model);
    assert!(
        top.iter().any(|name| expected.contains(name)),
        "profile's top {top:?}, stats' {expected:?}"
    );
}

/// `go`, if installed: said loudly when it is not, as the checks through
/// `go tool pprof` are then skipped.
fn go() -> Option<&'static str> {
    match Command::new("go").arg("version").output() {
        Ok(out) if out.status.success() => Some("go"),
        _ => {
            eprintln!(
                "WARNING: `go` is not on PATH: the profile is NOT checked with `go tool pprof` \
                 (install golang-go to run that check)"
            );
            None
        }
    }
}

fn go_pprof(go: &str, args: &[&str], file: &Path, scratch: &Path) -> String {
    let out = Command::new(go)
        .args(["tool", "pprof"])
        .args(args)
        .arg(file)
        .env("GOCACHE", scratch.join("gocache"))
        .env("HOME", scratch)
        .env("PPROF_TMPDIR", scratch)
        .output()
        .expect("runs go tool pprof");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "go tool pprof {args:?}: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn go_tool_pprof_reads_the_profile() {
    let Some(go) = go() else {
        return;
    };
    let model = recorded();
    let scratch = std::env::temp_dir().join(format!("bef-trace-pprof-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let file = scratch.join("digits.pb.gz");
    std::fs::write(&file, export(&model)).unwrap();

    let top = go_pprof(go, &["-top"], &file, &scratch);
    // The table after its header line: `flat flat% sum% cum cum% name`.
    let first = top
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("flat"))
        .nth(1)
        .unwrap_or_else(|| panic!("a first entry in:\n{top}"));
    let columns: Vec<&str> = first.split_whitespace().collect();
    let name = columns[5..].join(" ");
    let expected = top_kernels(&model);
    assert!(
        expected.contains(&name),
        "go tool pprof's first entry {name:?}, stats' top kernel {expected:?}:\n{top}"
    );

    let tags = go_pprof(go, &["-tags"], &file, &scratch);
    let thread = tags
        .lines()
        .position(|l| l.trim_start().starts_with("thread:"))
        .unwrap_or_else(|| panic!("a thread label in:\n{tags}"));
    let main = model.thread_label(0);
    assert!(
        tags.lines().skip(thread).any(|l| l.contains(main)),
        "thread {main} listed:\n{tags}"
    );
    assert!(
        tags.lines()
            .any(|l| l.trim_start().starts_with("execution:")),
        "{tags}"
    );
    std::fs::remove_dir_all(&scratch).unwrap();
}

#[test]
fn the_command_writes_a_profile_go_reads() {
    let scratch = std::env::temp_dir().join(format!("bef-trace-pprof-cli-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let recording = scratch.join("chain.beftrace");
    let ran = scratch.join("run.pb.gz");
    let exported = scratch.join("export.pb.gz");
    let bef_trace = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(env!("CARGO_BIN_EXE_bef-trace"))
            .args(args)
            .current_dir(common::repo_root())
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    bef_trace(&[
        "run".as_ref(),
        "corpus/trace/serial_chain.mlir".as_ref(),
        "-o".as_ref(),
        recording.as_os_str(),
        "--pprof".as_ref(),
        ran.as_os_str(),
    ]);
    bef_trace(&[
        "pprof".as_ref(),
        recording.as_os_str(),
        "-o".as_ref(),
        exported.as_os_str(),
    ]);
    for file in [&ran, &exported] {
        let read = Decoded::new(&std::fs::read(file).unwrap());
        assert!(read.total(pprof::KERNELS) > 0, "{}", file.display());
    }
    if let Some(go) = go() {
        let top = go_pprof(go, &["-top"], &exported, &scratch);
        assert!(top.contains("tfrt.add.i32"), "{top}");
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}
