//! `bef opt`: the reference's `tfrt_opt`. Parses a host program (MLIR text
//! or bytecode), verifies it, runs the passes named on the command line in
//! their order, verifying after each, and prints the result.

use crate::console;
use std::path::{Path, PathBuf};

use clap::{ArgMatches, Args, FromArgMatches};

use crate::diagnostics;
use crate::failure::Failure;
use bef::bytecode;
use bef::format::BefBuffer;
use bef::ir::{Diagnostic, Module};
use bef::passes::{Pass, verify};
use bef::text::{self, PrintOptions};

/// Long options of `tfrt_opt` that scripts spell with one dash.
pub const REFERENCE_LONG_OPTIONS: &[&str] = &[
    "allow-unregistered-dialect",
    "split-input-file",
    "verify-diagnostics",
    "mlir-print-op-generic",
    "mlir-print-debuginfo",
    "print-generic",
    "print-debuginfo",
    "inline",
    "canonicalize",
    "tfrt-print-stream",
];

/// The options of `bef opt` as clap sees them; [`OptArgs`] adds the order
/// of the passes.
#[derive(Args, Debug)]
pub struct OptOptions {
    /// Input: MLIR text (`.mlir`) or MLIR bytecode; `-` reads standard input.
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Output file; `-` writes standard output.
    #[arg(short = 'o', default_value = "-")]
    pub output: PathBuf,
    /// Print ops in MLIR's generic form (`"tfrt.add.i32"(%0, %1) : ...`).
    #[arg(long, visible_alias = "mlir-print-op-generic")]
    pub print_generic: bool,
    /// Print every op's location (`loc(...)`).
    #[arg(long, visible_alias = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// Accept ops and types of dialects the reference tool does not
    /// register (such as `"use"(%x) : (i32) -> ()`).
    #[arg(long)]
    pub allow_unregistered_dialect: bool,
    /// Treat `// -----` lines as separators of independent inputs; the
    /// outputs are separated the same way.
    #[arg(long)]
    pub split_input_file: bool,
    /// Check errors and remarks against `// expected-error {{...}}` and
    /// `// expected-remark {{...}}` annotations instead of printing them;
    /// exit 1 on any mismatch.
    #[arg(long)]
    pub verify_diagnostics: bool,
    /// Pass: inline `tfrt.call`s (MLIR's inliner; canonicalizes every
    /// function on the way) and erase private functions left unused.
    #[arg(long = "inline", action = clap::ArgAction::Count)]
    inline: u8,
    /// Pass: erase unused side-effect-free ops and fold
    /// `tfrt.merge.chains` of chains used elsewhere.
    #[arg(long, action = clap::ArgAction::Count)]
    canonicalize: u8,
    /// Pass: report the stream analysis of every function as remarks
    /// (`stream id: 0, stream cost: 22, parent stream: -1, ...`).
    #[arg(long = "tfrt-print-stream", action = clap::ArgAction::Count)]
    tfrt_print_stream: u8,
    /// Pass (not the reference's): fuse each `tfrt_test.broadcast.T.2`
    /// (bias), `matmul` into it and `relu_inplace` of it into one
    /// `tfrt_test.matmul_bias_relu.T` (`matmul_bias.T` without the ReLU)
    /// that does all three per block of the product while it is in cache,
    /// with the same results; only where nothing else reads the tensor
    /// before the last chain. Other ops are left as they are.
    #[arg(long = "fuse-matmul-epilogue", action = clap::ArgAction::Count)]
    fuse_matmul_epilogue: u8,
}

/// `bef opt`'s arguments: the options and the passes, in command-line
/// order (a pass named twice runs twice).
#[derive(Debug)]
pub struct OptArgs {
    /// Everything but the pipeline.
    pub options: OptOptions,
    /// The passes to run, in order.
    pub pipeline: Vec<Pass>,
}

/// The clap argument id of each pass flag.
fn pass_id(pass: Pass) -> &'static str {
    match pass {
        Pass::Inline => "inline",
        Pass::Canonicalize => "canonicalize",
        Pass::PrintStream => "tfrt_print_stream",
        Pass::FuseMatmulEpilogue => "fuse_matmul_epilogue",
    }
}

