//! [`Runner`]: everything between a program file and its functions'
//! results, shared by `bef run`, the profiler and the inspector.
//!
//! ```text
//! Input::read(path) ──(BEF as is; MLIR text or bytecode translated)──▶ Input
//!   Runner::load(input) ──(kernels resolved)──▶ Arc<Program>
//!     Runner::call(&function, args, observer) ──(executed, results awaited)──▶ Call
//!       Call::results / Call::result_values       (inspect or print them)
//!       Call::finish ──(quiesced, released, leaks checked)──▶ LeakReport
//! ```
//!
//! [`Runner::run`] does the last three steps at once. Nothing here prints:
//! errors are [`RunnerError`]s (file-format problems are its
//! [`Open`](RunnerError::Open) variant, everything else is about the
//! request), results are [`ResultValue`]s and leaks a [`LeakReport`].
//! Runtime errors inside a program are error values, and go to the
//! diagnostic sink given to [`RunnerBuilder::diagnostic_sink`] as they
//! happen.
//!
//! ```no_run
//! use bef::exec::{KernelRegistry, Runner};
//!
//! let mut registry = KernelRegistry::new();
//! bef::kernels::register_all(&mut registry);
//! let runner = Runner::builder(registry).work_queue("mstd:2").build()?;
//! let program = runner.open("corpus/conformance/call_nested.mlir")?;
//! let function = runner.function(&program, "nested")?;
//! let finished = runner.run(&function, &[], None)?;
//! for value in &finished.results {
//!     println!("{}", value.display(false));
//! }
//! # Ok::<(), bef::exec::RunnerError>(())
//! ```

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use super::context::ExecutionContext;
use super::error::LoadError;
use super::function::Function;
use super::observer::Observer;
use super::program::Program;
use super::registry::KernelRegistry;
use crate::bytecode::{self, BytecodeError};
use crate::format::{BefBuffer, constants::MAGIC};
use crate::ir;
use crate::runtime::{
    AllocationStats, AsyncValue, DEFAULT_MAX_CALL_DEPTH, Diagnostic, FixedSizeAllocator,
    HostAllocator, HostContext, LeakCheckAllocator, MallocAllocator, ProfiledAllocator,
    WorkQueueError, create_work_queue, live_async_values, live_async_values_tracked,
    track_live_async_values,
};
use crate::text;
use crate::translate::{TranslateOptions, mlir_to_bef};

/// The host allocators a runner can use (the reference driver's
/// `--host_allocator_type` values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllocatorKind {
    /// The system allocator.
    Malloc,
    /// The system allocator, counting live allocations: a call that
    /// leaves some behind reports them ([`LeakReport::allocations`]).
    LeakCheck,
    /// The reference's test allocator: 1 KiB of live bytes (requests of
    /// up to 32 bytes aside), each grant, refusal and release reported on
    /// standard error.
    TestFixedSize1k,
    /// The system allocator, counting allocations and peaks.
    Profiled,
}

impl AllocatorKind {
    /// Every kind, in the order the reference driver lists them.
    pub const ALL: [AllocatorKind; 4] = [
        AllocatorKind::Malloc,
        AllocatorKind::LeakCheck,
        AllocatorKind::TestFixedSize1k,
        AllocatorKind::Profiled,
    ];

    /// The name the command line uses (`leak_check_allocator`).
    pub fn name(self) -> &'static str {
        match self {
            AllocatorKind::Malloc => "malloc",
            AllocatorKind::LeakCheck => "leak_check_allocator",
            AllocatorKind::TestFixedSize1k => "test_fixed_size_1k",
            AllocatorKind::Profiled => "profiled_allocator",
        }
    }

    /// The kind named `name` (see [`name`](Self::name)).
    pub fn from_name(name: &str) -> Option<AllocatorKind> {
        AllocatorKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
    }

    /// What the allocator is, in the reference driver's words (`memory
    /// leak check allocator`).
    pub fn description(self) -> &'static str {
        match self {
            AllocatorKind::Malloc => "malloc",
            AllocatorKind::LeakCheck => "memory leak check allocator",
            AllocatorKind::TestFixedSize1k => "fixed size malloc",
            AllocatorKind::Profiled => "profiled allocator based on malloc",
        }
    }
}

