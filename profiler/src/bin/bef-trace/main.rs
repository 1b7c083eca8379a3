//! `bef-trace`: record BEF program executions and export the recordings.
//! Exit status: 0 success, 1 bad input, a program that cannot run, a
//! program recorded that fails (an error value returned, a runtime error;
//! its recording and exports are written all the same) or an output that
//! cannot be written, 2 usage error, 130 interrupted (a second Ctrl-C
//! while recording, or one after it).
//!
//! Everything a recording or a program supplies (names, paths, messages)
//! reaches the terminal escaped; no output may be one of the inputs, and
//! each is written whole or not at all (`bef::tool_io::output`).

// The `bef` binary's allocator (one file, shared by path as core's benches
// share it).
#[path = "../../../../core/src/bin/bef/global_alloc.rs"]
mod global_alloc;
mod input;
mod range;
mod stop;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bef::tool_io::escape;
use bef::tool_io::output::{AtomicFile, refuse_input};
use bef_trace::analysis::compare;
use bef_trace::analysis::critical_path::CriticalOptions;
use bef_trace::capture::live::LiveSocket;
use bef_trace::capture::program_file::{self, ProgramError, ProgramFile};
use bef_trace::capture::recorder::MAX_EVENTS_PER_THREAD;
use bef_trace::capture::recording::Keep;
use bef_trace::export::flamegraph::{self, FlameOptions};
use bef_trace::export::folded::{Clock, FoldOptions};
use bef_trace::export::{Export, chrome, perfetto, pprof, stats};
use bef_trace::progress::Progress;
use bef_trace::{CancelHandle, Model, RecordOptions, RecorderOptions, Recording, Selection};
use clap::{Args, Parser, Subcommand, ValueEnum};
use range::RangeArgs;

const EXAMPLES: &str = "\
Examples:
  bef-trace record corpus/mlir/fibonacci_repeat.mlir -o fib.beftrace
  bef-trace flamegraph fib.beftrace -o fib.svg
  bef-trace run prog.mlir --work-queue mstd:2 --flamegraph prog.svg --perfetto prog.pftrace
  bef-trace stats fib.beftrace
  bef-trace pprof fib.beftrace -o fib.pb.gz && go tool pprof -top fib.pb.gz
  bef-trace critical-path fib.beftrace --what-if-workers 4
  bef-trace diff before.beftrace after.beftrace -o diff.svg
  bef-trace record big.mlir --no-embed -o big.beftrace
  bef-trace stats big.beftrace --program big.mlir

Open a .pftrace in https://ui.perfetto.dev (Open trace file).";

