//! `bef`: translate, inspect and check Binary Executable Format files.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

mod args;
mod call;
mod console;
mod diagnostics;
mod diff;
mod dump;
mod dump_btf;
mod failure;
mod global_alloc;
mod input;
mod kernels;
mod opt;
mod output;
mod run;
mod source_lines;
mod tracing;
mod translate;

use args::normalize_single_dash;
use bef::format::{BefFile, SectionId, verify};
use bef::inspect::Listing;
use bef::tool_io::escape;
use clap::{Args, Parser, Subcommand};
use dump::{DumpOptions, write_json, write_text};
use failure::Failure;
use input::{Input, Kind};
use run::RunArgs;
use translate::TranslateArgs;

/// Reading and translating build and drop millions of small IR objects in
/// bursts; glibc's malloc serves those from its slow path, mimalloc from
/// thread-local free lists (about 3x faster bytecode reads here). See
/// `bef::global_alloc` for why it is not the `mimalloc` crate's allocator.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

/// The exit-status rule, shown by `bef --help`; `failure` applies it.
const EXIT_STATUS: &str = "\
Exit status:
  0  success
  1  an error in the input or the program it holds: the input is empty, of
     the wrong kind for the command or its options (MLIR text to `bef
     verify`, BEF to --mlir-to-bef), malformed (the message gives the byte
     offset), or rejected by translation or verification; or running it
     fails (a runtime error, a load error, a leak, an unmatched
     expected-error)
  2  a usage error, whatever the input holds: an unknown or malformed
     option, options that conflict, an input or -o path that does not
     exist, is a directory or cannot be opened, binary output to a terminal
  `bef diff` follows `diff` instead: 0 equal, 1 different, 2 any error

Run `bef <COMMAND> --help` for a command's options and examples.";

#[derive(Parser)]
#[command(
    name = "bef",
    version,
    about = "Tools for TFRT Binary Executable Format (BEF) files",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Translate MLIR text or bytecode to BEF, BEF back to MLIR text
    ///
    /// Translates MLIR host programs (text or MLIR bytecode) to BEF, BEF or
    /// bytecode back to MLIR text, and text or bytecode to bytecode
    /// (--emit-bytecode). The direction follows the input (BEF starts with
    /// the bytes 0B EF, bytecode with ML EF 52) unless --mlir-to-bef or
    /// --bef-to-mlir says otherwise. Options of the reference
    /// `tfrt_translate` are accepted, also with a single dash.
    #[command(after_help = "\
Examples:
  bef translate program.mlir -o program.bef     MLIR text to BEF
  bef translate program.bef                     BEF back to MLIR text
  bef translate --emit-bytecode program.mlir -o program.mlirbc
  bef translate -mlir-to-bef -split-input-file -verify-diagnostics errors.mlir")]
    Translate(TranslateArgs),
    /// Run the functions of a BEF file or an MLIR host program
    ///
    /// Runs every function of a BEF file (or of an MLIR host program,
    /// translated first) and prints what the reference `bef_executor` test
    /// driver prints: `--- Running 'f':`, kernel output, `'f' returned ...`.
    /// Options of the reference driver are accepted too
    /// (`--work_queue_type=mstd`, also with a single dash).
    #[command(after_help = "\
Examples:
  bef run program.mlir                          translate, then run every function
  bef run --functions main,check program.bef    run only these, in this order
  bef run --work-queue mstd:4 --host-allocator leak_check_allocator program.bef
  bef translate program.mlir | bef run -")]
    Run(RunArgs),
    /// Parse, verify and print a host program, running passes on the way
    ///
    /// The passes (`--inline`, `--canonicalize`, `--tfrt-print-stream`, and
    /// `--fuse-matmul-epilogue`, which is not the reference's) run in the
    /// order given. The reference's `tfrt_opt` options are accepted too,
    /// also with a single dash.
    Opt(opt::OptArgs),
    /// List the contents of a BEF, MLIR bytecode or BTF file
    ///
    /// Lists the header, sections, strings, kernels, types, functions
    /// (registers, kernels with operands, attributes, users and locations)
    /// and locations. A damaged BEF file is listed as far as it decodes;
    /// its problems follow on standard error and the exit status is 1.
    /// For MLIR bytecode (starting with `ML\xefR`): version,
    /// producer, sections with offsets, strings, dialects, op names, the
    /// attribute/type table (decoded and raw), resources and properties.
    /// For a Binary Tensor Format file (named `.btf`, or with --btf): one
    /// line per tensor with its index, dtype, layout (dense or COO), shape,
    /// record and data offsets, the least, greatest and mean element, the
    /// NaN count and the first values; a damaged record is listed as
    /// unreadable, its error (with the offset) follows on standard error
    /// and the exit status is 1.
    #[command(after_help = "\