impl fmt::Display for AllocatorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AllocatorKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        AllocatorKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = AllocatorKind::ALL.iter().map(|k| k.name()).collect();
            format!(
                "unknown host allocator '{name}' (expected one of {})",
                names.join(", ")
            )
        })
    }
}

/// What an input file turned out to be, by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputFormat {
    /// BEF (starting with `0B EF`), used as is.
    Bef,
    /// MLIR bytecode (starting with `ML\xefR`), translated to BEF.
    MlirBytecode,
    /// Anything else: MLIR text, translated to BEF.
    MlirText,
}

impl InputFormat {
    /// The format of a file starting with `bytes`.
    pub fn detect(bytes: &[u8]) -> InputFormat {
        if bytes.starts_with(&MAGIC) {
            InputFormat::Bef
        } else if bytecode::is_bytecode(bytes) {
            InputFormat::MlirBytecode
        } else {
            InputFormat::MlirText
        }
    }
}

/// Why a file could not become a program: reading, decoding, translating
/// or loading it failed.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file could not be read.
    #[error("cannot read {name}: {source}")]
    Read {
        /// The file, as given.
        name: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Neither BEF nor MLIR bytecode, and not UTF-8 text either.
    #[error("{name} is neither BEF, MLIR bytecode nor UTF-8 text (invalid UTF-8 at byte {offset})")]
    NotText {
        /// The file, as given.
        name: String,
        /// The offset of the first byte that is not UTF-8.
        offset: usize,
    },
    /// MLIR bytecode that could not be read.
    #[error("{name}: {source}")]
    Bytecode {
        /// The file, as given.
        name: String,
        /// What the reader found, with its byte offset.
        #[source]
        source: BytecodeError,
    },
    /// MLIR text that does not parse, or a module that does not translate
    /// to BEF.
    #[error("{name}: {}", .diagnostics.first().map_or("cannot translate", |d| d.message.as_str()))]
    Translate {
        /// The file, as given.
        name: String,
        /// Every problem found, with its source location.
        diagnostics: Vec<ir::Diagnostic>,
        /// The text the locations point into (empty for bytecode).
        source_text: String,
    },
    /// BEF (given or translated) that cannot run: undecodable, or naming a
    /// kernel the registry does not have.
    #[error(transparent)]
    Load(#[from] LoadError),
}

impl OpenError {
    /// The error as the command line shows it: for
    /// [`Translate`](Self::Translate) every diagnostic with its source line
    /// and caret, otherwise one `error: ...` line; always ending in a
    /// newline.
    pub fn render(&self) -> String {
        match self {
            OpenError::Translate {
                diagnostics,
                source_text,
                ..
            } => diagnostics
                .iter()
                .map(|d| text::render_diagnostic(d, source_text))
                .collect(),
            other => format!("error: {other}\n"),
        }
    }

    /// [`render`](Self::render) without quoting the file `len` bytes
    /// long: each diagnostic as `file:line:col: error: message`, no source
    /// line; and a file where nothing parses at all (an error at 1:1) only
    /// by that rule and its size. For a file the user named as something to
    /// read with (`--program FILE`), which may be no program at all: the
    /// error describes, it does not echo.
    pub fn describe(&self, len: usize) -> String {
        match self {
            OpenError::Translate {
                name, diagnostics, ..
            } => {
                let at_start = diagnostics.first().is_some_and(|d| {
                    d.location
                        .primary_position()
                        .is_some_and(|(_, line, col)| line <= 1 && col <= 1)
                });
                if at_start {
                    return format!(
                        "error: {name}: not BEF, MLIR bytecode or MLIR text: {len} bytes, \
                         and nothing in them parses as MLIR from line 1, column 1\n"
                    );
                }
                diagnostics
                    .iter()
                    .map(|d| text::render_diagnostic_line(d, text::SourceLine::Unavailable))
                    .collect()
            }
            other => format!("error: {other}\n"),
        }
    }
}

/// A program file, read and (unless it was BEF) translated to BEF, not
/// yet loaded.
pub struct Input {
    buffer: BefBuffer,
    name: String,
    format: InputFormat,
}

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("name", &self.name)
            .field("format", &self.format)
            .field("bef_bytes", &self.buffer.bytes().len())
            .finish()
    }
}

