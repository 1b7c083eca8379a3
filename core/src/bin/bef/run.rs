//! `bef run`: execute every function of a BEF file (or of an MLIR host
//! program, translated on the fly) the way the reference `bef_executor`
//! test driver does, printing what existing FileCheck suites expect.

use crate::console;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};

use crate::diagnostics;
use crate::failure::Failure;
use crate::input::{self, Kind};
use crate::source_lines::SourceLines;
use bef::exec::Observer;
use bef::exec::{AllocatorKind, Input, KernelRegistry, LoadError, OpenError, Runner, RunnerError};
use bef::format::{BefBuffer, SectionId};
use bef::ir;
use bef::runtime::Diagnostic;

use crate::tracing::{DebugTracing, TracingLevel};
use bef::text;

/// Long options of `bef_executor` that scripts spell with one dash.
pub const REFERENCE_LONG_OPTIONS: &[&str] = &[
    "functions",
    "test_init_function",
    "work_queue_type",
    "host_allocator_type",
    "print_error_code",
    "enable_tracing",
    "tracing_level",
    "enable-tracing",
    "tracing-level",
    "work-queue",
    "host-allocator",
    "test-init-function",
    "print-error-code",
    "max-call-depth",
];

#[derive(Args, Debug)]
pub struct RunArgs {
    /// BEF file or MLIR host program (`.mlir`, translated first); `-` (the
    /// default, as for the reference driver) reads standard input.
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Run only these functions, in this order (comma separated).
    #[arg(long, value_delimiter = ',')]
    pub functions: Vec<String>,
    /// Run this function before all others (and not again among them).
    #[arg(long, visible_alias = "test_init_function")]
    pub test_init_function: Option<String>,
    /// Work queue: `s` (single-threaded), `mstd` (one thread per core),
    /// `mstd:N` (N compute threads) or `mstd:N,M` (and M blocking threads).
    #[arg(long, default_value = "s", visible_alias = "work_queue_type",
          value_parser = crate::args::parse_work_queue)]
    pub work_queue: String,
    /// Host allocator; `leak_check_allocator` (the default, as in the
    /// reference runner) fails the run if a function leaves allocations
    /// behind.
    #[arg(
        long,
        default_value = "leak_check_allocator",
        visible_alias = "host_allocator_type",
        value_parser = allocator_parser()
    )]
    pub host_allocator: AllocatorKind,
    /// Print error codes with errors: `<<error: message, code: INTERNAL>>`.
    #[arg(long, visible_alias = "print_error_code")]
    pub print_error_code: bool,
    /// Print the reference runner's debug trace: `Scope:NAME` and `End
    /// Scope` lines for the run, and (at `--tracing-level debug`) each
    /// function and kernel, after the run's own output.
    #[arg(long, visible_alias = "enable_tracing")]
    pub enable_tracing: bool,
    /// Which scopes `--enable-tracing` prints.
    #[arg(
        long,
        value_enum,
        default_value = "default",
        visible_alias = "tracing_level"
    )]
    pub tracing_level: TracingLevel,
    /// Match runtime errors against the `// expected-error {{...}}`
    /// annotations of the source file their locations name, instead of
    /// printing them; exit 1 on any mismatch.
    #[arg(long)]
    pub verify_diagnostics: bool,
    /// MLIR source of the program, for the source lines of errors (also
    /// when the BEF's locations name it by another path or directory).
    /// Otherwise lines are quoted only from the input, when it is MLIR
    /// text, and from `.mlir` files the locations name; never from other
    /// files, devices or FIFOs. May be given several times.
    #[arg(long = "source", value_name = "FILE")]
    pub sources: Vec<PathBuf>,
    /// How deeply function calls (`tfrt.call`, `tfrt.if`, loop bodies...)
    /// may nest before the innermost fails with RESOURCE_EXHAUSTED: the
    /// bound on runaway recursion. Calls below it never overflow the stack
    /// (deep ones continue on heap-allocated stack segments). The default
    /// lets a recursion 100,000 levels deep return (a tfrt.if and a
    /// tfrt.call per level: 200,000 nested calls) and stops runaway
    /// recursion within 512 MiB (about 2 KiB per nested call).
    #[arg(long, value_name = "N", default_value_t = bef::runtime::DEFAULT_MAX_CALL_DEPTH,
          value_parser = clap::value_parser!(usize))]
    pub max_call_depth: usize,
    /// Call only this function, with the arguments of `--args`, and print
    /// its results as one line of JSON (see docs/tools.md).
    #[arg(long, value_name = "NAME",
          conflicts_with_all = ["functions", "test_init_function", "verify_diagnostics"])]
    pub call: Option<String>,
    /// The arguments of `--call`: a JSON list (an object passes keyword
    /// arguments), or `@FILE` to read them from FILE. Tensors are nested
    /// lists, their element type from the function's signature, or
    /// `{"btf": PATH, "index": N}`.
    #[arg(
        long = "args",
        value_name = "JSON",
        requires = "call",
        default_value = "[]"
    )]
    pub call_args: String,
}

