//! `bef run FILE --call NAME --args JSON`: one function called with
//! arguments given as JSON (`--args @FILE` reads them from a file), its
//! results printed as one line of JSON. Arguments take their element types
//! and structure from the function's signature (`bef::abi`); a tensor of a
//! BTF file is `{"btf": PATH, "index": N}`, read with the checks of the
//! BTF kernels.

use std::io::Read;
use std::path::Path;

use crate::console;
use crate::failure::Failure;
use bef::abi::json_values::write_values_json;
use bef::exec::{Function, Runner};
use bef::kernels::tensor::btf_kernels::{CallArgumentsError, call_arguments_from_json};
use bef::tool_io::escape;

/// The largest `--args @FILE` read.
const MAX_ARGUMENTS_BYTES: u64 = 64 << 20;

/// The text of `--args`: itself, or the file after `@`.
pub fn arguments_text(args: &str) -> Result<Vec<u8>, Failure> {
    let Some(path) = args.strip_prefix('@') else {
        return Ok(args.as_bytes().to_vec());
    };
    let shown = escape::path(Path::new(path));
    let refuse = |why: String| Failure::Usage(format!("--args @{shown}: {why}"));
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO cannot stall the command, a terminal not become ours.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(|e| refuse(e.to_string()))?;
    let metadata = file.metadata().map_err(|e| refuse(e.to_string()))?;
    if !metadata.is_file() {
        return Err(refuse("not a regular file".to_string()));
    }
    if metadata.len() > MAX_ARGUMENTS_BYTES {
        return Err(refuse(format!(
            "{} bytes, more than the {MAX_ARGUMENTS_BYTES} read",
            metadata.len()
        )));
    }
    let mut text = Vec::new();
    file.take(MAX_ARGUMENTS_BYTES)
        .read_to_end(&mut text)
        .map_err(|e| refuse(e.to_string()))?;
    Ok(text)
}

/// Calls `function` with the arguments in `text` and prints its results.
/// Every problem is one `error:` line and exit status 1.
pub fn call(runner: &Runner, function: &Function, text: &[u8]) -> Result<(), Failure> {
    let message = |e: String| Failure::Message(escape::terminal(&e).into_owned());
    let arguments = call_arguments_from_json(runner, function, text).map_err(|e| match e {
        CallArgumentsError::Signature(e) => message(e),
        CallArgumentsError::Json(e) => message(format!("--args: {e}")),
    })?;
    let results = runner
        .call_typed_with(function, &arguments.positional, &arguments.keywords, None)
        .map_err(|e| message(e.to_string()))?;
    // Streamed: a large tensor result is formatted as it is written.
    console::out_with(|out| {
        write_values_json(out, &results.values)?;
        out.write_all(b"\n")
    });
    let leaks = results.leaks;
    if let Some(leak) = leaks.async_values {
        return Err(message(format!(
            "evaluation of function '{}' leaked {} async values",
            function.name(),
            leak.leaked()
        )));
    }
    if let Some(leak) = leaks.allocations {
        return Err(message(format!(
            "evaluation of function '{}' leaked {} allocations ({} bytes)",
            function.name(),
            leak.allocations,
            leak.bytes
        )));
    }
    Ok(())
}
