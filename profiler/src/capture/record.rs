//! Recording a program: open it with `bef::exec::Runner`, run the chosen
//! functions with a [`Recorder`] attached, and assemble the [`Recording`].

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use bef::exec::{KernelRegistry, ResultValue, Runner, RunnerError};
use bef::runtime::HostContext;

use crate::capture::flight::StopOn;
use crate::capture::program_table::program_table;
use crate::capture::recorder::{Recorder, RecorderOptions};
use crate::capture::recording::{FunctionInfo, Header, Recording, StopReason, content_hash};

/// What to run and how to record it.
#[derive(Debug, Clone)]
pub struct RecordOptions {
    /// The work queue (`s`, `mstd:2`, ...).
    pub work_queue: String,
    /// The functions to run, in order; empty: every named function without
    /// arguments, as `bef run` picks them.
    pub functions: Vec<String>,
    /// How the recorder records.
    pub recorder: RecorderOptions,
    /// Let the program's own output (`tfrt_test.print_*`) through to
    /// standard output; otherwise it is discarded.
    pub program_output: bool,
    /// How deeply function calls may nest before the innermost fails
    /// (`bef run --max-call-depth`).
    pub max_call_depth: usize,
    /// Lets another thread stop the recording.
    pub cancel: Option<CancelHandle>,
    /// The arguments of the one function named in `functions`, as
    /// `bef run --call` takes them (JSON; `bef::abi::json_values`).
    pub arguments: Option<String>,
    /// Keep the program's table in the recording; without it (`--no-embed`)
    /// the recording keeps the program's path and hash, and readers need
    /// the program file ([`crate::capture::program_file`]).
    pub embed_program: bool,
    /// Keep the source text the program's locations name
    /// ([`crate::capture::sources`]); `--no-source` leaves it out.
    pub embed_source: bool,
    /// What stops the recording by itself (`--stop-on`), cancelling the
    /// run as [`cancel`](Self::cancel) does.
    pub stop_on: StopOn,
    /// Lets another thread take what was recorded so far while the run
    /// goes on.
    pub snapshots: Option<SnapshotHandle>,
}

/// Stops a recording from another thread: kernels not yet started are
/// skipped (their results become errors), functions not yet started do not
/// run, and the recording ends with what ran, marked partial
/// ([`Header::partial`](crate::capture::recording::Header::partial)).
#[derive(Debug, Clone, Default)]
pub struct CancelHandle(Arc<Mutex<CancelState>>);

#[derive(Debug, Default)]
struct CancelState {
    requested: bool,
    /// Why, as the first request said.
    reason: Option<StopReason>,
    /// The host the recording runs on, once it runs.
    host: Option<Arc<HostContext>>,
}

impl CancelHandle {
    /// Asks the recording to stop (at once if it runs, else when it
    /// starts), as an interrupt.
    pub fn cancel(&self) {
        self.cancel_because(StopReason::Interrupted);
    }

    /// Asks the recording to stop for `reason`; the first reason given is
    /// the one the recording keeps.
    pub fn cancel_because(&self, reason: StopReason) {
        let mut state = self.0.lock().unwrap_or_else(|e| e.into_inner());
        state.requested = true;
        state.reason.get_or_insert(reason);
        if let Some(host) = &state.host {
            host.cancel("the recording was cancelled");
        }
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn requested(&self) -> bool {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).requested
    }

    /// Why the recording was asked to stop, if it was.
    pub fn reason(&self) -> Option<StopReason> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .reason
            .clone()
    }

    /// Ties the handle to the host a recording runs on.
    fn attach(&self, host: &Arc<HostContext>) {
        let mut state = self.0.lock().unwrap_or_else(|e| e.into_inner());
        state.host = Some(host.clone());
        if state.requested {
            host.cancel("the recording was cancelled");
        }
    }
}

/// Takes what a recording holds so far while its run goes on (SIGUSR1):
/// the events each thread kept, under the recording's header marked
/// partial, stopped for [`StopReason::Snapshot`].
#[derive(Clone, Default)]
pub struct SnapshotHandle(Arc<Mutex<Option<Running>>>);

/// A recording under way, as a snapshot needs it.
struct Running {
    recorder: Arc<Recorder>,
    header: Header,
    /// Shared with the recording under way: a program's table holds a
    /// name and a location per kernel, too much to copy per run.
    table: Arc<Vec<FunctionInfo>>,
}

impl std::fmt::Debug for SnapshotHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SnapshotHandle").finish_non_exhaustive()
    }
}

impl SnapshotHandle {
    /// What was recorded so far; `None` before the run starts and after
    /// it ends.
    pub fn take(&self) -> Option<Recording> {
        let running = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let running = running.as_ref()?;
        let mut header = running.header.clone();
        header.partial = true;
        header.stop = StopReason::Snapshot;
        Some(
            running
                .recorder
                .snapshot(header, running.table.as_ref().clone()),
        )
    }