/// `--host-allocator`: the library's allocator names, listed in the help.
fn allocator_parser() -> impl TypedValueParser<Value = AllocatorKind> {
    PossibleValuesParser::new(AllocatorKind::ALL.map(AllocatorKind::name))
        .try_map(|name| name.parse::<AllocatorKind>())
}

/// Runtime errors as the runner reports them.
#[derive(Default)]
struct Reported {
    diagnostics: Vec<Diagnostic>,
    /// Errors printed (without --verify-diagnostics): any makes the exit
    /// status 1.
    printed: usize,
}

/// Reads the input (BEF, MLIR text or MLIR bytecode; other kinds are
/// refused with a hint) and translates text and bytecode, rendering their
/// parse or translation errors.
fn read_input(path: &Path, name: &str) -> Result<Input, Failure> {
    let input = input::load(path, "run", "a BEF file, MLIR text or MLIR bytecode")?;
    match input.kind() {
        // Framing errors before anything is printed.
        Kind::Bef => {
            if let Err(e) = input.buffer.open() {
                return Err(input::invalid_bef(name, &e));
            }
        }
        Kind::Text { .. } | Kind::Bytecode => {}
        _ => return Err(input.wrong_kind("run", "BEF, MLIR text or MLIR bytecode")),
    }
    Input::from_buffer(input.buffer, name).map_err(|error| match error {
        OpenError::Translate { .. } => {
            console::err(&error.render());
            Failure::Reported
        }
        other => Failure::Message(other.to_string()),
    })
}

/// Runs the command; `Ok` means exit status 0.
pub fn run(args: &RunArgs, registry: KernelRegistry) -> Result<(), Failure> {
    let tracing = args
        .enable_tracing
        .then(|| Arc::new(DebugTracing::new(args.tracing_level)));
    if let Some(tracing) = &tracing {
        tracing.push_scope(TracingLevel::Default, "Bef Executor");
    }
    let result = run_traced(args, registry, tracing.as_ref());
    if let Some(tracing) = &tracing {
        tracing.pop_scope(TracingLevel::Default);
        tracing.flush();
    }
    result
}

