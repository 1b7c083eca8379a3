//! `bef run FILE --call NAME --args JSON`: one function called with
//! arguments given as JSON (`--args @FILE` reads them from a file), its
//! results printed as one line of JSON. Arguments take their element types
//! and structure from the function's signature (`bef::abi`); a tensor of a
//! BTF file is `{"btf": PATH, "index": N}`, read with the checks of the
//! BTF kernels.

use std::path::Path;

use crate::console;
use crate::failure::Failure;
use bef::abi::json_values::write_values_json;
use bef::exec::{Function, Runner};
use bef::kernels::tensor::btf_kernels::{CallArgumentsError, call_arguments_from_json};
use bef::tool_io::escape;
use bef::tool_io::named_files::{self, NamedFileKind};

/// The text of `--args`: itself, or the file after `@`, read as the
/// named-file policy allows a file the user names
/// (`bef::tool_io::named_files`: a regular file outside `/proc`, `/sys`
/// and `/dev`, at most 16 MiB).
pub fn arguments_text(args: &str) -> Result<Vec<u8>, Failure> {
    let Some(path) = args.strip_prefix('@') else {
        return Ok(args.as_bytes().to_vec());
    };
    named_files::read(Path::new(path), NamedFileKind::UserNamed).map_err(|not_read| {
        Failure::Usage(format!(
            "--args @{}: {}",
            escape::path(Path::new(path)),
            not_read.why()
        ))
    })
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