impl Input {
    /// Reads `path` (`-`: standard input, named `<stdin>`) and translates
    /// it to BEF unless it is BEF already. A mapped file is watched
    /// (`BefBuffer::watched`): truncated by another process while it is
    /// in use, it ends the process with a message naming it.
    pub fn read(path: impl AsRef<Path>) -> Result<Input, OpenError> {
        let path = path.as_ref();
        let name = if path.as_os_str() == "-" {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        // Mapped (or an aligned copy), as BEF wants it.
        let buffer = BefBuffer::load(path)
            .map(|buffer| buffer.watched(path))
            .map_err(|source| OpenError::Read {
                name: name.clone(),
                source,
            })?;
        Input::from_buffer(buffer, name)
    }

    /// Translates `bytes` to BEF unless they are BEF already; `name` is
    /// what locations and messages call the file.
    pub fn from_bytes(bytes: &[u8], name: impl Into<String>) -> Result<Input, OpenError> {
        Input::from_buffer(BefBuffer::copy_from(bytes), name.into())
    }

    /// Translates the bytes of `buffer` (as read by the caller, e.g.
    /// memory-mapped) to BEF unless they are BEF already; `name` is what
    /// locations and messages call the file.
    pub fn from_buffer(buffer: BefBuffer, name: impl Into<String>) -> Result<Input, OpenError> {
        let name = name.into();
        let format = InputFormat::detect(buffer.bytes());
        let translated = match format {
            InputFormat::Bef => None,
            InputFormat::MlirBytecode => {
                let module = bytecode::read_aligned(buffer.bytes()).map_err(|source| {
                    OpenError::Bytecode {
                        name: name.clone(),
                        source,
                    }
                })?;
                // No source text: locations come from the bytecode.
                Some(
                    translate(&module).map_err(|diagnostics| OpenError::Translate {
                        name: name.clone(),
                        diagnostics,
                        source_text: String::new(),
                    })?,
                )
            }
            InputFormat::MlirText => {
                let source =
                    std::str::from_utf8(buffer.bytes()).map_err(|e| OpenError::NotText {
                        name: name.clone(),
                        offset: e.valid_up_to(),
                    })?;
                let bytes = text::parse_module(source, &name)
                    .map_err(|d| vec![d])
                    .and_then(|module| translate(&module))
                    .map_err(|diagnostics| OpenError::Translate {
                        name: name.clone(),
                        diagnostics,
                        source_text: source.to_string(),
                    })?;
                Some(bytes)
            }
        };
        Ok(Input {
            buffer: translated.map_or(buffer, |bytes| BefBuffer::copy_from(&bytes)),
            name,
            format,
        })
    }

    /// What messages and locations call the file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the file was before translation.
    pub fn format(&self) -> InputFormat {
        self.format
    }

    /// The BEF bytes (the file's own, or its translation).
    pub fn bef(&self) -> &BefBuffer {
        &self.buffer
    }

    /// The BEF bytes, kept (to load them with a registry of one's own).
    pub fn into_bef(self) -> BefBuffer {
        self.buffer
    }
}

/// Text and bytecode become BEF without the optional sections: a program to
/// run, not to print back.
fn translate(module: &ir::Module) -> Result<Vec<u8>, Vec<ir::Diagnostic>> {
    mlir_to_bef(
        module,
        TranslateOptions {
            optional_sections: false,
        },
    )
}

/// Why a runner could not do what it was asked. Problems with the program
/// file are [`Open`](Self::Open); errors while a function runs are not
/// errors here but error values among its results (and diagnostics sent to
/// the sink).
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// The work queue specification is malformed.
    #[error("couldn't create work queue type {spec}: {source}")]
    WorkQueue {
        /// The specification, as given.
        spec: String,
        /// What is wrong with it.
        #[source]
        source: WorkQueueError,
    },
    /// The program file could not be read, translated or loaded.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The program has no function of this name.
    #[error("couldn't find function '{name}' (the program has: {})", .known.join(", "))]
    UnknownFunction {
        /// The name asked for.
        name: String,
        /// The program's named functions, in FunctionIndex order.
        known: Vec<String>,
    },
    /// A function was called with the wrong number of arguments.
    #[error("function '{name}' takes {expected} arguments but was given {given}")]
    ArgumentCount {
        /// The function.
        name: String,
        /// Its number of arguments.
        expected: usize,
        /// The number it was given.
        given: usize,
    },
}