/// Records the execution of BEF programs (.bef, .mlir, .mlirbc) and turns
/// recordings into flame graphs, Perfetto and Chrome traces, pprof
/// profiles, statistics and critical paths.
#[derive(Parser)]
#[command(name = "bef-trace", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Show the progress of long exports on standard error (shown anyway
    /// when standard error is a terminal).
    #[arg(long, global = true)]
    progress: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program and write its recording. Ctrl-C (or --duration) stops
    /// the run and keeps what was recorded, marked partial; a second
    /// Ctrl-C quits at once. SIGUSR1 writes what was kept so far to
    /// OUTPUT.N.beftrace (N = 1, 2, ...) without stopping the run.
    Record {
        #[command(flatten)]
        run: RunArgs,
        /// The recording to write.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Also serve the recording on this Unix socket while it is made
        /// (`befview --attach SOCKET` shows it live); needs --keep first.
        #[arg(long, value_name = "SOCKET")]
        live: Option<PathBuf>,
    },
    /// Run a program, then write the exports asked for (Ctrl-C or
    /// --duration stops the run as for `record`); with none asked for,
    /// print the statistics.
    Run {
        #[command(flatten)]
        run: RunArgs,
        /// Also write the recording.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write a flame graph (SVG).
        #[arg(long, value_name = "SVG")]
        flamegraph: Option<PathBuf>,
        /// Write folded stacks.
        #[arg(long, value_name = "FILE")]
        folded: Option<PathBuf>,
        /// Write a Perfetto trace.
        #[arg(long, value_name = "PFTRACE")]
        perfetto: Option<PathBuf>,
        /// Write a Chrome Trace Event JSON file.
        #[arg(long, value_name = "JSON")]
        chrome_json: Option<PathBuf>,
        /// Write a gzipped pprof profile (`go tool pprof`).
        #[arg(long, value_name = "PB_GZ")]
        pprof: Option<PathBuf>,
        /// Print statistics.
        #[arg(long)]
        stats: bool,
        /// Print the critical path.
        #[arg(long)]
        critical_path: bool,
    },
    /// Draw a flame graph (or chart) of a recording as SVG.
    Flamegraph {
        /// The recording.
        recording: PathBuf,
        #[command(flatten)]
        program: ProgramArgs,
        #[command(flatten)]
        range: RangeArgs,
        /// The SVG to write.
        #[arg(short, long, value_name = "SVG")]
        output: PathBuf,
        #[command(flatten)]
        fold: FoldArgs,
        /// Icicle graph: stacks hang down from the top.
        #[arg(long)]
        inverted: bool,
        /// The title.
        #[arg(long, default_value = "")]
        title: String,
    },
    /// Write folded stacks (`function;kernel#index;... nanoseconds`).
    Folded {
        /// The recording.
        recording: PathBuf,
        #[command(flatten)]
        program: ProgramArgs,
        #[command(flatten)]
        range: RangeArgs,
        /// Where to write (standard output by default).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        fold: FoldArgs,
    },
    /// Differential flame graph: AFTER's stacks coloured by the change from
    /// BEFORE, totals normalised; kernels matched by function and index.
    /// With --json, the change of every kernel and function as JSON.
    Diff {
        /// The baseline recording.
        before: PathBuf,
        /// The recording to compare.
        after: PathBuf,
        /// The SVG to write (needed unless --json is given).
        #[arg(short, long, value_name = "SVG", required_unless_present = "json")]
        output: Option<PathBuf>,
        /// Write per-kernel and per-function self times of both recordings
        /// and their change (`delta_ns`), the largest change first; kernels
        /// matched by function, name and source location. To standard
        /// output, or to FILE with `--json=FILE`.
        #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true,
              default_missing_value = "-")]
        json: Option<PathBuf>,
        /// Also write the folded differential (two counts per stack).
        #[arg(long, value_name = "FILE")]
        folded: Option<PathBuf>,
        #[command(flatten)]
        program: ProgramArgs,
    },
    /// Write a Perfetto protobuf trace (open it in ui.perfetto.dev).
    Perfetto {
        /// The recording.
        recording: PathBuf,
        #[command(flatten)]
        program: ProgramArgs,
        #[command(flatten)]
        range: RangeArgs,
        /// The trace to write.
        #[arg(short, long, value_name = "PFTRACE")]
        output: PathBuf,
    },
    /// Write Chrome Trace Event JSON (chrome://tracing, ui.perfetto.dev).
    ChromeJson {
        /// The recording.
        recording: PathBuf,
        #[command(flatten)]
        program: ProgramArgs,
        #[command(flatten)]
        range: RangeArgs,
        /// The JSON to write.
        #[arg(short, long, value_name = "JSON")]
        output: PathBuf,
    },
    /// Write a gzipped pprof profile (`go tool pprof -top FILE`): CPU
    /// (self) time, wall time and runs per stack, labelled by thread,
    /// function, stream and execution.
    Pprof {
        /// The recording.
        recording: PathBuf,
        #[command(flatten)]
        program: ProgramArgs,
        #[command(flatten)]
        range: RangeArgs,
        /// The profile to write.
        #[arg(short, long, value_name = "PB_GZ")]
        output: PathBuf,
    },
    /// Per-kernel, per-function and per-thread statistics.
    Stats {
        /// The recording.
        recording: PathBuf,
        #[command(flatten)]
        program: ProgramArgs,
        #[command(flatten)]
        range: RangeArgs,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// The longest dependency chain, each kernel's slack, and what more
    /// workers could gain.
    CriticalPath {
        /// The recording.
        recording: PathBuf,
        #[command(flatten)]
        program: ProgramArgs,
        #[command(flatten)]
        range: RangeArgs,
        /// Re-schedule the recorded graph on N workers.
        #[arg(long, value_name = "N")]
        what_if_workers: Option<usize>,
        /// Predict the span if the kernels matching PATTERN (a part of the
        /// kernel's name, or NAME#INDEX for one kernel) took PCT percent less time,
        /// running and completing asynchronously, by replaying the graph
        /// on the recorded workers. May be given several times.
        #[arg(long, value_name = "PATTERN=PCT", value_parser = parse_speedup)]
        speedup: Vec<(String, f64)>,
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `PATTERN=PCT` of `--speedup`: a pattern and a percentage from 0 to 100.
fn parse_speedup(text: &str) -> Result<(String, f64), String> {
    let (pattern, percent) = text
        .rsplit_once('=')
        .ok_or_else(|| "expected PATTERN=PCT, as in tfrt.add.i32=50".to_string())?;
    if pattern.is_empty() {
        return Err("the pattern before '=' is empty".to_string());
    }
    let percent: f64 = percent
        .trim_end_matches('%')
        .parse()
        .map_err(|_| "PCT after '=' is not a number".to_string())?;
    if !(0.0..=100.0).contains(&percent) {
        return Err("PCT must be from 0 to 100 (percent less time)".to_string());
    }
    Ok((pattern.to_string(), percent))
}

#[derive(Args)]
struct RunArgs {
    /// The program: BEF, MLIR text or MLIR bytecode.
    program: PathBuf,
    /// The functions to run, in order: `-f a,b` or `-f a -f b` (default:
    /// every function without arguments).
    #[arg(short, long, value_name = "NAME", value_delimiter = ',')]
    functions: Vec<String>,
    /// Record only this function, called with the arguments of `--args`,
    /// and print its results as one line of JSON (as `bef run --call`).
    #[arg(long, value_name = "NAME", conflicts_with = "functions")]
    call: Option<String>,
    /// The arguments of `--call`: a JSON list (an object passes keyword
    /// arguments), or `@FILE` to read them from FILE; `[]` if not given.
    /// Tensors are nested lists, their element type from the function's
    /// signature, or `{"btf": PATH, "index": N}`.
    #[arg(long = "args", value_name = "JSON", requires = "call")]
    call_args: Option<String>,
    /// The work queue: s, mstd, mstd:N, mstd:N,M.
    #[arg(short, long, default_value = "s", value_name = "QUEUE")]
    work_queue: String,
    /// Record a short rendering of every value (`--values`), and with
    /// `--values=full` the elements of dense tensors too, as they were at
    /// that moment (befview shows them in full).
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "short", value_name = "FORM")]
    values: Option<ValuesArg>,
    /// With --values=full: a tensor with more elements than N is recorded
    /// short (and marked so).
    #[arg(long, default_value_t = bef_trace::capture::recorder::DEFAULT_VALUE_ELEMENTS, value_name = "N", requires = "values")]
    value_elements: u64,
    /// With --values=full: at most this many MiB of elements in the whole
    /// recording; later tensors are recorded short (and counted).
    #[arg(long, default_value_t = bef_trace::capture::recorder::DEFAULT_VALUES_TOTAL_BYTES >> 20, value_name = "MIB", requires = "values")]
    values_total_mib: u64,
    /// Events kept per thread, at most 2^30; the others are counted as
    /// dropped (a million events take about 150 MB to record and analyse).
    #[arg(long, default_value_t = bef_trace::capture::recorder::DEFAULT_EVENTS_PER_THREAD, value_name = "N", value_parser = events_per_thread)]
    max_events: usize,
    /// Which events a thread keeps when it has more than --max-events:
    /// the first (later ones are dropped) or the last (the oldest are
    /// dropped, so the end of a long run is kept).
    #[arg(long, value_enum, default_value_t = KeepArg::First, value_name = "WHICH")]
    keep: KeepArg,
    /// With --keep last: keep only the last TIME of events (500ms, 30s),
    /// within --max-events (a flight recorder).
    #[arg(long, value_name = "TIME", value_parser = stop::parse_duration)]
    window: Option<Duration>,
    /// Stop the run, as Ctrl-C does, at the first kernel error (`error`)
    /// or the first kernel matching PATTERN (as --speedup takes it) that
    /// runs longer than TIME (`slow:PATTERN>TIME`); may be repeated.
    #[arg(long, value_name = "WHEN")]
    stop_on: Vec<String>,
    /// Leave out the source text the program's locations name (kept by
    /// default, so that the recording shows its lines anywhere).
    #[arg(long)]
    no_source: bool,
    /// Stop the run after this long (500ms, 30s, 2m, 1h) and keep what was
    /// recorded, marked partial, as Ctrl-C does.
    #[arg(long, value_name = "TIME", value_parser = stop::parse_duration)]
    duration: Option<Duration>,
    /// Let the program's own output through to standard output.
    #[arg(long)]
    program_output: bool,
    /// How deeply function calls may nest before the innermost fails with
    /// RESOURCE_EXHAUSTED (as for `bef run`).
    #[arg(long, value_name = "N", default_value_t = bef::runtime::DEFAULT_MAX_CALL_DEPTH)]
    max_call_depth: usize,
    /// Leave the program's table (function and kernel names, locations,
    /// which kernels read each register) out of the recording written: it
    /// keeps the program's path and hash, and is read with `--program
    /// FILE`, the program it ran.
    #[arg(long)]
    no_embed: bool,
}

