//! `corpus-coverage [--json] TARGET DIR`: runs every file of DIR through
//! the body of fuzz target TARGET and reports what the inputs reached
//! (kernels run, op names, BEF sections, attribute kinds, ...) with
//! counts, and which registered kernels no input ran.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bef_fuzz::coverage::{COVERAGE_TARGETS, Coverage};

/// Larger files are left out (libFuzzer's inputs are far smaller), so
/// that a stray file cannot exhaust memory.
const MAX_INPUT_BYTES: u64 = 64 << 20;

const USAGE: &str = "usage: corpus-coverage [--json] TARGET DIR";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("corpus-coverage: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut json = false;
    let mut positional = Vec::new();
    for arg in std::env::args_os().skip(1) {
        match arg.to_str() {
            Some("--json") => json = true,
            Some("-h" | "--help") => {
                println!("{USAGE}\ntargets: {}", COVERAGE_TARGETS.join(", "));
                return Ok(ExitCode::SUCCESS);
            }
            Some(flag) if flag.starts_with('-') => {
                return Err(format!("unknown option '{flag}'\n{USAGE}"));
            }
            _ => positional.push(arg),
        }
    }
    let [target, dir] = positional.as_slice() else {
        return Err(USAGE.to_string());
    };
    let target = target
        .to_str()
        .ok_or_else(|| format!("target {target:?} is not UTF-8"))?;
    let mut coverage = Coverage::new(target)?;
    let dir = Path::new(dir);
    for path in input_files(dir)? {
        let shown = bef::tool_io::escape::path(&path).into_owned();
        let size = std::fs::metadata(&path)
            .map_err(|e| format!("{shown}: {e}"))?
            .len();
        if size > MAX_INPUT_BYTES {
            eprintln!("corpus-coverage: {shown}: skipped, {size} bytes is over {MAX_INPUT_BYTES}");
            continue;
        }
        let data = std::fs::read(&path).map_err(|e| format!("{shown}: {e}"))?;
        coverage.add(&shown, &data);
    }
    if json {
        let text = serde_json::to_string_pretty(&coverage.to_json())
            .map_err(|e| format!("writing JSON: {e}"))?;
        println!("{text}");
    } else {
        print!("{}", coverage.to_text());
    }
    // A panic is a finding: the run fails so that scripts notice it.
    Ok(if coverage.panics().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The files directly in `dir`, sorted (subdirectories are not inputs).
fn input_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let shown = bef::tool_io::escape::path(dir);
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{shown}: {e}"))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{shown}: {e}"))?.path();
        if path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}