impl From<LoadError> for RunnerError {
    fn from(error: LoadError) -> Self {
        RunnerError::Open(OpenError::Load(error))
    }
}

type DiagnosticSink = Box<dyn Fn(&Diagnostic) + Send + Sync>;
type OutputSink = Box<dyn Fn(&str) + Send + Sync>;

/// Configures a [`Runner`]: work queue, host allocator, and where
/// diagnostics and kernel output go.
pub struct RunnerBuilder {
    registry: KernelRegistry,
    work_queue: String,
    allocator: AllocatorKind,
    diagnostic_sink: Option<DiagnosticSink>,
    output_sink: Option<OutputSink>,
    max_call_depth: usize,
}

impl fmt::Debug for RunnerBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunnerBuilder")
            .field("work_queue", &self.work_queue)
            .field("allocator", &self.allocator)
            .finish_non_exhaustive()
    }
}

impl RunnerBuilder {
    /// The work queue, as `bef run --work-queue` takes it: `s`
    /// (single-threaded, the default), `mstd` (a thread per core), `mstd:N`
    /// (N compute threads) or `mstd:N,M` (and M blocking threads).
    pub fn work_queue(mut self, spec: impl Into<String>) -> Self {
        self.work_queue = spec.into();
        self
    }

    /// The host allocator (malloc by default).
    pub fn allocator(mut self, kind: AllocatorKind) -> Self {
        self.allocator = kind;
        self
    }

    /// How deeply function calls may nest on one thread before the
    /// innermost fails (see [`HostContext::max_call_depth`]; default
    /// [`DEFAULT_MAX_CALL_DEPTH`]).
    pub fn max_call_depth(mut self, depth: usize) -> Self {
        self.max_call_depth = depth;
        self
    }

    /// Where runtime errors go as they are reported (by default standard
    /// error, as `error: message`).
    pub fn diagnostic_sink(mut self, sink: impl Fn(&Diagnostic) + Send + Sync + 'static) -> Self {
        self.diagnostic_sink = Some(Box::new(sink));
        self
    }

    /// Where kernel output (`tfrt_test.print_*`, benchmark summaries) goes
    /// (by default standard output).
    pub fn output_sink(mut self, sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.output_sink = Some(Box::new(sink));
        self
    }

