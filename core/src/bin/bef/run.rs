//! `bef run`: execute every function of a BEF file (or of an MLIR host
//! program, translated on the fly) the way the reference `bef_executor`
//! test driver does, printing what existing FileCheck suites expect.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use clap::{Args, ValueEnum};

use crate::diagnostics;
use crate::failure::Failure;
use crate::input::{self, Kind};
use crate::source_lines::SourceLines;
use bef::exec::{ExecutionContext, Function, KernelRegistry, LoadError, Program};
use bef::format::{BefBuffer, SectionId};
use bef::ir;
use bef::runtime::{
    AsyncValue, Chain, Diagnostic, FixedSizeAllocator, HostAllocator, HostContext,
    LeakCheckAllocator, MallocAllocator, ProfiledAllocator, create_work_queue, live_async_values,
};
use bef::text;
use bef::translate::{TranslateOptions, mlir_to_bef};

/// Long options of `bef_executor` that scripts spell with one dash.
pub const REFERENCE_LONG_OPTIONS: &[&str] = &[
    "functions",
    "test_init_function",
    "work_queue_type",
    "host_allocator_type",
    "print_error_code",
    "work-queue",
    "host-allocator",
    "test-init-function",
    "print-error-code",
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
    /// Host allocator; `leak_check_allocator` fails the run if a function
    /// leaves allocations behind.
    #[arg(
        long,
        value_enum,
        default_value = "malloc",
        visible_alias = "host_allocator_type"
    )]
    pub host_allocator: AllocatorKind,
    /// Print error codes with errors: `<<error: message, code: Unknown>>`.
    #[arg(long, visible_alias = "print_error_code")]
    pub print_error_code: bool,
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum AllocatorKind {
    Malloc,
    LeakCheckAllocator,
    #[value(name = "test_fixed_size_1k")]
    TestFixedSize1k,
    ProfiledAllocator,
}

/// The allocator of a run, with the handle the runner checks.
struct Allocator {
    host: Box<dyn HostAllocator>,
    leak_check: Option<Arc<LeakCheckAllocator>>,
    banner: &'static str,
}

fn allocator(kind: AllocatorKind) -> Allocator {
    match kind {
        AllocatorKind::Malloc => Allocator {
            host: Box::new(MallocAllocator),
            leak_check: None,
            banner: "Choosing malloc.",
        },
        AllocatorKind::LeakCheckAllocator => {
            let shared = Arc::new(LeakCheckAllocator::new(MallocAllocator));
            Allocator {
                host: Box::new(shared.clone()),
                leak_check: Some(shared),
                banner: "Choosing memory leak check allocator.",
            }
        }
        AllocatorKind::TestFixedSize1k => Allocator {
            host: Box::new(FixedSizeAllocator::new(MallocAllocator)),
            leak_check: None,
            banner: "Choosing fixed size malloc.",
        },
        AllocatorKind::ProfiledAllocator => Allocator {
            host: Box::new(ProfiledAllocator::new(MallocAllocator)),
            leak_check: None,
            banner: "Choosing profiled allocator based on malloc.",
        },
    }
}

/// Runtime errors as the runner reports them.
#[derive(Default)]
struct Reported {
    diagnostics: Vec<Diagnostic>,
    /// Errors printed (without --verify-diagnostics): any makes the exit
    /// status 1.
    printed: usize,
}

/// Loads the input: BEF as is, text translated (with its parse or
/// translation errors rendered). Also says whether the input was text.
fn load_input(path: &Path, name: &str) -> Result<(BefBuffer, bool), Failure> {
    let input = input::load(path, "run", "a BEF file or MLIR text")?;
    match input.kind() {
        Kind::Bef => {
            // Framing errors before anything is printed.
            if let Err(e) = input.buffer.open() {
                return Err(input::invalid_bef(name, &e));
            }
            return Ok((input.buffer, false));
        }
        Kind::Text { .. } => {}
        _ => return Err(input.wrong_kind("run", "BEF or MLIR text")),
    }
    let source = std::str::from_utf8(input.bytes()).unwrap_or_default();
    let bytes = text::parse_module(source, name)
        .map_err(|d| vec![d])
        .and_then(|module| {
            mlir_to_bef(
                &module,
                TranslateOptions {
                    optional_sections: false,
                },
            )
        })
        .map_err(|diagnostics| {
            for d in &diagnostics {
                eprint!("{}", text::render_diagnostic(d, source));
            }
            Failure::Reported
        })?;
    Ok((BefBuffer::copy_from(&bytes), true))
}

