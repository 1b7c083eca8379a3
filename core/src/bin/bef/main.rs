//! `bef`: translate, inspect and check Binary Executable Format files.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod args;
mod diagnostics;
mod dump;
mod failure;
mod global_alloc;
mod opt;
mod run;
mod translate;

use args::normalize_single_dash;
use bef::format::{BefBuffer, SectionId, verify};
use clap::{Parser, Subcommand};
use dump::{DumpOptions, listing, write_json, write_text};
use failure::Failure;
use run::RunArgs;
use translate::TranslateArgs;

/// Reading and translating build and drop millions of small IR objects in
/// bursts; glibc's malloc serves those from its slow path, mimalloc from
/// thread-local free lists (about 3x faster bytecode reads here). See
/// `bef::global_alloc` for why it is not the `mimalloc` crate's allocator.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "bef",
    version,
    about = "Tools for TFRT Binary Executable Format (BEF) files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Translate MLIR host programs (text or MLIR bytecode) to BEF, BEF or
    /// bytecode back to MLIR text, and text or bytecode to bytecode
    /// (--emit-bytecode). The direction follows the input (BEF starts with
    /// the bytes 0B EF, bytecode with ML EF 52) unless --mlir-to-bef or
    /// --bef-to-mlir says otherwise. Options of the
    /// reference `tfrt_translate` are accepted, also with a single dash.
    Translate(TranslateArgs),
    /// Run every function of a BEF file (or of an MLIR host program,
    /// translated first) and print what the reference `bef_executor` test
    /// driver prints: `--- Running 'f':`, kernel output, `'f' returned ...`.
    /// Options of the reference driver are accepted too
    /// (`--work_queue_type=mstd`, also with a single dash).
    Run(RunArgs),
    /// Parse, verify and print a host program, running passes on the way
    /// (`--inline`, `--canonicalize`, `--tfrt-print-stream`, in the order
    /// given): the reference's `tfrt_opt`, whose options are accepted too,
    /// also with a single dash.
    Opt(opt::OptArgs),
    /// List the header, sections, strings, kernels, types, functions (registers,
    /// kernels with operands, attributes, users and locations) and locations.
    /// For MLIR bytecode (starting with `ML\xefR`): version, producer,
    /// sections with offsets, strings, dialects, op names, the
    /// attribute/type table (decoded and raw), resources and properties.
    Dump {
        /// BEF or MLIR bytecode file to list; `-` reads standard input.
        file: PathBuf,
        /// Only list this section (e.g. strings, attributes, kernels, types,
        /// function-index, functions, locations, location-strings).
        #[arg(long, value_parser = parse_section)]
        section: Option<SectionId>,
        /// Show the raw bytes beside each decoded entry.
        #[arg(long)]
        hex: bool,
        /// Print the listing as JSON, for scripts.
        #[arg(long)]
        json: bool,
    },
    /// Check the file's structure: indices and offsets in range, register and
    /// kernel counts, used-by lists, pseudo kernels, locations, optional sections.
    Verify {
        /// BEF file to check; `-` reads standard input.
        file: PathBuf,
    },
}

fn parse_section(name: &str) -> Result<SectionId, String> {
    SectionId::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = SectionId::ALL.iter().map(|s| s.name()).collect();
        format!("unknown section '{name}' (known: {})", names.join(", "))
    })
}

fn load(path: &Path) -> Result<BefBuffer, Failure> {
    BefBuffer::load(path)
        .map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))
}

fn run(cli: Cli) -> Result<(), Failure> {
    // Locked only by the listing commands: `run` has kernels printing from
    // worker threads.
    let stdout = io::stdout();
    let out = || io::BufWriter::new(stdout.lock());
    match cli.command {
        Command::Translate(args) => translate::run(&args)?,
        Command::Run(args) => {
            let mut registry = bef::exec::KernelRegistry::new();
            bef::kernels::register_all(&mut registry);
            run::run(&args, &registry)?
        }
        Command::Opt(args) => opt::run(&args)?,
        Command::Dump {
            file,
            section,
            hex,
            json,
        } => {
            let buffer = load(&file)?;
            if bef::bytecode::is_bytecode(buffer.bytes()) {
                if section.is_some() || json {
                    return Err(Failure::Message(
                        "--section and --json apply to BEF files, not MLIR bytecode".into(),
                    ));
                }
                let listing = bef::bytecode::dump::dump(buffer.bytes(), hex)
                    .map_err(|e| Failure::Message(format!("{}: {e}", file.display())))?;
                let mut out = out();
                out.write_all(listing.as_bytes())?;
                out.flush()?;
                return Ok(());
            }
            let bef = buffer.open().map_err(|e| Failure::Message(e.to_string()))?;
            let listing = listing(&bef, &DumpOptions { section, hex })
                .map_err(|e| Failure::Message(e.to_string()))?;
            let mut out = out();
            if json {
                write_json(&mut out, &listing)?;
            } else {
                write_text(&mut out, &listing)?;
            }
            out.flush()?;
        }
        Command::Verify { file } => {
            let buffer = load(&file)?;
            let bef = buffer.open().map_err(|e| Failure::Message(e.to_string()))?;
            if let Err(problems) = verify(&bef) {
                for problem in &problems {
                    eprintln!("error: {problem}");
                }
                return Err(Failure::Message(format!(
                    "{} failed verification with {} problem(s)",
                    file.display(),
                    problems.len()
                )));
            }
            let mut out = out();
            writeln!(
                out,
                "{}: OK ({} functions)",
                file.display(),
                bef.functions().len()
            )?;
            out.flush()?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    global_alloc::keep_freed_memory();
    let reference_options: Vec<&str> = translate::REFERENCE_LONG_OPTIONS
        .iter()
        .chain(run::REFERENCE_LONG_OPTIONS)
        .chain(opt::REFERENCE_LONG_OPTIONS)
        .copied()
        .collect();
    let args = normalize_single_dash(std::env::args_os(), &reference_options);
    match run(Cli::parse_from(args)) {
        Ok(()) => ExitCode::SUCCESS,
        // `bef dump x.bef | head` closes the pipe early; that is not an error.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("error: cannot write output: {e}");
            ExitCode::FAILURE
        }
        Err(Failure::Message(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
        Err(Failure::Reported) => ExitCode::FAILURE,
    }
}