    /// The runner, with its work queue started.
    pub fn build(self) -> Result<Runner, RunnerError> {
        let work_queue =
            create_work_queue(&self.work_queue).map_err(|source| RunnerError::WorkQueue {
                spec: self.work_queue.clone(),
                source,
            })?;
        let (allocator, leak_check): (Box<dyn HostAllocator>, _) = match self.allocator {
            AllocatorKind::Malloc => (Box::new(MallocAllocator), None),
            AllocatorKind::LeakCheck => {
                // Leaked async values are reported beside leaked bytes.
                track_live_async_values();
                let shared = Arc::new(LeakCheckAllocator::new(MallocAllocator));
                (Box::new(shared.clone()), Some(shared))
            }
            AllocatorKind::TestFixedSize1k => {
                let fixed =
                    FixedSizeAllocator::new(MallocAllocator).with_log(|line| eprintln!("{line}"));
                (Box::new(fixed), None)
            }
            AllocatorKind::Profiled => (Box::new(ProfiledAllocator::new(MallocAllocator)), None),
        };
        let mut host =
            HostContext::new(work_queue, allocator).with_max_call_depth(self.max_call_depth);
        if let Some(sink) = self.diagnostic_sink {
            host = host.with_diagnostic_sink(sink);
        }
        if let Some(sink) = self.output_sink {
            host = host.with_output_sink(sink);
        }
        Ok(Runner {
            host: Arc::new(host),
            registry: self.registry,
            allocator: self.allocator,
            leak_check,
        })
    }
}

/// Loads programs and runs their functions on one host context (work queue
/// and allocator). See the [module](self) documentation.
pub struct Runner {
    host: Arc<HostContext>,
    registry: KernelRegistry,
    allocator: AllocatorKind,
    /// The allocator again, when it checks leaks.
    leak_check: Option<Arc<LeakCheckAllocator>>,
}

impl fmt::Debug for Runner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runner")
            .field("work_queue", &self.work_queue_name())
            .field("allocator", &self.allocator)
            .finish_non_exhaustive()
    }
}

impl Runner {
    /// A builder for a runner resolving kernels in `registry` (for the
    /// standard library: [`kernels::register_all`](crate::kernels::register_all)).
    pub fn builder(registry: KernelRegistry) -> RunnerBuilder {
        RunnerBuilder {
            registry,
            work_queue: "s".to_string(),
            allocator: AllocatorKind::Malloc,
            diagnostic_sink: None,
            output_sink: None,
            max_call_depth: DEFAULT_MAX_CALL_DEPTH,
        }
    }

    /// The host context functions run on.
    pub fn host(&self) -> &Arc<HostContext> {
        &self.host
    }

    /// The work queue's name (`s`, `mstd:2`, ...).
    pub fn work_queue_name(&self) -> String {
        self.host.work_queue().name()
    }

    /// Whether the work queue runs tasks on threads of its own (every queue
    /// but `s`).
    pub fn is_multi_threaded(&self) -> bool {
        self.work_queue_name() != "s"
    }

    /// The host allocator.
    pub fn allocator(&self) -> AllocatorKind {
        self.allocator
    }

    /// The kernels programs are resolved against.
    pub fn registry(&self) -> &KernelRegistry {
        &self.registry
    }

    /// Loads `input`: every kernel resolved against the registry.
    pub fn load(&self, input: Input) -> Result<Arc<Program>, RunnerError> {
        let Input { buffer, name, .. } = input;
        Ok(Program::load(buffer, name, &self.registry)?)
    }

    /// Reads, translates if needed, and loads the program at `path` (`-`:
    /// standard input).
    pub fn open(&self, path: impl AsRef<Path>) -> Result<Arc<Program>, RunnerError> {
        self.load(Input::read(path)?)
    }

    /// The function `name` of `program`.
    pub fn function(&self, program: &Arc<Program>, name: &str) -> Result<Function, RunnerError> {
        program
            .function_named(name)
            .map(|index| Function::new(program.clone(), index))
            .ok_or_else(|| RunnerError::UnknownFunction {
                name: name.to_string(),
                known: program
                    .functions()
                    .iter()
                    .filter(|f| !f.name.is_empty())
                    .map(|f| f.name.clone())
                    .collect(),
            })
    }