impl RunArgs {
    /// The files a recording reads: the program, and the file of
    /// `--args @FILE`.
    fn inputs(&self) -> Vec<&Path> {
        let arguments = self.call_args.as_deref().and_then(|a| a.strip_prefix('@'));
        std::iter::once(self.program.as_path())
            .chain(arguments.map(Path::new))
            .collect()
    }

    /// The text of `--args` (`[]` when only `--call` is given): itself, or
    /// the file after `@`, read as the named-file policy allows a file the
    /// user names (as `bef run --call` reads it).
    fn arguments(&self) -> Result<Option<String>, Failure> {
        use bef::tool_io::named_files::{self, NamedFileKind};
        if self.call.is_none() {
            return Ok(None);
        }
        let text = self.call_args.as_deref().unwrap_or("[]");
        let Some(path) = text.strip_prefix('@') else {
            return Ok(Some(text.to_string()));
        };
        let path = Path::new(path);
        let bytes = named_files::read(path, NamedFileKind::UserNamed).map_err(|not_read| {
            Failure::usage(format!(
                "--args @{}: {}",
                escape::path(path),
                not_read.why()
            ))
        })?;
        String::from_utf8(bytes).map(Some).map_err(|_| {
            Failure::from(format!(
                "--args @{}: the arguments are not UTF-8 text",
                escape::path(path)
            ))
        })
    }
}

/// The program files a command reads recordings with.
#[derive(Args)]
struct ProgramArgs {
    /// The program the recording ran (BEF, MLIR text or MLIR bytecode),
    /// refused unless its hash is the one the recording keeps; needed by a
    /// recording made with --no-embed. Give it once per program the
    /// recordings ran (diff).
    #[arg(long = "program", value_name = "FILE")]
    programs: Vec<PathBuf>,
}

#[derive(Args)]
struct FoldArgs {
    /// One lane per thread.
    #[arg(long)]
    per_thread: bool,
    /// Flame chart: time order instead of merged stacks.
    #[arg(long)]
    flamechart: bool,
    /// cpu: time in kernels summed over threads; wall: elapsed time, shared
    /// among what ran at once, idle time shown; off-cpu: the time each
    /// kernel's results took to become available after it returned
    /// (blocking work, async completion).
    #[arg(long, value_enum, default_value_t = ClockArg::Cpu)]
    clock: ClockArg,
    /// The same as `--clock off-cpu`: what the program waited for.
    #[arg(long, conflicts_with = "clock")]
    off_cpu: bool,
}

/// `--values`: each value's short rendering, or that and a dense
/// tensor's elements.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ValuesArg {
    Short,
    Full,
}