/// Runs the command; `Ok` means exit status 0.
pub fn run(args: &RunArgs, registry: &KernelRegistry) -> Result<(), Failure> {
    let name = if args.input.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        args.input.display().to_string()
    };
    let (buffer, input_is_text) = load_input(&args.input, &name)?;
    let text_input = (input_is_text && args.input.as_os_str() != "-").then_some(&*args.input);
    let sources = Arc::new(SourceLines::new(text_input, &args.sources).map_err(Failure::Message)?);
    let source_files = if args.verify_diagnostics {
        source_files(&buffer, &name, input_is_text, &sources)
    } else {
        Vec::new()
    };

    let allocator = allocator(args.host_allocator);
    let work_queue = create_work_queue(&args.work_queue).map_err(|e| {
        Failure::Message(format!(
            "couldn't create work queue type {}: {e}",
            args.work_queue
        ))
    })?;
    let queue_kind = if work_queue.name() == "s" {
        "single-threaded"
    } else {
        "multi-threaded"
    };
    say(allocator.banner);
    say(&format!("Choosing {queue_kind} work queue."));

    let reported = Arc::new(Mutex::new(Reported::default()));
    let sink = reported.clone();
    let sink_sources = sources.clone();
    let verify = args.verify_diagnostics;
    let host = HostContext::new(work_queue, allocator.host).with_diagnostic_sink(move |d| {
        if verify {
            sink.lock()
                .unwrap_or_else(|e| e.into_inner())
                .diagnostics
                .push(d.clone());
        } else {
            sink.lock().unwrap_or_else(|e| e.into_inner()).printed += 1;
            print_runtime_error(d, &sink_sources);
        }
    });
    let host = Arc::new(host);

    let mut failed = false;
    match Program::load(buffer, name.clone(), registry) {
        Ok(program) => {
            let functions = select_functions(&program, args)?;
            for function in functions {
                // Each function is one request: its resources (e.g. what
                // `tfrt.once` caches) are released before the leak check.
                let ctx = ExecutionContext::new(host.clone());
                failed |= run_function(ctx, &function, args, allocator.leak_check.as_deref());
            }
        }
        // A malformed file is a format error, not a runtime one.
        Err(error) if error.offset.is_some() => {
            return Err(Failure::Message(format!(
                "{name} is not valid BEF: {} at offset {:#x}",
                error.message,
                error.offset.unwrap_or_default()
            )));
        }
        Err(error) => {
            let diag = load_diagnostic(&error);
            if verify {
                reported
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .diagnostics
                    .push(diag);
            } else {
                print_runtime_error(&diag, &sources);
                failed = true;
            }
        }
    }
    host.quiesce();
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

fn load_diagnostic(error: &LoadError) -> Diagnostic {
    let mut diag = Diagnostic::new(error.to_string());
    diag.location = error.location.clone();
    diag
}

/// The functions to run: `--functions` in order, or every named function
/// in FunctionIndex order; the init function first.
fn select_functions(program: &Arc<Program>, args: &RunArgs) -> Result<Vec<Function>, Failure> {
    let find = |name: &str| {
        program
            .function_named(name)
            .map(|i| Function::new(program.clone(), i))
            .ok_or_else(|| {
                let known: Vec<&str> = program
                    .functions()
                    .iter()
                    .filter(|f| !f.name.is_empty())
                    .map(|f| f.name.as_str())
                    .collect();
                Failure::Message(format!(
                    "couldn't find function '{name}' (the program has: {})",
                    known.join(", ")
                ))
            })
    };
    let mut functions = Vec::new();
    if let Some(init) = &args.test_init_function {
        functions.push(find(init)?);
    }
    if args.functions.is_empty() {
        for (i, info) in program.functions().iter().enumerate() {
            if info.name.is_empty() || Some(&info.name) == args.test_init_function.as_ref() {
                continue;
            }
            functions.push(Function::new(program.clone(), i));
        }
    } else {
        for name in &args.functions {
            functions.push(find(name)?);
        }
    }
    Ok(functions)
}