    fn set(&self, running: Option<Running>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = running;
    }
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            work_queue: "s".into(),
            functions: Vec::new(),
            recorder: RecorderOptions::default(),
            program_output: false,
            max_call_depth: bef::runtime::DEFAULT_MAX_CALL_DEPTH,
            cancel: None,
            arguments: None,
            embed_program: true,
            embed_source: true,
            stop_on: StopOn::default(),
            snapshots: None,
        }
    }
}

/// Why a program could not be recorded.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The program could not be opened or a function not run.
    #[error(transparent)]
    Runner(#[from] RunnerError),
    /// A function named explicitly takes arguments.
    #[error("function '{0}' takes arguments; bef-trace runs functions without arguments")]
    HasArguments(String),
    /// Arguments that do not fit the function, or a function the typed
    /// call refused.
    #[error("{0}")]
    Arguments(String),
    /// Arguments that are not well-formed JSON, or not of the shape the
    /// function's signature asks for (`bef run --call` prefixes `--args:`).
    #[error("{0}")]
    Json(String),
}

/// What happened to one function that ran.
#[derive(Debug, Clone)]
pub struct FunctionOutcome {
    /// The function's name.
    pub name: String,
    /// Its results, as `bef run` prints them; for a call with arguments
    /// that failed, why.
    pub results: Vec<String>,
    /// The results of a call with arguments ([`RecordOptions::arguments`])
    /// that succeeded, as `bef run --call` prints them
    /// (`bef::abi::json_values::write_values_json`).
    pub values: Option<Vec<bef::abi::Value>>,
    /// Whether it failed as `bef run` counts failure: a result is an error
    /// value, or a runtime error was reported while it ran.
    pub failed: bool,
    /// Why it failed, in a line: what it returned, or the first runtime
    /// error reported while it ran (the program's text, not escaped).
    pub why_failed: Option<String>,
}

/// The runtime errors reported since they were last taken: how many and
/// the first (a program may report millions; one is kept).
#[derive(Debug, Default)]
struct RuntimeErrors {
    count: u64,
    first: Option<String>,
}

/// The runtime errors a runner's diagnostic sink reports.
#[derive(Debug, Clone, Default)]
struct ErrorLog(Arc<Mutex<RuntimeErrors>>);

impl ErrorLog {
    fn report(&self, message: &str) {
        let mut errors = self.0.lock().unwrap_or_else(|e| e.into_inner());
        errors.count += 1;
        errors.first.get_or_insert_with(|| message.to_string());
    }

    /// The first error reported since the last call, if any was.
    fn take(&self) -> Option<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner())).first
    }
}

/// Calls `function` with the JSON arguments `text`, recording it: its
/// results, or (`Ok(Err)`) why a call that ran failed. Arguments that do
/// not fit, refused before the call, are an `Err`.
fn call_with_json(
    runner: &Runner,
    function: &bef::exec::Function,
    text: &str,
    recorder: Arc<Recorder>,
) -> Result<Result<Vec<bef::abi::Value>, String>, RecordError> {
    use bef::exec::TypedCallError;
    use bef::kernels::tensor::btf_kernels::{CallArgumentsError, call_arguments_from_json};
    let refused = |e: String| RecordError::Arguments(e);
    let arguments =
        call_arguments_from_json(runner, function, text.as_bytes()).map_err(|e| match e {
            CallArgumentsError::Signature(e) => refused(e),
            CallArgumentsError::Json(e) => RecordError::Json(e),
        })?;
    match runner.call_typed_with(
        function,
        &arguments.positional,
        &arguments.keywords,
        Some(recorder),
    ) {
        Ok(results) => Ok(Ok(results.values)),
        // The function ran: its recording is kept.
        Err(e @ TypedCallError::Result { .. }) => Ok(Err(e.to_string())),
        Err(e) => Err(refused(e.to_string())),
    }
}

/// Records the functions of the program at `path` (BEF, MLIR text or MLIR
/// bytecode); `progress` hears about each function as it starts.
pub fn record_file(
    path: &Path,
    options: &RecordOptions,
    progress: impl FnMut(&str),
) -> Result<(Recording, Vec<FunctionOutcome>), RecordError> {
    record_file_observed(path, options, progress, |_, _, _| {})
}