impl FromArgMatches for OptArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let options = OptOptions::from_arg_matches(matches)?;
        let mut positioned: Vec<(usize, Pass)> = Vec::new();
        for pass in Pass::ALL {
            let id = pass_id(pass);
            if matches.value_source(id) != Some(clap::parser::ValueSource::CommandLine) {
                continue;
            }
            if let Some(indices) = matches.indices_of(id) {
                positioned.extend(indices.map(|i| (i, pass)));
            }
        }
        positioned.sort_by_key(|(i, _)| *i);
        Ok(OptArgs {
            options,
            pipeline: positioned.into_iter().map(|(_, p)| p).collect(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = OptArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for OptArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        OptOptions::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        OptOptions::augment_args_for_update(cmd)
    }
}

/// What processing one chunk gave: its diagnostics, and the module to
/// print unless an error stopped it.
struct Processed {
    diagnostics: Vec<Diagnostic>,
    module: Option<Module>,
}

/// Runs the command; `Ok` means exit status 0.
pub fn run(args: &OptArgs) -> Result<(), Failure> {
    let options = &args.options;
    crate::output::check(&options.output, &options.input)?;
    let name = display_name(&options.input);
    let buffer = BefBuffer::load(&options.input)
        .map(|buffer| buffer.watched(&options.input))
        .map_err(|e| Failure::Message(format!("cannot read {name}: {e}")))?;
    let input = buffer.bytes();
    let print_options = PrintOptions {
        generic: options.print_generic,
        debug_info: options.print_debuginfo,
    };
    let mut outputs: Vec<String> = Vec::new();
    let mut failed = false;
    if bytecode::is_bytecode(input) {
        let mut module =
            bytecode::read_aligned(input).map_err(|e| Failure::Message(format!("{name}: {e}")))?;
        if !options.print_generic {
            bytecode::ops::join_all_inherent_attributes(&mut module);
        }
        let processed = process(Ok(module), args);
        let lines = text::SourceLines::new("");
        failed |= report(&processed.diagnostics, &lines, &name, None, options);
        if let Some(module) = processed.module {
            outputs.push(text::print_module(&module, print_options));
        }
    } else {
        let source = std::str::from_utf8(input).map_err(|e| {
            Failure::Message(format!(
                "{name} is neither MLIR bytecode nor UTF-8 text (invalid UTF-8 at byte {})",
                e.valid_up_to()
            ))
        })?;
        let chunks = if options.split_input_file {
            text::split_input(source)
        } else {
            vec![text::Chunk {
                text: source,
                first_line: 1,
            }]
        };
        let lines = text::SourceLines::new(source);
        for chunk in &chunks {
            let parsed = text::parse_module_at(chunk.text, &name, chunk.first_line);
            let processed = process(parsed, args);
            failed |= report(&processed.diagnostics, &lines, &name, Some(chunk), options);
            if let Some(module) = processed.module {
                outputs.push(text::print_module(&module, print_options));
            }
        }
    }
    let joined = outputs.join("// -----\n");
    if !(failed && options.output.as_os_str() != "-") {
        crate::output::write(&options.output, joined.as_bytes(), false)?;
    }
    if failed {
        return Err(Failure::Reported);
    }
    Ok(())
}

/// Verifies, runs the pipeline (verifying after each pass) and collects
/// the diagnostics; stops at the first error.
fn process(parsed: Result<Module, Diagnostic>, args: &OptArgs) -> Processed {
    let mut diagnostics = Vec::new();
    let mut module = match parsed {
        Ok(module) => module,
        Err(d) => {
            diagnostics.push(d);
            return Processed {
                diagnostics,
                module: None,
            };
        }
    };
    let checked = if args.options.allow_unregistered_dialect {
        Ok(())
    } else {
        verify::check_registered_dialects(&module)
    };
    let mut result = checked.and_then(|()| verify::verify(&module));
    for pass in &args.pipeline {
        if result.is_err() {
            break;
        }
        diagnostics.extend(pass.run(&mut module));
        result = verify::verify(&module).map_err(|d| {
            Diagnostic::new(
                d.location,
                format!("{} (after pass '{}')", d.message, pass.name()),
            )
        });
    }
    match result {
        Ok(()) => Processed {
            diagnostics,
            module: Some(module),
        },
        Err(d) => {
            diagnostics.push(d);
            Processed {
                diagnostics,
                module: None,
            }
        }
    }
}

/// Prints the diagnostics of one chunk, or checks them against its
/// annotations with `--verify-diagnostics`. Returns whether the chunk
/// failed.
fn report(
    produced: &[Diagnostic],
    lines: &text::SourceLines<'_>,
    name: &str,
    chunk: Option<&text::Chunk<'_>>,
    options: &OptOptions,
) -> bool {
    let render = |d: &Diagnostic| lines.render(d);
    if options.verify_diagnostics {
        let expected = chunk
            .map(|c| text::expected_diagnostics(c.text, c.first_line))
            .unwrap_or_default();
        let check = diagnostics::check(name, produced, &expected, render);
        for problem in &check.problems {
            console::err_line(problem.trim_end());
        }
        return !check.passed();
    }
    for d in produced {
        console::err(&render(d));
    }
    produced.iter().any(Diagnostic::is_error)
}

fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}
