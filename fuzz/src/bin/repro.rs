//! `repro TARGET ARTIFACT [-o FILE]`: decodes a fuzz input the way
//! target TARGET does, writes what it exercises to FILE in a form the
//! tools open (the generated program as MLIR text, or the BEF, MLIR,
//! bytecode, BTF or recording bytes), and prints the target's verdict.
//! Exit status 0 for ok or a handled error, 1 for a panic.

use std::path::PathBuf;
use std::process::ExitCode;

use bef::tool_io::escape;
use bef_fuzz::repro::{REPRO_TARGETS, Verdict, repro};

/// libFuzzer's inputs are far smaller; this bounds what a stray path
/// can make the tool read.
const MAX_INPUT_BYTES: u64 = 64 << 20;

const USAGE: &str = "usage: repro TARGET ARTIFACT [-o FILE]";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("repro: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut output: Option<PathBuf> = None;
    let mut positional = Vec::new();
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-o" | "--output") => {
                let path = args
                    .next()
                    .ok_or_else(|| format!("-o needs a file\n{USAGE}"))?;
                output = Some(path.into());
            }
            Some("-h" | "--help") => {
                println!("{USAGE}\ntargets and what FILE holds:");
                for (name, form) in REPRO_TARGETS {
                    println!("  {name:<20} {form}");
                }
                return Ok(ExitCode::SUCCESS);
            }
            Some(flag) if flag.starts_with('-') && flag.len() > 1 => {
                return Err(format!("unknown option '{flag}'\n{USAGE}"));
            }
            _ => positional.push(arg),
        }
    }
    let [target, artifact] = positional.as_slice() else {
        return Err(USAGE.to_string());
    };
    let target = target
        .to_str()
        .ok_or_else(|| format!("target {target:?} is not UTF-8"))?;
    let artifact = PathBuf::from(artifact);
    let shown = escape::path(&artifact);
    let size = std::fs::metadata(&artifact)
        .map_err(|e| format!("{shown}: {e}"))?
        .len();
    if size > MAX_INPUT_BYTES {
        return Err(format!(
            "{shown}: {size} bytes is over the {MAX_INPUT_BYTES}-byte limit"
        ));
    }
    let data = std::fs::read(&artifact).map_err(|e| format!("{shown}: {e}"))?;
    let found = repro(target, &data)?;
    if let Some(path) = &output {
        let file = found.file.as_deref().ok_or_else(|| {
            format!(
                "{shown}: the {target} generator builds nothing from it, nothing to write ({})",
                escape::terminal_lines(&found.verdict.to_string())
            )
        })?;
        let shown_path = escape::path(path);
        std::fs::write(path, file).map_err(|e| format!("{shown_path}: {e}"))?;
        println!("wrote {shown_path} ({} bytes)", file.len());
    }
    if let Some(note) = &found.note {
        println!("{note}");
    }
    // Messages quote the input, which may hold terminal controls.
    let verdict = found.verdict.to_string();
    println!("{target}: {}", escape::terminal_lines(&verdict));
    Ok(match found.verdict {
        Verdict::Panic(_) => ExitCode::FAILURE,
        Verdict::Ok | Verdict::Error(_) => ExitCode::SUCCESS,
    })
}