Examples:
  bef dump program.bef
  bef dump --section kernels program.bef        only the Kernels section
  bef dump --hex --section FunctionIndex program.bef
  bef dump --json program.bef > program.json
  bef dump program.mlirbc
  bef dump weights.btf
  bef dump --btf - < weights.data")]
    Dump(DumpArgs),
    /// Check the structure of a BEF file
    ///
    /// Checks the file's structure: indices and offsets in range, register
    /// and kernel counts, used-by lists, pseudo kernels, locations, optional
    /// sections. Prints `FILE: OK (N functions)` or each problem with its
    /// byte offset (exit status 1).
    #[command(after_help = "\
Examples:
  bef verify program.bef
  bef translate program.mlir | bef verify -")]
    Verify(VerifyArgs),
    /// List the registered kernels with their argument and result types
    ///
    /// Prints one line per kernel, sorted by name: the name, the argument
    /// types, the attribute types in braces (`@function` for a function
    /// attribute), and the result types, as MLIR spells them (`!t.tensor`,
    /// `!tfrt.chain`). `...` stands for any number of further operands,
    /// `any` for a value of any type. The types are those of the kernel's
    /// definition, so the list cannot go stale. Exit status 1 when no kernel
    /// name starts with PREFIX.
    #[command(after_help = "\
Examples:
  bef kernels                                   every kernel
  bef kernels tfrt_dht.                         the dense host tensor kernels
  bef kernels btf.read_dense_tensor.f32")]
    Kernels(kernels::KernelsArgs),
    /// Compare two programs by structure: tables, functions, kernels
    ///
    /// Compares two BEF files (MLIR text or bytecode is translated first) by
    /// what they hold, not their bytes: sections present in one only,
    /// strings, kernel names, types and attributes in one only, and
    /// functions (paired by name) added, removed or changed in kind,
    /// signature or kernels. Kernels are aligned so that an inserted kernel
    /// shows as one insertion; their operands are compared through the
    /// alignment. Exit status, as `diff`'s: 0 equal, 1 different, 2 a usage
    /// error or an input that is unreadable, damaged (the message gives the
    /// byte offset) or not a program.
    #[command(after_help = "\
Examples:
  bef diff old.bef new.bef
  bef diff --json old.bef new.mlir > changes.json
  bef diff --locations --color=never a.mlir b.mlir")]
    Diff(diff::DiffArgs),
}

#[derive(Args)]
struct DumpArgs {
    /// BEF or MLIR bytecode file to list; `-` reads standard input.
    file: PathBuf,
    /// Only list this section of a BEF file: Strings, Attributes, Kernels,
    /// Types, FunctionIndex, Functions, LocationStrings, Locations,
    /// AttributeTypes, AttributeNames or RegisterTypes (case, `-` and `_`
    /// do not matter: `function-index` works too).
    #[arg(long, value_parser = parse_section)]
    section: Option<SectionId>,
    /// Show the raw bytes beside each decoded entry.
    #[arg(long)]
    hex: bool,
    /// Print the listing as JSON, for scripts (BEF files only).
    #[arg(long)]
    json: bool,
    /// Read the file as Binary Tensor Format (implied by a `.btf` name).
    #[arg(long)]
    btf: bool,
}

#[derive(Args)]
struct VerifyArgs {
    /// BEF file to check; `-` reads standard input.
    file: PathBuf,
}

/// The names `--section` accepts, as the reference spells them.
fn section_names() -> String {
    let names: Vec<&str> = SectionId::ALL.iter().map(|s| s.name()).collect();
    names.join(", ")
}

fn parse_section(name: &str) -> Result<SectionId, String> {
    SectionId::from_name(name)
        .ok_or_else(|| format!("unknown section '{name}' (known: {})", section_names()))
}

/// Opens a BEF input, or says what it is instead.
fn open_bef<'a>(input: &'a Input, command: &str) -> Result<BefFile<'a>, Failure> {
    if input.kind() != Kind::Bef {
        return Err(input.wrong_kind(command, "BEF"));
    }
    input
        .buffer
        .open()
        .map_err(|e| input::invalid_bef(&input.name, &e))
}