/// As [`record_file`], and before anything runs hands `started` the
/// recorder, the recording's header (as it will be unless the run is
/// stopped) and the program table it will keep (empty when left out): what
/// a live server needs to stream the recording while it is made.
pub fn record_file_observed(
    path: &Path,
    options: &RecordOptions,
    mut progress: impl FnMut(&str),
    started: impl FnOnce(&Arc<Recorder>, &Header, &[FunctionInfo]),
) -> Result<(Recording, Vec<FunctionOutcome>), RecordError> {
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    let errors = ErrorLog::default();
    let sink = errors.clone();
    let mut builder = Runner::builder(registry)
        .work_queue(options.work_queue.clone())
        .max_call_depth(options.max_call_depth)
        // Runtime errors become error values, which the exports mark; the
        // outcome of the function that reported them says so.
        .diagnostic_sink(move |d| sink.report(&d.message));
    if !options.program_output {
        builder = builder.output_sink(|_| {});
    }
    let runner = builder.build()?;
    if let Some(cancel) = &options.cancel {
        cancel.attach(runner.host());
    }
    let program = runner.open(path)?;
    let functions = runner.select_functions(&program, &options.functions, None)?;
    let explicit = !options.functions.is_empty();
    // A stop condition met cancels the run as an interrupt does, saying
    // why.
    let on_stop = options.cancel.clone().map(|cancel| {
        Box::new(move |reason: &StopReason| cancel.cancel_because(reason.clone()))
            as crate::capture::recorder::StopHook
    });
    let recorder = Recorder::with_stop(options.recorder, options.stop_on.clone(), on_stop);
    let start_unix_ns = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let header = Header {
        program_path: path.display().to_string(),
        program_path_absolute: std::path::absolute(path)
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        program_hash: content_hash(program.bytes()),
        program_size: program.bytes().len() as u64,
        work_queue: runner.work_queue_name().to_string(),
        clock: format!(
            "{}, ns since recording start",
            bef::exec::Timestamp::source()
        ),
        start_unix_ns,
        values: options.recorder.values,
        kept: options.recorder.keep,
        completions_recorded: true,
        program_left_out: !options.embed_program,
        sources: if options.embed_source {
            crate::capture::sources::collect(path, program.bytes())
        } else {
            Vec::new()
        },
        ..Header::default()
    };
    // Reading a large program's table takes a while: left out, it is not
    // read at all.
    let table = Arc::new(if options.embed_program {
        program_table(&program)
    } else {
        Vec::new()
    });
    started(&recorder, &header, &table);
    if let Some(snapshots) = &options.snapshots {
        snapshots.set(Some(Running {
            recorder: recorder.clone(),
            header: header.clone(),
            table: table.clone(),
        }));
    }
    let ran = run_functions(
        &runner,
        &functions,
        explicit,
        options,
        &recorder,
        &errors,
        &mut progress,
    );
    if let Some(snapshots) = &options.snapshots {
        snapshots.set(None);
    }
    let outcomes = ran?;
    // The snapshot handle let go of its share above; a snapshot taken
    // meanwhile copied what it needed.
    let table = Arc::try_unwrap(table).unwrap_or_else(|shared| shared.as_ref().clone());
    runner.quiesce();
    let mut header = header;
    // Cancelled before everything ended: kernels or functions were skipped.
    header.partial = options.cancel.as_ref().is_some_and(CancelHandle::requested);
    header.stop = options
        .cancel
        .as_ref()
        .and_then(CancelHandle::reason)
        .unwrap_or(StopReason::Completed);
    Ok((recorder.finish(header, table), outcomes))
}

/// Runs the functions chosen (or calls the one given arguments) with
/// `recorder` attached: what happened to each.
fn run_functions(
    runner: &Runner,
    functions: &[bef::exec::Function],
    explicit: bool,
    options: &RecordOptions,
    recorder: &Arc<Recorder>,
    errors: &ErrorLog,
    progress: &mut impl FnMut(&str),
) -> Result<Vec<FunctionOutcome>, RecordError> {
    let mut outcomes = Vec::new();
    if let Some(text) = &options.arguments {
        let [function] = functions else {
            return Err(RecordError::Arguments(
                "arguments are given to exactly one function".to_string(),
            ));
        };
        progress(function.name());
        errors.take();
        let called = call_with_json(runner, function, text, recorder.clone())?;
        let runtime_error = errors.take();
        let why_failed = match &called {
            Err(why) => Some(why.clone()),
            Ok(_) => runtime_error.map(|e| format!("runtime error: {e}")),
        };
        outcomes.push(FunctionOutcome {
            name: function.name().to_string(),
            failed: why_failed.is_some(),
            results: called.as_ref().err().cloned().into_iter().collect(),
            values: called.ok(),
            why_failed,
        });
    }
    for function in functions.iter().filter(|_| options.arguments.is_none()) {
        if function.num_arguments() != 0 {
            if explicit {
                return Err(RecordError::HasArguments(function.name().to_string()));
            }
            continue;
        }
        // A run clears the host's cancellation when it ends: the functions
        // after a cancelled one are not started.
        if options.cancel.as_ref().is_some_and(CancelHandle::requested) {
            break;
        }
        progress(function.name());
        errors.take();
        let finished = runner.run(function, &[], Some(recorder.clone()))?;
        let runtime_error = errors.take();
        let results: Vec<String> = finished
            .results
            .iter()
            .map(|r| r.display(false).to_string())
            .collect();
        let returned_error = finished
            .results
            .iter()
            .any(|r| matches!(r, ResultValue::Error(_)));
        let why_failed = if returned_error {
            Some(format!("returned {}", results.join(", ")))
        } else {
            runtime_error.map(|e| format!("runtime error: {e}"))
        };
        outcomes.push(FunctionOutcome {
            name: function.name().to_string(),
            failed: why_failed.is_some(),
            results,
            values: None,
            why_failed,
        });
    }
    Ok(outcomes)
}