    /// The functions a run of `program` covers, as the reference driver
    /// chooses them: `init` first (if given), then `names` in order, or,
    /// when `names` is empty, every named function in FunctionIndex order
    /// (except `init`). Functions with arguments are included: callers
    /// decide what to do with them.
    pub fn select_functions(
        &self,
        program: &Arc<Program>,
        names: &[String],
        init: Option<&str>,
    ) -> Result<Vec<Function>, RunnerError> {
        let mut functions = Vec::new();
        if let Some(init) = init {
            functions.push(self.function(program, init)?);
        }
        if names.is_empty() {
            for (index, info) in program.functions().iter().enumerate() {
                if info.name.is_empty() || Some(info.name.as_str()) == init {
                    continue;
                }
                functions.push(Function::new(program.clone(), index));
            }
        } else {
            for name in names {
                functions.push(self.function(program, name)?);
            }
        }
        Ok(functions)
    }

    /// Runs `function` on `args` as one request (its own resource context,
    /// so `tfrt.once` results are released with it), reporting to
    /// `observer` if given, and waits until its results are available.
    /// Side effects not chained to the results may still be running:
    /// [`Call::finish`] waits for them.
    pub fn call(
        &self,
        function: &Function,
        args: &[AsyncValue],
        observer: Option<Arc<dyn Observer>>,
    ) -> Result<Call<'_>, RunnerError> {
        if args.len() != function.num_arguments() {
            return Err(RunnerError::ArgumentCount {
                name: function.name().to_string(),
                expected: function.num_arguments(),
                given: args.len(),
            });
        }
        let live_before = live_async_values_tracked().then(live_async_values);
        let mut ctx = ExecutionContext::new(self.host.clone());
        if let Some(observer) = observer {
            ctx = ctx.with_observer(observer);
        }
        let results = function.execute(&ctx, args);
        self.host.await_values(&results);
        Ok(Call {
            runner: self,
            function: function.clone(),
            ctx: Some(ctx),
            results,
            live_before,
        })
    }

    /// [`call`](Self::call), then the results as values, then
    /// [`finish`](Call::finish).
    pub fn run(
        &self,
        function: &Function,
        args: &[AsyncValue],
        observer: Option<Arc<dyn Observer>>,
    ) -> Result<Finished, RunnerError> {
        let call = self.call(function, args, observer)?;
        let results = call.result_values();
        let leaks = call.finish();
        Ok(Finished { results, leaks })
    }

    /// Waits until the work queue is idle (no task running or queued).
    pub fn quiesce(&self) {
        self.host.quiesce();
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.host.quiesce();
        // A leak-check allocator panics when dropped with live
        // allocations; a runner reports them in `LeakReport` instead, and
        // keeps the allocator (and what leaked from it) to the end.
        if let Some(leak_check) = &self.leak_check
            && leak_check.check().is_err()
        {
            std::mem::forget(leak_check.clone());
        }
    }
}

/// A function run by [`Runner::call`], its results available.
pub struct Call<'r> {
    runner: &'r Runner,
    function: Function,
    /// The request's context, until [`finish`](Self::finish).
    ctx: Option<ExecutionContext>,
    results: Vec<AsyncValue>,
    /// Live async values before the call started, when they are counted
    /// (`runtime::track_live_async_values`).
    live_before: Option<usize>,
}

impl fmt::Debug for Call<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("function", &self.function.name())
            .field("results", &self.results.len())
            .finish_non_exhaustive()
    }
}