/// `--keep`.
#[derive(Clone, Copy, ValueEnum)]
enum KeepArg {
    First,
    Last,
}

#[derive(Clone, Copy, ValueEnum)]
enum ClockArg {
    Cpu,
    Wall,
    OffCpu,
}

impl FoldArgs {
    fn options(&self) -> FoldOptions {
        FoldOptions {
            clock: match self.clock {
                _ if self.off_cpu => Clock::OffCpu,
                ClockArg::Cpu => Clock::Cpu,
                ClockArg::Wall => Clock::Wall,
                ClockArg::OffCpu => Clock::OffCpu,
            },
            per_thread: self.per_thread,
            time_order: self.flamechart,
        }
    }
}

/// A failure, already worded for the user.
struct Failure {
    message: String,
    /// A mistake on the command line clap cannot see (a file `--args @FILE`
    /// names that cannot be read): exit status 2; otherwise 1.
    usage: bool,
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure {
            message: e.to_string(),
            usage: false,
        }
    }
}

impl Failure {
    fn usage(message: String) -> Failure {
        Failure {
            message,
            usage: true,
        }
    }
}

/// How a command that did its work ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// Everything went well: exit status 0.
    Done,
    /// The recording and the outputs were written, but the program
    /// recorded failed (a result that is an error value, a runtime error),
    /// as `bef run` counts failure: exit status 1.
    ProgramFailed,
}

/// `--max-events`: a count the recorder can reserve for.
fn events_per_thread(text: &str) -> Result<usize, String> {
    let n: u64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a count of events"))?;
    usize::try_from(n)
        .ok()
        .filter(|&n| (1..=MAX_EVENTS_PER_THREAD).contains(&n))
        .ok_or_else(|| format!("{n} events per thread: give 1 to {MAX_EVENTS_PER_THREAD} (2^30)"))
}

/// How often a long recording reports progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// How often a recording checks for an interrupt or its deadline.
const STOP_CHECK_EVERY: Duration = Duration::from_millis(50);

/// Programs that recurse deeply need more stack than a default thread has.
const STACK: usize = 64 << 20;

/// Recording reads and translates the program as `bef run` does, with
/// millions of small allocations; with glibc's malloc (and a second copy
/// of the program table, since shared) a recording of a 200,000-kernel
/// chain took 1.3 times as long (docs/performance.md).
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

