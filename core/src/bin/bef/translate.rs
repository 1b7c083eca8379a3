//! `bef translate`: MLIR text or MLIR bytecode ↔ BEF, and MLIR text ↔
//! MLIR bytecode.

use crate::console;
use std::path::PathBuf;

use clap::Args;

use crate::diagnostics;
use crate::failure::Failure;
use crate::input::{self, Kind};
use crate::output;
use bef::bytecode::{self, WriteOptions};
use bef::format::BefBuffer;
use bef::ir::{Diagnostic, Module};
use bef::text::{self, PrintOptions};
use bef::translate::{self as tr, TranslateOptions};

/// Long options of `tfrt_translate` that scripts spell with one dash.
pub const REFERENCE_LONG_OPTIONS: &[&str] = &[
    "mlir-to-bef",
    "bef-to-mlir",
    "disable-optional-sections",
    "split-input-file",
    "verify-diagnostics",
    "mlir-print-op-generic",
    "mlir-print-debuginfo",
    "print-generic",
    "print-debuginfo",
    "emit-bytecode",
    "bytecode-version",
    "bytecode-producer",
];

#[derive(Args, Debug)]
pub struct TranslateArgs {
    /// Input: MLIR text (`.mlir`), MLIR bytecode (`.mlirbc`, starting with
    /// `ML\xefR`) or a BEF file; `-` reads standard input.
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Output file; `-` writes standard output (binary BEF and MLIR
    /// bytecode are not written to a terminal).
    #[arg(short = 'o', default_value = "-")]
    pub output: PathBuf,
    /// Translate MLIR text or bytecode to BEF (the default for MLIR text).
    #[arg(long, conflicts_with = "bef_to_mlir")]
    pub mlir_to_bef: bool,
    /// Translate BEF (or MLIR bytecode) to MLIR text (the default for input
    /// starting with the BEF magic bytes 0B EF).
    #[arg(long)]
    pub bef_to_mlir: bool,
    /// Leave out the AttributeTypes, AttributeNames and RegisterTypes
    /// sections: smaller files whose text has placeholders for attributes
    /// and types (BEF output only). `=true` or `=false` may follow, as in
    /// the reference.
    #[arg(long, conflicts_with_all = ["bef_to_mlir", "emit_bytecode"],
          num_args = 0..=1, require_equals = true, default_missing_value = "true",
          default_value = "false", action = clap::ArgAction::Set)]
    pub disable_optional_sections: bool,
    /// Treat `// -----` lines as separators of independent inputs (MLIR
    /// text input only).
    #[arg(long, conflicts_with = "bef_to_mlir")]
    pub split_input_file: bool,
    /// Check errors against `// expected-error {{...}}` annotations instead
    /// of printing them; exit 1 on any mismatch (MLIR text input only).
    #[arg(long, conflicts_with = "bef_to_mlir")]
    pub verify_diagnostics: bool,
    /// Print ops in MLIR's generic form (`"tfrt.add.i32"(%0, %1) : ...`)
    /// (MLIR text output only).
    #[arg(long, visible_alias = "mlir-print-op-generic",
          conflicts_with_all = ["mlir_to_bef", "emit_bytecode"])]
    pub print_generic: bool,
    /// Print every op's location (`loc(...)`) (MLIR text output only).
    #[arg(long, visible_alias = "mlir-print-debuginfo",
          conflicts_with_all = ["mlir_to_bef", "emit_bytecode"])]
    pub print_debuginfo: bool,
    /// Write MLIR bytecode (`.mlirbc`) instead of text or BEF.
    #[arg(long, conflicts_with_all = ["mlir_to_bef", "bef_to_mlir", "verify_diagnostics"])]
    pub emit_bytecode: bool,
    /// Bytecode version to write (0-6); older versions drop what they
    /// cannot express, with a warning.
    #[arg(long, default_value_t = bef::bytecode::MAX_VERSION,
          value_parser = clap::value_parser!(u64).range(0..=bef::bytecode::MAX_VERSION),
          requires = "emit_bytecode")]
    pub bytecode_version: u64,
    /// Producer string recorded in the bytecode header.
    #[arg(long, default_value = bef::bytecode::DEFAULT_PRODUCER, requires = "emit_bytecode")]
    pub bytecode_producer: String,
}

/// What the input takes: for messages.
const WANTED: &str = "MLIR text, MLIR bytecode or a BEF file";