/// Runs one function and prints its results; returns whether it failed
/// the leak check.
fn run_function(
    ctx: ExecutionContext,
    function: &Function,
    args: &RunArgs,
    leak_check: Option<&LeakCheckAllocator>,
) -> bool {
    let name = function.name();
    if function.num_arguments() > 0 {
        say(&format!(
            "--- Not running '{name}' because it has arguments."
        ));
        return false;
    }
    let before = live_async_values();
    say(&format!("--- Running '{name}':"));
    let results = function.execute(&ctx, &[]);
    ctx.host().await_values(&results);
    if !results.is_empty() {
        let printed: Vec<String> = results
            .iter()
            .zip(&function.info().result_types)
            .map(|(value, ty)| format_result(value, ty, args.print_error_code))
            .collect();
        say(&format!("'{name}' returned {}", printed.join(",")));
    }
    // Finish side effects not chained to the results before checking leaks,
    // and clear a cancellation so the next function runs.
    ctx.host().quiesce();
    ctx.host().restart();
    drop(results);
    drop(ctx);
    let mut failed = false;
    let after = live_async_values();
    if after > before {
        eprintln!(
            "Evaluation of function '{name}' leaked {} async values (before: {before}, after: {after})!",
            after - before
        );
        failed = true;
    }
    if let Some(Err(leak)) = leak_check.map(|a| a.check()) {
        eprintln!(
            "Memory leak detected: {} alive allocations, {} alive bytes",
            leak.allocations, leak.bytes
        );
        failed = true;
    }
    failed
}

/// A result as the reference driver prints it.
pub fn format_result(value: &AsyncValue, type_name: &str, print_error_code: bool) -> String {
    if let Some(diag) = value.error_diagnostic() {
        return if print_error_code {
            format!("<<error: {}, code: {:?}>>", diag.message, diag.code)
        } else {
            format!("<<error: {}>>", diag.message)
        };
    }
    let shown = match type_name {
        "i1" => value.get::<bool>().map(|v| u8::from(*v).to_string()),
        "i32" => value.get::<i32>().map(|v| v.to_string()),
        "i64" => value.get::<i64>().map(|v| v.to_string()),
        "f32" => value.get::<f32>().map(|v| format!("{v:?}")),
        "f64" => value.get::<f64>().map(|v| format!("{v:?}")),
        "!tfrt.chain" if value.get::<Chain>().is_ok() => return "!tfrt.chain value".into(),
        other => return format!("{other} value"),
    };
    shown.unwrap_or_else(|e| format!("<<error: {e}>>"))
}

/// One line to stdout, flushed so it interleaves with kernel output and
/// stderr in the order things happened.
fn say(line: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// `file:line:col: error: runtime error: ...` with the source line when
/// its file is a source that may be read (see `source_lines`).
fn print_runtime_error(diag: &Diagnostic, sources: &SourceLines) {
    eprint!("{}", sources.render(&to_ir(diag)));
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
                eprint!("{}", text::render_diagnostic(&unexpected, ""));
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
            eprint!("{problem}");
            if !problem.ends_with('\n') {
                eprintln!();
            }
        }
        passed &= check.passed();
    }
    passed
}

#[cfg(test)]
mod tests {
    use super::*;
    use bef::runtime::ErrorCode;

    #[test]
    fn results_print_as_the_reference_driver() {
        assert_eq!(
            format_result(&AsyncValue::available(true), "i1", false),
            "1"
        );
        assert_eq!(
            format_result(&AsyncValue::available(-3i32), "i32", false),
            "-3"
        );
        assert_eq!(
            format_result(&AsyncValue::available(1.0f32), "f32", false),
            "1.0"
        );
        assert_eq!(
            format_result(&AsyncValue::available(0.1f64), "f64", false),
            "0.1"
        );
        assert_eq!(
            format_result(&AsyncValue::available(Chain), "!tfrt.chain", false),
            "!tfrt.chain value"
        );
        let error = AsyncValue::error(Diagnostic::new("boom").with_code(ErrorCode::Cancelled));
        assert_eq!(format_result(&error, "i32", false), "<<error: boom>>");
        assert_eq!(
            format_result(&error, "i32", true),
            "<<error: boom, code: Cancelled>>"
        );
        let wrong = AsyncValue::available(1i64);
        assert!(format_result(&wrong, "i32", false).contains("type mismatch"));
    }
}