fn main() -> ExitCode {
    global_alloc::keep_freed_memory();
    global_alloc::avoid_transparent_huge_pages();
    let cli = Cli::parse();
    let outcome = std::thread::Builder::new()
        .name("main".into())
        .stack_size(STACK)
        .spawn(move || run(cli))
        .expect("spawn the main thread")
        .join();
    match outcome {
        Ok(Ok(Ending::Done)) => ExitCode::SUCCESS,
        Ok(Ok(Ending::ProgramFailed)) => ExitCode::from(1),
        Ok(Err(Failure { message, usage })) => {
            // Messages quote names and program text: escaped, every line.
            let _ = writeln!(
                std::io::stderr(),
                "bef-trace: error: {}",
                escape::terminal_lines(&message)
            );
            ExitCode::from(if usage { 2 } else { 1 })
        }
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A line on standard error (escaped); one that cannot be written is
/// lost, as there is nowhere left to say so.
fn note(text: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "bef-trace: {}",
        escape::terminal_lines(text)
    );
}

/// Streams what `write` produces to standard output, failing with a
/// message if it cannot (`/dev/full`, a closed pipe).
fn print_with(
    write: impl FnOnce(&mut std::io::BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| Failure::from(format!("cannot write to standard output: {e}")))
}

fn run(cli: Cli) -> Result<Ending, Failure> {
    let progress = Progress::new(cli.progress || std::io::stderr().is_terminal());
    // The commands that write one export of one recording, one row each.
    let job = match cli.command {
        Command::Record { run, output, live } => {
            return record_command(&run, &output, live.as_deref());
        }
        Command::Run {
            run,
            output,
            flamegraph,
            folded,
            perfetto,
            chrome_json,
            pprof,
            stats,
            critical_path,
        } => {
            // The exports written to files, in the order they are written.
            let files: Vec<(PathBuf, Box<dyn Export>)> = [
                (flamegraph, boxed(FlameOptions::default())),
                (folded, boxed(FoldOptions::default())),
                (perfetto, boxed(perfetto::Options)),
                (chrome_json, boxed(chrome::Options)),
                (pprof, boxed(pprof::Options)),
            ]
            .into_iter()
            .filter_map(|(path, export)| Some((path?, export)))
            .collect();
            // Asked for nothing, a run still says what it recorded.
            let nothing_asked = output.is_none() && files.is_empty() && !critical_path;
            let printed: Vec<Box<dyn Export>> = [
                (stats || nothing_asked, boxed(stats::Options::default())),
                (critical_path, boxed(CriticalOptions::default())),
            ]
            .into_iter()
            .filter_map(|(asked, export)| asked.then_some(export))
            .collect();
            return run_command(&run, output.as_deref(), &files, &printed, progress);
        }
        Command::Diff {
            before,
            after,
            output,
            json,
            folded,
            program,
        } => {
            let outputs = DiffOutputs {
                svg: output.as_deref(),
                json: json.as_deref(),
                folded: folded.as_deref(),
            };
            return diff(&before, &after, &outputs, &program, progress);
        }
        Command::Flamegraph {
            recording,
            program,
            range,
            output,
            fold,
            inverted,
            title,
        } => Job::new(
            recording,
            program,
            &range,
            Some(output),
            FlameOptions {
                fold: fold.options(),
                inverted,
                title,
            },
        ),
        Command::Folded {
            recording,
            program,
            range,
            output,
            fold,
        } => Job::new(recording, program, &range, output, fold.options()),
        Command::Perfetto {
            recording,
            program,
            range,
            output,
        } => Job::new(recording, program, &range, Some(output), perfetto::Options),
        Command::ChromeJson {
            recording,
            program,
            range,
            output,
        } => Job::new(recording, program, &range, Some(output), chrome::Options),
        Command::Pprof {
            recording,
            program,
            range,
            output,
        } => Job::new(recording, program, &range, Some(output), pprof::Options),
        Command::Stats {
            recording,
            program,
            range,
            json,
        } => Job::new(recording, program, &range, None, stats::Options { json }),
        Command::CriticalPath {
            recording,
            program,
            range,
            what_if_workers,
            speedup,
            json,
        } => {
            if what_if_workers == Some(0) {
                return Err(Failure::from("--what-if-workers needs at least 1 worker"));
            }
            let options = CriticalOptions {
                what_if_workers,
                speedups: speedup,
                json,
            };
            Job::new(recording, program, &range, None, options)
        }
    };
    job.run(progress)
}

/// `export`, to stand in a table of exports.
fn boxed(export: impl Export + 'static) -> Box<dyn Export> {
    Box::new(export)
}

/// A command that writes one export of one recording: to a file, or to
/// standard output.
struct Job {
    recording: PathBuf,
    program: ProgramArgs,
    selection: Selection,
    output: Option<PathBuf>,
    export: Box<dyn Export>,
}

impl Job {
    fn new(
        recording: PathBuf,
        program: ProgramArgs,
        range: &RangeArgs,
        output: Option<PathBuf>,
        export: impl Export + 'static,
    ) -> Job {
        Job {
            recording,
            program,
            selection: range.selection(),
            output,
            export: boxed(export),
        }
    }

    fn run(self, progress: Progress) -> Result<Ending, Failure> {
        let outputs: Vec<&Path> = self.output.iter().map(PathBuf::as_path).collect();
        check_outputs(
            &outputs,
            &inputs(&[self.recording.as_path()], &self.program),
        )?;
        let recording = load_one(&self.recording, &self.program, progress)?;
        let recording = self
            .selection
            .apply(recording)
            .map_err(|e| Failure::usage(format!("{}: {e}", escape::path(&self.recording))))?;
        let model = analyse(recording, progress);
        export_to(self.output.as_deref(), &*self.export, &model, progress)?;
        Ok(Ending::Done)
    }
}

/// `bef-trace record`.
fn record_command(run: &RunArgs, output: &Path, live: Option<&Path>) -> Result<Ending, Failure> {
    check_outputs(&[output], &run.inputs())?;
    let keep = match run.keep {
        KeepArg::First => Keep::First,
        KeepArg::Last => Keep::Last,
    };
    let live = live
        .map(|path| LiveSocket::bind(path, keep))
        .transpose()
        .map_err(|e| Failure::from(format!("--live {e}")))?;
    let (recording, ending) = record(run, !run.no_embed, Some(output), live)?;
    write_file(output, &bef_trace::write(&recording))?;
    note(&format!(
        "wrote {} events to {}",
        recording.event_count(),
        escape::path(output)
    ));
    Ok(ending)
}

/// `bef-trace run`: records, writes the recording to `output` if given,
/// each export of `files` to its file, then those `printed` to standard
/// output.
fn run_command(
    run: &RunArgs,
    output: Option<&Path>,
    files: &[(PathBuf, Box<dyn Export>)],
    printed: &[Box<dyn Export>],
    progress: Progress,
) -> Result<Ending, Failure> {
    let outputs: Vec<&Path> = output
        .into_iter()
        .chain(files.iter().map(|(path, _)| path.as_path()))
        .collect();
    check_outputs(&outputs, &run.inputs())?;
    // The exports need the program's table: only the file written may
    // leave it out.
    let (recording, ending) = record(run, true, None, None)?;
    if let Some(path) = output {
        write_file(
            path,
            &bef_trace::capture::codec::write_with(&recording, !run.no_embed),
        )?;
    }
    let model = analyse(recording, progress);
    for (path, export) in files {
        export_to(Some(path), &**export, &model, progress)?;
    }
    for export in printed {
        export_to(None, &**export, &model, progress)?;
    }
    Ok(ending)
}

/// `bef-trace diff`.
/// What `bef-trace diff` writes; `-` as `json` is standard output.
struct DiffOutputs<'a> {
    svg: Option<&'a Path>,
    json: Option<&'a Path>,
    folded: Option<&'a Path>,
}