/// Runs the command; `Ok` means exit status 0.
pub fn run(args: &TranslateArgs) -> Result<(), Failure> {
    output::check(&args.output, &args.input)?;
    // Loaded the way BEF wants it (mmap or an 8-aligned copy), which text
    // does not mind; bytecode is re-aligned by `read_aligned` as needed.
    let loaded = input::load(&args.input, "translate", WANTED)?;
    let name = loaded.name.clone();
    let buffer = &loaded.buffer;
    let input = buffer.bytes();
    let kind = loaded.kind();
    let is_bef = kind == Kind::Bef;
    let is_mlirbc = kind == Kind::Bytecode;
    if matches!(kind, Kind::Binary | Kind::Btf | Kind::Recording) {
        return Err(loaded.wrong_kind("translate", WANTED));
    }
    let is_text = matches!(kind, Kind::Text { .. });
    if (args.verify_diagnostics || args.split_input_file) && !is_text {
        let flag = if args.verify_diagnostics {
            "--verify-diagnostics"
        } else {
            "--split-input-file"
        };
        return Err(Failure::Message(format!(
            "{name} is {}; {flag} reads MLIR text",
            if is_bef { "BEF" } else { "MLIR bytecode" }
        )));
    }
    if args.emit_bytecode {
        if is_bef {
            return Err(Failure::Message(format!(
                "{name} is BEF; --emit-bytecode takes MLIR text or bytecode (BEF goes to bytecode through text: `bef translate {name} | bef translate --emit-bytecode - -o out.mlirbc`)"
            )));
        }
        let mut module = if is_mlirbc {
            read_bytecode(input, &name)?
        } else {
            parse_text(utf8(input, &name)?, &name, args)?
        };
        // The module owns all it holds and writing quotes no source: the
        // input's pages need not stay resident while the output is built.
        drop(loaded);
        // Split in place: a copy of the module would be the largest thing
        // alive while writing.
        let written = bytecode::write_splitting(
            &mut module,
            &WriteOptions {
                version: args.bytecode_version,
                producer: args.bytecode_producer.clone(),
            },
        )
        .map_err(|e| Failure::Message(format!("cannot write bytecode: {e}")))?;
        // Freeing the module's millions of small allocations takes longer
        // than the exit reclaiming them at once (as in `translate_and_leak`).
        std::mem::forget(module);
        for warning in &written.warnings {
            console::err_line(&format!("warning: {warning}"));
        }
        return output::write(&args.output, &written.bytes, true);
    }
    if args.mlir_to_bef && is_bef {
        return Err(Failure::Message(format!(
            "{name} is already BEF; --mlir-to-bef takes MLIR text or bytecode (without --mlir-to-bef, BEF is printed as MLIR text)"
        )));
    }
    if args.bef_to_mlir && is_text {
        return Err(Failure::Message(format!(
            "{name} is MLIR text, not BEF; --bef-to-mlir takes BEF or MLIR bytecode (without --bef-to-mlir, text is translated to BEF)"
        )));
    }
    let to_mlir = if args.bef_to_mlir {
        true
    } else if args.mlir_to_bef {
        false
    } else {
        // Bytecode with no direction given prints as text, like BEF does.
        is_bef || is_mlirbc
    };
    check_output_options(args, to_mlir, &name, kind)?;
    let output = if to_mlir && is_mlirbc {
        let mut module = read_bytecode(input, &name)?;
        if !args.print_generic {
            // The custom forms (`func.func @f(...)`) read inherent
            // attributes from the dictionary, as TFRT's MLIR kept them.
            bytecode::ops::join_all_inherent_attributes(&mut module);
        }
        print(&module, args).into_bytes()
    } else if to_mlir {
        bef_to_text(buffer, &name, args)?.into_bytes()
    } else if is_mlirbc {
        let module = read_bytecode(input, &name)?;
        translate_and_leak(module, translate_options(args)).map_err(|diagnostics| {
            // No source text to quote: locations come from the bytecode.
            for d in &diagnostics {
                console::err_line(&text::render_diagnostic(d, ""));
            }
            Failure::Reported
        })?
    } else {
        match text_to_bef(utf8(input, &name)?, &name, args)? {
            Some(bytes) => bytes,
            None => return Ok(()),
        }
    };
    output::write(&args.output, &output, !to_mlir)
}

fn translate_options(args: &TranslateArgs) -> TranslateOptions {
    TranslateOptions {
        optional_sections: !args.disable_optional_sections,
    }
}

fn utf8<'a>(input: &'a [u8], name: &str) -> Result<&'a str, Failure> {
    std::str::from_utf8(input).map_err(|e| {
        Failure::Message(format!(
            "{name} is neither BEF, MLIR bytecode nor UTF-8 text (invalid UTF-8 at byte {})",
            e.valid_up_to()
        ))
    })
}

fn read_bytecode(input: &[u8], name: &str) -> Result<Module, Failure> {
    bytecode::read_aligned(input).map_err(|e| Failure::Message(format!("{name}: {e}")))
}