impl Call<'_> {
    /// The function that ran.
    pub fn function(&self) -> &Function {
        &self.function
    }

    /// The function's results, all available.
    pub fn results(&self) -> &[AsyncValue] {
        &self.results
    }

    /// The results read as their declared types.
    pub fn result_values(&self) -> Vec<ResultValue> {
        self.results
            .iter()
            .zip(&self.function.info().result_types)
            .map(|(value, type_name)| ResultValue::read(value, type_name))
            .collect()
    }

    /// Waits until the work queue is idle (side effects not chained to the
    /// results have run), clears a cancellation so that the next call runs,
    /// releases the results and the request's resources, and reports what
    /// is still alive.
    pub fn finish(mut self) -> LeakReport {
        self.settle();
        self.results.clear();
        self.ctx = None;
        let after = live_async_values();
        LeakReport {
            async_values: self
                .live_before
                .filter(|&before| after > before)
                .map(|before| AsyncValueLeak { before, after }),
            allocations: self
                .runner
                .leak_check
                .as_ref()
                .and_then(|a| a.check().err().map(|leak| (leak, a.stats())))
                .map(|(leak, stats)| AllocationLeak {
                    allocations: leak.allocations,
                    bytes: leak.bytes,
                    stats,
                }),
        }
    }

    /// Quiesces and clears a cancellation.
    fn settle(&self) {
        let host = &self.runner.host;
        host.quiesce();
        host.restart();
    }
}

impl Drop for Call<'_> {
    fn drop(&mut self) {
        // Not finished: still leave the host idle for the next call.
        if self.ctx.is_some() {
            self.settle();
        }
    }
}

/// What [`Runner::run`] returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// The function's results, read as their declared types.
    pub results: Vec<ResultValue>,
    /// What the call left alive.
    pub leaks: LeakReport,
}

/// What a call left alive after it finished.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeakReport {
    /// More async values are alive than before the call (only while
    /// they are counted: in debug builds, with
    /// [`AllocatorKind::LeakCheck`], with an observer, or after
    /// `runtime::track_live_async_values`).
    pub async_values: Option<AsyncValueLeak>,
    /// The leak-check allocator has live allocations (only with
    /// [`AllocatorKind::LeakCheck`]).
    pub allocations: Option<AllocationLeak>,
}

impl LeakReport {
    /// Nothing leaked.
    pub fn is_clean(&self) -> bool {
        self.async_values.is_none() && self.allocations.is_none()
    }
}

/// Live async values before and after a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsyncValueLeak {
    /// Alive when the call started.
    pub before: usize,
    /// Alive after it finished.
    pub after: usize,
}

impl AsyncValueLeak {
    /// How many more are alive.
    pub fn leaked(&self) -> usize {
        self.after - self.before
    }
}

/// Live allocations of the leak-check allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocationLeak {
    /// Allocations not freed.
    pub allocations: usize,
    /// Their bytes.
    pub bytes: usize,
    /// The allocator's statistics when the leak was found (the reference
    /// prints them before the leak).
    pub stats: AllocationStats,
}

/// A function result read as its declared type.
#[derive(Debug, Clone, PartialEq)]
pub enum ResultValue {
    /// An `i1`.
    Bool(bool),
    /// An `i32`.
    I32(i32),
    /// An `i64`.
    I64(i64),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A value of a type without a printed form (`!tfrt.chain`,
    /// `!tfrt.string`, ...): its type name.
    Opaque(String),
    /// An error value.
    Error(Diagnostic),
    /// A payload of another type than the one declared.
    Mismatch(String),
}

impl ResultValue {
    /// `value` (available) read as `type_name` (`i32`, `!tfrt.chain`, ...).
    pub fn read(value: &AsyncValue, type_name: &str) -> ResultValue {
        if let Some(diag) = value.error_diagnostic() {
            return ResultValue::Error(diag.clone());
        }
        let read = match type_name {
            "i1" => value.get::<bool>().map(|v| ResultValue::Bool(*v)),
            "i32" => value.get::<i32>().map(|v| ResultValue::I32(*v)),
            "i64" => value.get::<i64>().map(|v| ResultValue::I64(*v)),
            "f32" => value.get::<f32>().map(|v| ResultValue::F32(*v)),
            "f64" => value.get::<f64>().map(|v| ResultValue::F64(*v)),
            other => return ResultValue::Opaque(other.to_string()),
        };
        read.unwrap_or_else(|e| ResultValue::Mismatch(e.to_string()))
    }