fn diff(
    before: &Path,
    after: &Path,
    outputs: &DiffOutputs<'_>,
    program: &ProgramArgs,
    progress: Progress,
) -> Result<Ending, Failure> {
    let json_file = outputs.json.filter(|p| p.as_os_str() != "-");
    let files: Vec<&Path> = [outputs.svg, json_file, outputs.folded]
        .into_iter()
        .flatten()
        .collect();
    check_outputs(&files, &inputs(&[before, after], program))?;
    let [a, b] = load(&[before, after], program, progress)?;
    if a.header.program_hash != b.header.program_hash {
        note(&format!(
            "note: the recordings ran different programs \
             ({:016x} and {:016x}); the flame graph matches kernels by function and \
             index, --json by function, name and location",
            a.header.program_hash, b.header.program_hash
        ));
    }
    let (ma, mb) = (analyse(a, progress), analyse(b, progress));
    if let Some(path) = outputs.folded {
        write_file(path, flamegraph::diff_folded(&ma, &mb)?.as_bytes())?;
    }
    if let Some(path) = outputs.svg {
        let names = (file_name(before), file_name(after));
        write_with(path, |out| {
            flamegraph::write_diff_svg(&ma, &mb, (&names.0, &names.1), out)
        })?;
    }
    if let Some(path) = outputs.json {
        let comparison = progress.step("comparing", || compare::compare(&ma, &mb));
        let text = bef_trace::display::terminal_json(&comparison)
            .map_err(|e| Failure::from(e.to_string()))?;
        match json_file {
            Some(path) => write_file(path, text.as_bytes())?,
            None if path.as_os_str() == "-" => print_with(|out| out.write_all(text.as_bytes()))?,
            None => {}
        }
    }
    Ok(Ending::Done)
}

/// Writes `export` of `model` to the file `output`, or to standard output.
fn export_to(
    output: Option<&Path>,
    export: &dyn Export,
    model: &Model,
    progress: Progress,
) -> Result<(), Failure> {
    match output {
        Some(path) => write_with(path, |out| export.write(model, out, progress)),
        None => print_with(|out| export.write(model, out, progress)),
    }
}

/// How a recording named on the command line is called in a picture: its
/// file name (shown escaped there).
fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}

/// Refuses, before any work, an output that is one of the inputs (by any
/// spelling or link), a directory, or in a directory that does not exist.
fn check_outputs(outputs: &[&Path], inputs: &[&Path]) -> Result<(), Failure> {
    for output in outputs {
        refuse_input(output, inputs)?;
    }
    Ok(())
}

/// The files a command reads: `recordings` and the programs given.
fn inputs<'a>(recordings: &[&'a Path], programs: &'a ProgramArgs) -> Vec<&'a Path> {
    recordings
        .iter()
        .copied()
        .chain(programs.programs.iter().map(PathBuf::as_path))
        .collect()
}

/// Where the `n`th snapshot of the recording written to `output` goes:
/// `run.beftrace` gives `run.1.beftrace`.
fn snapshot_path(output: &Path, n: u32) -> PathBuf {
    let name = output.file_name().unwrap_or_default().to_string_lossy();
    let stem = name.strip_suffix(".beftrace").unwrap_or(&name);
    output.with_file_name(format!("{stem}.{n}.beftrace"))
}

/// Writes the snapshot `snapshots` takes now as the next snapshot of
/// `output`, saying where.
fn write_snapshot(
    snapshots: &bef_trace::capture::record::SnapshotHandle,
    output: &Path,
    inputs: &[&Path],
    taken: &mut u32,
) -> Result<(), Failure> {
    let Some(recording) = snapshots.take() else {
        note("snapshot asked for before the run started or after it ended: not written");
        return Ok(());
    };
    *taken += 1;
    let path = snapshot_path(output, *taken);
    check_outputs(&[&path], inputs)?;
    write_file(&path, &bef_trace::write(&recording))?;
    note(&format!(
        "snapshot: wrote {} events to {}",
        recording.event_count(),
        escape::path(&path)
    ));
    Ok(())
}

