//! `bef diff OLD NEW`: the structural difference of two programs
//! (`bef::inspect::diff`), printed like `diff` (coloured on a terminal) or
//! as JSON. As `diff` and `cmp` do, the exit status says whether the files
//! differ (0 equal, 1 different) and 2 means trouble: a usage error or an
//! input that is not a readable program, damaged BEF included.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use bef::format::BefBuffer;
use bef::inspect::Listing;
use bef::inspect::diff::{DiffLine, DiffOptions, LineKind, diff};
use bef::tool_io::{escape, json};
use clap::{Args, ValueEnum};

use crate::console;
use crate::failure::Failure;
use crate::input::{self, Input, Kind};

/// Exit status when the files differ.
const DIFFERENT: u8 = 1;
/// Exit status of every failure: usage, unreadable or damaged input.
const TROUBLE: u8 = 2;

#[derive(Args)]
pub struct DiffArgs {
    /// The old program: a BEF file, or MLIR text or bytecode (translated
    /// first); `-` reads standard input.
    old: PathBuf,
    /// The new program, of any of the same kinds.
    new: PathBuf,
    /// Print the difference as JSON.
    #[arg(long)]
    json: bool,
    /// Also compare the source locations of functions and kernels (off by
    /// default: editing a source file moves every later line).
    #[arg(long)]
    locations: bool,
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColourChoice::Auto)]
    color: ColourChoice,
}

/// When to colour the output.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColourChoice {
    /// When standard output is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Runs `bef diff` and gives its exit status.
pub fn run(args: &DiffArgs) -> ExitCode {
    match compare(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(DIFFERENT),
        Err(Failure::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::from(DIFFERENT)
        }
        Err(failure) => {
            // Every failure of a comparison is trouble, whatever `bef`'s
            // other commands call it.
            let _ = failure.report();
            ExitCode::from(TROUBLE)
        }
    }
}

/// Whether the files are equal, once the difference is printed.
fn compare(args: &DiffArgs) -> Result<bool, Failure> {
    if args.old.as_os_str() == "-" && args.new.as_os_str() == "-" {
        return Err(Failure::Usage(
            "only one of the two files can be standard input (`-`)".to_owned(),
        ));
    }
    let old = program(&args.old)?;
    let new = program(&args.new)?;
    let old_listing = listing(&old)?;
    let new_listing = listing(&new)?;
    let options = DiffOptions {
        locations: args.locations,
        ..DiffOptions::default()
    };
    let difference = diff(&old_listing, &new_listing, &options);
    if args.json {
        let report = JsonReport {
            old: &old.name,
            new: &new.name,
            equal: difference.is_empty(),
            diff: &difference,
        };
        console::out_with(|out| {
            json::write(&mut *out, json::TerminalSafe::pretty(), &report)
                .map_err(std::io::Error::from)?;
            out.write_all(b"\n")
        });
    } else {
        let colour = match args.color {
            ColourChoice::Always => true,
            ColourChoice::Never => false,
            ColourChoice::Auto => console::stdout_wants_colour(),
        };
        let lines = difference.lines(&old.name, &new.name);
        console::out_with(|out| {
            for line in &lines {
                write_line(out, line, colour)?;
            }
            Ok(())
        });
    }
    if let Some(e) = console::take_stdout_error() {
        return Err(Failure::Output(e));
    }
    Ok(difference.is_empty())
}

#[derive(serde::Serialize)]
struct JsonReport<'a> {
    old: &'a str,
    new: &'a str,
    equal: bool,
    diff: &'a bef::inspect::diff::Diff,
}

/// One line, indented, escaped, and coloured by what it says.
fn write_line(out: &mut dyn Write, line: &DiffLine, colour: bool) -> std::io::Result<()> {
    let indent = "  ".repeat(usize::from(line.depth));
    let text = escape::terminal(&line.text);
    let style = match line.kind {
        LineKind::Heading => "1",
        LineKind::Removed => "31",
        LineKind::Added => "32",
        LineKind::Changed => "33",
        LineKind::Note => "2",
    };
    if colour {
        writeln!(out, "{indent}\x1b[{style}m{text}\x1b[0m")
    } else {
        writeln!(out, "{indent}{text}")
    }
}

/// A program as BEF: the file itself, or MLIR text or bytecode translated
/// with the optional sections (so attribute names and types are compared).
fn program(path: &std::path::Path) -> Result<Input, Failure> {
    let input = input::load(path, "diff", "a BEF file or an MLIR program")?;
    let options = bef::translate::TranslateOptions {
        optional_sections: true,
    };
    let translated = match input.kind() {
        Kind::Bef => return Ok(input),
        Kind::Text { mlir: true } => {
            let source = std::str::from_utf8(input.bytes())
                .map_err(|_| input.wrong_kind("diff", "BEF or MLIR"))?;
            let render = |d: &bef::ir::Diagnostic| bef::text::render_diagnostic(d, source);
            bef::text::parse_module(source, &input.name)
                .map_err(|d| vec![d])
                .and_then(|module| bef::translate::mlir_to_bef(&module, options))
                .map_err(|diagnostics| {
                    for d in &diagnostics {
                        console::err_line(&render(d));
                    }
                    Failure::Message(format!("{} does not translate to BEF", input.name))
                })?
        }
        Kind::Bytecode => {
            let module = bef::bytecode::read_aligned(input.bytes())
                .map_err(|e| Failure::Message(format!("{}: {e}", input.name)))?;
            bef::translate::mlir_to_bef(&module, options).map_err(|diagnostics| {
                for d in &diagnostics {
                    console::err_line(&format!("{}: {}", input.name, d.message));
                }
                Failure::Message(format!("{} does not translate to BEF", input.name))
            })?
        }
        _ => return Err(input.wrong_kind("diff", "BEF or MLIR")),
    };
    Ok(Input {
        buffer: BefBuffer::copy_from(&translated),
        ..input
    })
}

/// The listing of a BEF input; a damaged file is refused with its first
/// problem's offset.
fn listing(input: &Input) -> Result<Listing<'_>, Failure> {
    let listing = Listing::new(input.bytes()).map_err(|e| input::invalid_bef(&input.name, &e))?;
    if let Some(problem) = listing.errors().first() {
        return Err(input::invalid_bef(&input.name, problem));
    }
    Ok(listing)
}