    /// The value as the reference driver prints it (`1` for a true `i1`,
    /// `1.0` for floats, `!tfrt.chain value`, `<<error: message>>`, with
    /// `, code: CODE` before the `>>` when `print_error_code`).
    pub fn display(&self, print_error_code: bool) -> impl fmt::Display + '_ {
        DisplayResult {
            value: self,
            print_error_code,
        }
    }
}

struct DisplayResult<'a> {
    value: &'a ResultValue,
    print_error_code: bool,
}

impl fmt::Display for DisplayResult<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            ResultValue::Bool(v) => write!(f, "{}", u8::from(*v)),
            ResultValue::I32(v) => write!(f, "{v}"),
            ResultValue::I64(v) => write!(f, "{v}"),
            ResultValue::F32(v) => write!(f, "{v:?}"),
            ResultValue::F64(v) => write!(f, "{v:?}"),
            ResultValue::Opaque(type_name) => write!(f, "{type_name} value"),
            ResultValue::Error(diag) if self.print_error_code => {
                write!(f, "<<error: {}, code: {}>>", diag.message, diag.code)
            }
            ResultValue::Error(diag) => write!(f, "<<error: {}>>", diag.message),
            ResultValue::Mismatch(message) => write!(f, "<<error: {message}>>"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{Chain, ErrorCode};

    fn shown(value: AsyncValue, type_name: &str, code: bool) -> String {
        ResultValue::read(&value, type_name)
            .display(code)
            .to_string()
    }

    #[test]
    fn results_print_as_the_reference_driver() {
        assert_eq!(shown(AsyncValue::available(true), "i1", false), "1");
        assert_eq!(shown(AsyncValue::available(-3i32), "i32", false), "-3");
        assert_eq!(shown(AsyncValue::available(7i64), "i64", false), "7");
        assert_eq!(shown(AsyncValue::available(1.0f32), "f32", false), "1.0");
        assert_eq!(shown(AsyncValue::available(0.1f64), "f64", false), "0.1");
        assert_eq!(
            shown(AsyncValue::available(Chain), "!tfrt.chain", false),
            "!tfrt.chain value"
        );
        let error = AsyncValue::error(Diagnostic::new("boom").with_code(ErrorCode::Cancelled));
        assert_eq!(shown(error.clone(), "i32", false), "<<error: boom>>");
        assert_eq!(
            shown(error, "i32", true),
            "<<error: boom, code: CANCELLED>>"
        );
        let wrong = ResultValue::read(&AsyncValue::available(1i64), "i32");
        assert!(matches!(wrong, ResultValue::Mismatch(_)), "{wrong:?}");
        assert!(wrong.display(false).to_string().contains("type mismatch"));
    }

    #[test]
    fn allocator_names_round_trip() {
        for kind in AllocatorKind::ALL {
            assert_eq!(kind.name().parse::<AllocatorKind>(), Ok(kind));
        }
        let err = "bogus".parse::<AllocatorKind>().unwrap_err();
        assert!(err.contains("leak_check_allocator"), "{err}");
    }

    #[test]
    fn formats_are_told_by_their_first_bytes() {
        assert_eq!(InputFormat::detect(&[0x0B, 0xEF, 0, 0]), InputFormat::Bef);
        assert_eq!(
            InputFormat::detect(b"ML\xefR\x06"),
            InputFormat::MlirBytecode
        );
        assert_eq!(InputFormat::detect(b"func.func"), InputFormat::MlirText);
        let err = Input::from_bytes(b"\xff\xfe", "junk").unwrap_err();
        assert_eq!(
            err.to_string(),
            "junk is neither BEF, MLIR bytecode nor UTF-8 text (invalid UTF-8 at byte 0)"
        );
        let err = Input::from_bytes(b"func.func @f( {", "bad.mlir").unwrap_err();
        assert!(matches!(err, OpenError::Translate { .. }), "{err:?}");
        assert!(err.render().starts_with("bad.mlir:1:"), "{}", err.render());
    }
}