/// Records the program `args` name; `embed_program`: keep its table;
/// `output`: where the recording goes, beside which SIGUSR1 writes
/// snapshots. Says which function failed, if any did, and prints the
/// results of `--call`. With `live`, the recording is also served on that
/// socket while it is made.
fn record(
    args: &RunArgs,
    embed_program: bool,
    output: Option<&Path>,
    live: Option<LiveSocket>,
) -> Result<(Recording, Ending), Failure> {
    input::regular_file(&args.program, "program").map_err(Failure::from)?;
    let arguments = args.arguments()?;
    if args.window.is_some() && !matches!(args.keep, KeepArg::Last) {
        return Err(Failure::usage(
            "--window keeps the last events: give --keep last with it".to_string(),
        ));
    }
    let mut stop_on = bef_trace::capture::flight::StopOn::default();
    for condition in &args.stop_on {
        stop::parse_stop_on(condition, &mut stop_on).map_err(Failure::usage)?;
    }
    let snapshots = bef_trace::capture::record::SnapshotHandle::default();
    let inputs: Vec<PathBuf> = args.inputs().iter().map(|p| p.to_path_buf()).collect();
    let cancel = CancelHandle::default();
    let mut watch = stop::Watch::start(cancel.clone(), args.duration).map_err(Failure::from)?;
    let options = RecordOptions {
        work_queue: args.work_queue.clone(),
        functions: match &args.call {
            Some(name) => vec![name.clone()],
            None => args.functions.clone(),
        },
        recorder: RecorderOptions {
            values: args.values.is_some(),
            full_values: (args.values == Some(ValuesArg::Full)).then(|| {
                bef_trace::capture::recorder::FullValues {
                    value_elements: args.value_elements,
                    total_bytes: args.values_total_mib.saturating_mul(1 << 20),
                }
            }),
            events_per_thread: args.max_events,
            keep: match args.keep {
                KeepArg::First => Keep::First,
                KeepArg::Last => Keep::Last,
            },
            window_ns: args
                .window
                .map(|w| u64::try_from(w.as_nanos()).unwrap_or(u64::MAX)),
        },
        program_output: args.program_output,
        max_call_depth: args.max_call_depth,
        cancel: Some(cancel),
        arguments,
        embed_program,
        embed_source: !args.no_source,
        stop_on,
        snapshots: output.map(|_| snapshots.clone()),
    };
    // Every few seconds, which function is running; between, whether to
    // stop.
    let current = Arc::new(Mutex::new(String::new()));
    let (done, finished) = mpsc::channel::<()>();
    let ticker = {
        let current = current.clone();
        let started = Instant::now();
        let output = output.map(Path::to_path_buf);
        std::thread::spawn(move || {
            let mut reported = Instant::now();
            let mut taken = 0;
            let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(STOP_CHECK_EVERY) {
                let seconds = started.elapsed().as_secs_f64();
                match watch.check() {
                    Some(stop::Stop::Interrupt) => note(&format!(
                        "interrupted after {seconds:.1}s: stopping the run, keeping what \
                         was recorded (Ctrl-C again to quit at once)"
                    )),
                    Some(stop::Stop::Duration) => note(&format!(
                        "--duration reached after {seconds:.1}s: stopping the run, keeping \
                         what was recorded"
                    )),
                    None => {}
                }
                if watch.snapshot_requested() {
                    match &output {
                        Some(output) => {
                            if let Err(e) = write_snapshot(&snapshots, output, &inputs, &mut taken)
                            {
                                note(&format!("snapshot not written: {}", e.message));
                            }
                        }
                        None => note("snapshot asked for, but no recording is written (-o)"),
                    }
                }
                if reported.elapsed() >= PROGRESS_EVERY {
                    reported = Instant::now();
                    let name = current.lock().map(|n| n.clone()).unwrap_or_default();
                    note(&format!("recording @{name}, {seconds:.0}s so far"));
                }
            }
            watch
        })
    };
    let mut server = None;
    let mut serving_failed = None;
    let result = bef_trace::capture::record::record_file_observed(
        &args.program,
        &options,
        |name| {
            if let Ok(mut current) = current.lock() {
                *current = name.to_string();
            }
        },
        |recorder, header, table| {
            if let Some(socket) = live {
                match socket.serve(recorder.clone(), header.clone(), table.to_vec()) {
                    Ok(serving) => server = Some(serving),
                    Err(e) => serving_failed = Some(e),
                }
            }
        },
    );
    if let Some(e) = serving_failed {
        note(&format!("warning: --live {e}: the recording is not served"));
    }
    if let (Some(server), Ok((recording, _))) = (server, &result) {
        server.finish(recording);
    }
    let _ = done.send(());
    let watch = ticker
        .join()
        .map_err(|_| Failure::from("the progress thread failed"))?;
    watch.finish();
    let (recording, outcomes) = result.map_err(|e| match e {
        bef_trace::capture::record::RecordError::Runner(bef::exec::RunnerError::Open(open)) => {
            Failure::from(
                open.render()
                    .trim_end()
                    .trim_start_matches("error: ")
                    .to_string(),
            )
        }
        bef_trace::capture::record::RecordError::Json(e) => Failure::from(format!("--args: {e}")),
        other => Failure::from(other.to_string()),
    })?;
    if outcomes.is_empty() && watch.stopped().is_none() {
        return Err(Failure::from(format!(
            "{} has no function without arguments to run",
            escape::path(&args.program)
        )));
    }
    if let Some(values) = outcomes.iter().find_map(|o| o.values.as_ref()) {
        // Streamed: a large tensor result is formatted as it is written.
        print_with(|out| {
            bef::abi::json_values::write_values_json(out, values)?;
            out.write_all(b"\n")
        })?;
    }
    // A run stopped on purpose cancels what had not run: not a failure.
    let stopped = watch.stopped().is_some() || recording.header.partial;
    let mut ending = Ending::Done;
    for outcome in outcomes.iter().filter(|o| o.failed && !stopped) {
        ending = Ending::ProgramFailed;
        note(&failed_note(outcome));
    }
    if recording.dropped() > 0 && recording.header.window_ns > 0 {
        note(&format!(
            "note: kept the last {:.3} s of each thread: {} earlier events left out",
            recording.header.window_ns as f64 / 1e9,
            recording.dropped()
        ));
    } else if recording.dropped() > 0 {
        note(&format!(
            "warning: {} (raise --max-events)",
            bef_trace::display::dropped(recording.dropped(), recording.header.kept)
        ));
    }
    if recording.header.partial {
        note("note: the recording is partial: the run was stopped before it ended");
    }
    if recording.header.values_short > 0 {
        note(&format!(
            "note: {} tensor value{} recorded short (over --value-elements {} or --values-total-mib {}, or being written)",
            recording.header.values_short,
            if recording.header.values_short == 1 {
                ""
            } else {
                "s"
            },
            args.value_elements,
            args.values_total_mib
        ));
    }
    use bef_trace::capture::recording::StopReason;
    if let stop @ (StopReason::Error { .. } | StopReason::Slow { .. }) = &recording.header.stop {
        note(&format!("stopped: {stop}"));
    }
    Ok((recording, ending))
}

/// The line that says a function failed and why (cut and escaped).
fn failed_note(outcome: &bef_trace::capture::record::FunctionOutcome) -> String {
    use bef_trace::display;
    let why = outcome.why_failed.as_deref().unwrap_or("an error");
    format!(
        "note: @{} failed: {}",
        display::name(&outcome.name),
        display::text(why)
    )
}