/// [`run`], tracing into `tracing` when given.
fn run_traced(
    args: &RunArgs,
    registry: KernelRegistry,
    tracing: Option<&Arc<DebugTracing>>,
) -> Result<(), Failure> {
    let name = input::display_name(&args.input);
    let input = read_input(&args.input, &name)?;
    let input_is_text = input.format() != bef::exec::InputFormat::Bef;
    let text_input = (input_is_text && args.input.as_os_str() != "-").then_some(&*args.input);
    let sources = Arc::new(SourceLines::new(text_input, &args.sources).map_err(Failure::Message)?);
    let source_files = if args.verify_diagnostics {
        source_files(input.bef(), &name, input_is_text, &sources)
    } else {
        Vec::new()
    };

    let reported = Arc::new(Mutex::new(Reported::default()));
    let sink = reported.clone();
    let sink_sources = sources.clone();
    let verify = args.verify_diagnostics;
    let runner = Runner::builder(registry)
        .work_queue(&args.work_queue)
        .allocator(args.host_allocator)
        .max_call_depth(args.max_call_depth)
        .output_sink(console::out)
        .diagnostic_sink(move |d| {
            let mut reported = sink.lock().unwrap_or_else(|e| e.into_inner());
            if verify {
                reported.diagnostics.push(d.clone());
            } else {
                reported.printed += 1;
                print_runtime_error(d, &sink_sources);
            }
        })
        .build()
        .map_err(|e| Failure::Message(e.to_string()))?;
    if let Some(name) = &args.call {
        let text = crate::call::arguments_text(&args.call_args)?;
        let program = runner.load(input).map_err(|e| match e {
            RunnerError::Open(OpenError::Load(error)) if error.offset.is_none() => {
                Failure::Message(error.to_string())
            }
            other => Failure::Message(other.to_string()),
        })?;
        let function = runner
            .function(&program, name)
            .map_err(|e| Failure::Message(e.to_string()))?;
        let called = crate::call::call(&runner, &function, &text);
        runner.quiesce();
        called?;
        let printed = reported.lock().unwrap_or_else(|e| e.into_inner()).printed;
        return if printed > 0 {
            Err(Failure::Reported)
        } else {
            Ok(())
        };
    }
    say(&format!("Choosing {}.", runner.allocator().description()));
    say(if runner.is_multi_threaded() {
        "Choosing multi-threaded work queue."
    } else {
        "Choosing single-threaded work queue."
    });

    let mut failed = false;
    match runner.load(input) {
        Ok(program) => {
            let functions = runner
                .select_functions(
                    &program,
                    &args.functions,
                    args.test_init_function.as_deref(),
                )
                .map_err(|e| Failure::Message(e.to_string()))?;
            for function in &functions {
                if let Some(tracing) = tracing {
                    let name = format!("Function: {}", function.name());
                    tracing.push_scope(TracingLevel::Debug, &name);
                }
                let ran = run_function(&runner, function, args.print_error_code, tracing);
                if let Some(tracing) = tracing {
                    tracing.pop_scope(TracingLevel::Debug);
                }
                failed |= ran?;
            }
        }
        Err(RunnerError::Open(OpenError::Load(error))) => {
            failed |= load_failed(&error, &name, verify, &reported, &sources)?;
        }
        Err(other) => return Err(Failure::Message(other.to_string())),
    }
    runner.quiesce();
    failed |= reported.lock().unwrap_or_else(|e| e.into_inner()).printed > 0;
    if verify {
        let produced = std::mem::take(
            &mut reported
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .diagnostics,
        );
        failed |= !verify_diagnostics(&produced, &source_files, &sources);
    }
    if failed {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

/// A program that does not load: a malformed file is a format error;
/// anything else (an unknown kernel) a runtime error, printed or kept for
/// verification. Returns whether the run failed.
fn load_failed(
    error: &LoadError,
    name: &str,
    verify: bool,
    reported: &Mutex<Reported>,
    sources: &SourceLines,
) -> Result<bool, Failure> {
    if let Some(offset) = error.offset {
        return Err(Failure::Message(format!(
            "{name} is not valid BEF: {} at offset {offset:#x}",
            error.message
        )));
    }
    let mut diag = Diagnostic::new(error.to_string());
    diag.location = error.location.clone();
    if verify {
        reported
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .diagnostics
            .push(diag);
        Ok(false)
    } else {
        print_runtime_error(&diag, sources);
        Ok(true)
    }
}

/// Runs one function and prints its results, then its leaks; returns
/// whether it leaked.
fn run_function(
    runner: &Runner,
    function: &bef::exec::Function,
    print_error_code: bool,
    tracing: Option<&Arc<DebugTracing>>,
) -> Result<bool, Failure> {
    let name = function.name();
    if function.num_arguments() > 0 {
        say(&format!(
            "--- Not running '{name}' because it has arguments."
        ));
        return Ok(false);
    }
    say(&format!("--- Running '{name}':"));
    let call = runner
        .call(
            function,
            &[],
            tracing
                .filter(|t| t.traces(TracingLevel::Debug))
                .map(|t| Arc::clone(t) as Arc<dyn Observer>),
        )
        .map_err(|e| Failure::Message(e.to_string()))?;
    let results = call.result_values();
    if !results.is_empty() {
        let printed: Vec<String> = results
            .iter()
            .map(|value| value.display(print_error_code).to_string())
            .collect();
        say(&format!("'{name}' returned {}", printed.join(",")));
    }
    // Side effects not chained to the results finish before the check.
    let leaks = call.finish();
    if let Some(leak) = leaks.async_values {
        console::err_line(&format!(
            "Evaluation of function '{name}' leaked {} async values (before: {}, after: {})!",
            leak.leaked(),
            leak.before,
            leak.after
        ));
    }
    if let Some(leak) = leaks.allocations {
        // As the reference's leak-check allocator: its profile, then the
        // leak, on standard output.
        let stats = leak.stats;
        say(&format!(
            "HostAllocator profile:\n\
             Current number of allocations = {}\n\
             Max number of allocations = {}\n\
             Total number of allocations = {}\n\
             Current number of bytes allocated = {}\n\
             Max number of bytes allocated = {}\n\
             Memory leak detected: {} alive allocations, {} alive bytes",
            stats.live_allocations,
            stats.peak_allocations,
            stats.total_allocations,
            stats.live_bytes,
            stats.peak_bytes,
            leak.allocations,
            leak.bytes
        ));
    }
    Ok(!leaks.is_clean())
}

/// One line to stdout, flushed so it interleaves with kernel output and
/// stderr in the order things happened.
fn say(line: &str) {
    console::out_line(line);
}

/// `file:line:col: error: runtime error: ...` with the source line when
/// its file is a source that may be read (see `source_lines`).
fn print_runtime_error(diag: &Diagnostic, sources: &SourceLines) {
    console::err(&sources.render(&to_ir(diag)));
}

fn to_ir(diag: &Diagnostic) -> ir::Diagnostic {
    let location = match &diag.location {
        Some(l) => ir::Location::FileLineCol {
            file: l.file.as_str().into(),
            line: l.line,
            column: l.column,
        },
        None => ir::Location::Unknown,
    };
    ir::Diagnostic::new(location, format!("runtime error: {}", diag.message))
}

/// Source files whose annotations are checked: the input if it is text,
/// and every file named in the BEF's location strings that is a source
/// that may be read.
fn source_files(
    buffer: &BefBuffer,
    name: &str,
    input_is_text: bool,
    sources: &SourceLines,
) -> Vec<String> {
    let mut files = Vec::new();
    let Ok(bef) = buffer.open() else {
        files.push(name.to_string());
        return files;
    };
    if let Some(section) = bef.section(SectionId::LocationStrings) {
        let start = section.data_offset as usize;
        let data = &bef.bytes()[start..start + section.len as usize];
        for raw in data.split(|&b| b == 0) {
            if let Ok(s) = std::str::from_utf8(raw)
                && !s.is_empty()
                && !files.iter().any(|f| f == s)
                && sources.get(s).is_some()
            {
                files.push(s.to_string());
            }
        }
    }
    if input_is_text && !files.iter().any(|f| f == name) && Path::new(name).is_file() {
        files.push(name.to_string());
    }
    files
}

/// Matches runtime errors against annotations, file by file; prints the
/// problems and returns whether all matched.
fn verify_diagnostics(produced: &[Diagnostic], files: &[String], sources: &SourceLines) -> bool {
    let mut by_file: BTreeMap<String, Vec<ir::Diagnostic>> = BTreeMap::new();
    for file in files {
        by_file.entry(file.clone()).or_default();
    }
    let mut passed = true;
    for diag in produced {
        match &diag.location {
            Some(l) => by_file.entry(l.file.clone()).or_default().push(to_ir(diag)),
            None => {
                let unexpected = ir::Diagnostic::new(
                    ir::Location::Unknown,
                    format!("unexpected error: runtime error: {}", diag.message),
                );
                console::err(&text::render_diagnostic(&unexpected, ""));
                passed = false;
            }
        }
    }
    for (file, diagnostics) in &by_file {
        let source = sources.get(file);
        let source_text = source.as_ref().map_or("", |s| s.text.as_str());
        let expected = text::expected_diagnostics(source_text, 1);
        let render = |d: &ir::Diagnostic| sources.render(d);
        let check = diagnostics::check(file, diagnostics, &expected, render);
        for problem in &check.problems {
            console::err(problem);
            if !problem.ends_with('\n') {
                console::err_line("");
            }
        }
        passed &= check.passed();
    }
    passed
}