fn dump_command(args: DumpArgs, out: impl Write) -> Result<(), Failure> {
    let DumpArgs {
        file,
        section,
        hex,
        json,
        btf,
    } = args;
    let input = input::load(&file, "dump", "a BEF, MLIR bytecode or BTF file")?;
    if btf || input.kind() == Kind::Btf {
        if section.is_some() || hex || json {
            return Err(Failure::Message(format!(
                "{} is read as BTF; --section, --hex and --json apply to BEF files only",
                input.name
            )));
        }
        return dump_btf::write(&input, &mut escape::Writer::new(out));
    }
    if input.kind() == Kind::Bytecode {
        if section.is_some() || json {
            return Err(Failure::Message(format!(
                "{} is MLIR bytecode; --section and --json apply to BEF files only",
                input.name
            )));
        }
        let listing = bef::bytecode::dump::dump(input.bytes(), hex)
            .map_err(|e| Failure::Message(format!("{}: {e}", input.name)))?;
        let mut out = escape::Writer::new(out);
        out.write_all(listing.text.as_bytes())?;
        out.flush()?;
        // As for BEF: the listing shows what decodes, the problems make the
        // command fail.
        if listing.problems.is_empty() {
            return Ok(());
        }
        for problem in &listing.problems {
            console::err_line(&format!("error: {}: {problem}", input.name));
        }
        return Err(Failure::Reported);
    }
    if input.kind() != Kind::Bef {
        return Err(input.wrong_kind("dump", "BEF or MLIR bytecode"));
    }
    // The listing takes damaged files: it shows what decodes, and the
    // problems make the command fail.
    let listing = Listing::new(input.bytes()).map_err(|e| input::invalid_bef(&input.name, &e))?;
    if let Some(id) = section
        && listing.section(id).is_none()
    {
        let present: Vec<&str> = listing
            .sections()
            .iter()
            .filter_map(|s| s.kind.map(SectionId::name))
            .collect();
        return Err(Failure::Message(format!(
            "{} has no {} section (it has {})",
            input.name,
            id.name(),
            present.join(", ")
        )));
    }
    let options = DumpOptions { section, hex };
    let mut out = out;
    if json {
        // JSON escapes what it must itself.
        write_json(&mut out, &listing, &options)?;
    } else {
        write_text(&mut escape::Writer::new(&mut out), &listing, &options)?;
    }
    out.flush()?;
    let problems = dump::problems(&listing, &options);
    if problems.is_empty() {
        return Ok(());
    }
    for problem in &problems {
        console::err_line(&format!(
            "error: {} is not valid BEF: {problem}",
            input.name
        ));
    }
    Err(Failure::Reported)
}

fn verify_command(args: VerifyArgs, out: impl Write) -> Result<(), Failure> {
    let input = input::load(&args.file, "verify", "a BEF file")?;
    let bef = open_bef(&input, "verify")?;
    // The structure, then the signature metadata against the functions.
    let mut problems = verify(&bef).err().unwrap_or_default();
    if problems.is_empty() {
        problems = bef::abi::function::check_file(&bef);
    }
    if !problems.is_empty() {
        for problem in &problems {
            console::err_line(&format!("error: {problem}"));
        }
        return Err(Failure::Message(format!(
            "{} failed verification with {} problem(s)",
            input.name,
            problems.len()
        )));
    }
    let mut out = escape::Writer::new(out);
    writeln!(
        out,
        "{}: OK ({} functions)",
        input.name,
        bef.functions().len()
    )?;
    out.flush()?;
    Ok(())
}

/// The kernels `bef run` resolves programs against.
fn standard_kernels() -> bef::exec::KernelRegistry {
    let mut registry = bef::exec::KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    registry
}

/// Runs the command; `Some` exit status for a command that sets its own.
fn run(cli: Cli) -> Result<Option<ExitCode>, Failure> {
    // Locked only by the listing commands: `run` has kernels printing from
    // worker threads.
    let stdout = io::stdout();
    let out = || io::BufWriter::new(stdout.lock());
    match cli.command {
        Command::Translate(args) => translate::run(&args),
        Command::Run(args) => run::run(&args, standard_kernels()),
        Command::Kernels(args) => kernels::run(&args, &standard_kernels(), out()),
        Command::Opt(args) => opt::run(&args),
        Command::Dump(args) => dump_command(args, out()),
        Command::Verify(args) => verify_command(args, out()),
        // Its exit status is its own (see `diff`).
        Command::Diff(args) => return Ok(Some(diff::run(&args))),
    }?;
    // Output lost to a failed write is a failure, not a success.
    match console::take_stdout_error() {
        Some(e) => Err(Failure::Output(e)),
        None => Ok(None),
    }
}

fn main() -> ExitCode {
    global_alloc::keep_freed_memory();
    global_alloc::avoid_transparent_huge_pages();
    let reference_options: Vec<&str> = translate::REFERENCE_LONG_OPTIONS
        .iter()
        .chain(run::REFERENCE_LONG_OPTIONS)
        .chain(opt::REFERENCE_LONG_OPTIONS)
        .copied()
        .collect();
    let args = normalize_single_dash(std::env::args_os(), &reference_options);
    match run(Cli::parse_from(args)) {
        Ok(Some(status)) => status,
        Ok(None) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