/// Reads the recording at `path` with the programs given (see [`load`]).
fn load_one(path: &Path, programs: &ProgramArgs, progress: Progress) -> Result<Recording, Failure> {
    let [recording] = load(&[path], programs, progress)?;
    Ok(recording)
}

/// Reads the recordings at `paths`, each with the program given whose hash
/// it keeps (which a recording made with --no-embed needs), saying on
/// standard error which are partial. A program given that none of them
/// ran is refused.
fn load<const N: usize>(
    paths: &[&Path; N],
    programs: &ProgramArgs,
    progress: Progress,
) -> Result<[Recording; N], Failure> {
    let mut files = Vec::with_capacity(programs.programs.len());
    for path in &programs.programs {
        files.push(read_program(path)?);
    }
    let mut matched = vec![false; files.len()];
    let mut recordings = Vec::with_capacity(N);
    for path in paths {
        let what = format!("reading {}", escape::path(path));
        let mut recording = progress.step(&what, || {
            let bytes = input::read_recording(path).map_err(Failure::from)?;
            // The bytes read become the recording's encoded events.
            bef_trace::read_owned(bytes)
                .map_err(|e| Failure::from(format!("{}: {e}", escape::path(path))))
        })?;
        let in_recording = |e: ProgramError| Failure::from(format!("{}: {e}", escape::path(path)));
        let header = &recording.header;
        // Each program as this recording's would have been translated.
        let mut candidates = Vec::with_capacity(files.len());
        for (program, buffer) in programs.programs.iter().zip(&files) {
            let name = program.display().to_string();
            let file = progress
                .step(&format!("loading {}", escape::path(program)), || {
                    ProgramFile::from_bytes(buffer.bytes(), &name, &header.program_path)
                })
                .map_err(in_recording)?;
            candidates.push(file);
        }
        let found = candidates.iter().position(|f| f.matches(header));
        if let Some(i) = found {
            matched[i] = true;
        }
        // A recording without its table and no program given for it: the
        // program it names, found as befview finds it (the MLIR text it
        // keeps, its absolute path, beside the recording, as given).
        let located = if found.is_none() && candidates.is_empty() && header.program_left_out {
            let file = program_file::locate(path, header).and_then(|l| {
                let name = l.path.display().to_string();
                ProgramFile::from_bytes(&l.bytes, &name, &header.program_path)
                    .map_err(|e| e.to_string())
            });
            match file {
                Ok(file) if file.matches(header) => Some(file),
                Ok(file) => {
                    return Err(Failure::from(format!(
                        "{}: {}; give the program it ran with --program FILE",
                        escape::path(path),
                        file.check(header)
                            .err()
                            .map(|e| e.to_string())
                            .unwrap_or_default()
                    )));
                }
                Err(why) => {
                    return Err(Failure::from(format!(
                        "{}: {} (the program it names: {why})",
                        escape::path(path),
                        ProgramError::Missing {
                            recorded_path: header.program_path.clone(),
                            recorded_hash: header.program_hash,
                        }
                    )));
                }
            }
        } else {
            None
        };
        let program = match found {
            Some(i) => candidates.get(i),
            None if located.is_some() => located.as_ref(),
            // A program given that is not this one is refused by name,
            // unless (diff) it may be the other recording's.
            None if N == 1 || header.program_left_out => candidates.first(),
            None => None,
        };
        program_file::attach(&mut recording, program).map_err(in_recording)?;
        if recording.header.partial {
            note(&format!(
                "note: {} is a partial recording: its run was stopped before it ended",
                escape::path(path)
            ));
        }
        recordings.push(recording);
    }
    if let Some(unused) = matched.iter().position(|&m| !m) {
        let ran: Vec<String> = recordings
            .iter()
            .map(|r| format!("{} ({:016x})", r.header.program_path, r.header.program_hash))
            .collect();
        return Err(Failure::from(format!(
            "{} is not a program the recordings ran: they ran {}",
            escape::path(&programs.programs[unused]),
            ran.join(" and ")
        )));
    }
    Ok(recordings
        .try_into()
        .unwrap_or_else(|_| unreachable!("one recording per path")))
}

/// The bytes of the program file at `path`, as the named-file policy
/// allows a file the user names.
fn read_program(path: &Path) -> Result<bef::format::BefBuffer, Failure> {
    input::read_program(path)
        .map(|bytes| bef::format::BefBuffer::copy_from(&bytes))
        .map_err(Failure::from)
}

/// The model of `recording`, the analysis told on standard error while
/// it lasts when progress is shown; the recording's events are released
/// once it is built, as the exports read only the model.
fn analyse(recording: Recording, progress: Progress) -> Model {
    let mut model = progress.step("analysing", || Model::new(recording));
    model.release_events();
    model
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    write_with(path, |out| out.write_all(bytes))
}

/// Streams what `write` produces into `path`, through a temporary file
/// renamed over it once complete.
fn write_with(
    path: &Path,
    write: impl FnOnce(&mut AtomicFile) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let failure =
        |e: std::io::Error| Failure::from(format!("cannot write {}: {e}", escape::path(path)));
    let mut out = AtomicFile::create(path).map_err(|e| Failure::from(e.to_string()))?;
    write(&mut out).map_err(failure)?;
    out.commit().map_err(|e| Failure::from(e.to_string()))
}