/// One module of MLIR text, for bytecode output (which, like BEF, holds
/// one module).
fn parse_text(source: &str, name: &str, args: &TranslateArgs) -> Result<Module, Failure> {
    if args.split_input_file && text::split_input(source).len() > 1 {
        return Err(Failure::Message(
            "--split-input-file found several chunks; bytecode output holds one module".into(),
        ));
    }
    text::parse_module(source, name).map_err(|d| {
        console::err_line(&text::render_diagnostic(&d, source));
        Failure::Reported
    })
}

fn print(module: &Module, args: &TranslateArgs) -> String {
    text::print_module(
        module,
        PrintOptions {
            generic: args.print_generic,
            debug_info: args.print_debuginfo,
        },
    )
}

/// Options that shape one kind of output given when the input makes the
/// other kind (the flags themselves exclude each other in clap).
fn check_output_options(
    args: &TranslateArgs,
    to_mlir: bool,
    name: &str,
    kind: Kind,
) -> Result<(), Failure> {
    let input_kind = match kind {
        Kind::Bef => "BEF",
        Kind::Bytecode => "MLIR bytecode",
        _ => "MLIR text",
    };
    if !to_mlir && (args.print_generic || args.print_debuginfo) {
        let flag = if args.print_generic {
            "--print-generic"
        } else {
            "--print-debuginfo"
        };
        return Err(Failure::Message(format!(
            "{flag} shapes MLIR text output, but {name} is {input_kind}, so the output is BEF; give it a BEF or MLIR bytecode file to print as text, or drop {flag}"
        )));
    }
    if to_mlir && args.disable_optional_sections {
        return Err(Failure::Message(format!(
            "--disable-optional-sections shapes BEF output, but {name} is {input_kind}, so the output is MLIR text; drop --disable-optional-sections"
        )));
    }
    Ok(())
}

fn bef_to_text(buffer: &BefBuffer, name: &str, args: &TranslateArgs) -> Result<String, Failure> {
    let file = buffer.open().map_err(|e| input::invalid_bef(name, &e))?;
    if tr::missing_optional_sections(&file) {
        console::err_line(&format!(
            "{name}: warning: Missing AttributeTypes, AttributeNames or RegisterTypes sections."
        ));
    }
    let module = tr::bef_to_mlir(&file).map_err(|e| {
        if e.offset == 0 {
            // Not a format error (missing optional sections, a type that
            // is not MLIR): no offset to give.
            Failure::Message(format!("{name}: {}", e.message))
        } else {
            input::invalid_bef(name, &e)
        }
    })?;
    Ok(print(&module, args))
}

/// `tr::mlir_to_bef`, without freeing the module: this process ends soon,
/// and freeing the millions of small allocations of a large program takes
/// longer than the exit reclaiming them at once.
fn translate_and_leak(
    module: bef::ir::Module,
    options: TranslateOptions,
) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let result = tr::mlir_to_bef(&module, options);
    std::mem::forget(module);
    result
}

/// Parses and translates every chunk. Returns the BEF bytes to write, or
/// `None` when verifying diagnostics (nothing is written then).
fn text_to_bef(source: &str, name: &str, args: &TranslateArgs) -> Result<Option<Vec<u8>>, Failure> {
    let chunks = if args.split_input_file {
        text::split_input(source)
    } else {
        vec![text::Chunk {
            text: source,
            first_line: 1,
        }]
    };
    if chunks.len() > 1 && !args.verify_diagnostics {
        return Err(Failure::Message(format!(
            "--split-input-file found {} chunks; BEF output holds one module (use --verify-diagnostics to check them all)",
            chunks.len()
        )));
    }
    let options = translate_options(args);
    let render = |d: &Diagnostic| text::render_diagnostic(d, source);
    let mut all_passed = true;
    let mut output = None;
    for chunk in &chunks {
        let result = text::parse_module_at(chunk.text, name, chunk.first_line)
            .map_err(|d| vec![d])
            .and_then(|module| translate_and_leak(module, options));
        if args.verify_diagnostics {
            let produced = result.err().unwrap_or_default();
            let expected = text::expected_diagnostics(chunk.text, chunk.first_line);
            let check = diagnostics::check(name, &produced, &expected, render);
            for problem in &check.problems {
                console::err_line(problem);
            }
            all_passed &= check.passed();
            continue;
        }
        match result {
            Ok(bytes) => output = Some(bytes),
            Err(diagnostics) => {
                for d in &diagnostics {
                    console::err_line(&render(d));
                }
                return Err(Failure::Reported);
            }
        }
    }
    if !all_passed {
        return Err(Failure::Reported);
    }
    Ok(output)
}
