//! `bef kernels`: the registered kernels with their signatures, which the
//! registry derives from each kernel's definition.

use std::io::Write;

use bef::exec::KernelRegistry;
use bef::tool_io::escape;
use clap::Args;

use crate::failure::Failure;

#[derive(Args)]
pub struct KernelsArgs {
    /// List only the kernels whose names start with this (`tfrt_dht.`,
    /// `btf.read`); all of them without it.
    prefix: Option<String>,
}

/// Writes `name  (arguments) {attributes} -> (results)` for each kernel
/// whose name starts with the prefix, sorted by name, names padded to one
/// column. Fails when no kernel matches.
pub fn run(args: &KernelsArgs, registry: &KernelRegistry, out: impl Write) -> Result<(), Failure> {
    let prefix = args.prefix.as_deref().unwrap_or("");
    let kernels: Vec<_> = registry
        .kernels()
        .into_iter()
        .filter(|(name, _)| name.starts_with(prefix))
        .collect();
    if kernels.is_empty() {
        return Err(Failure::Message(format!(
            "no registered kernel name starts with '{}' (run `bef kernels` for all {})",
            escape::terminal(prefix),
            registry.kernel_names().len()
        )));
    }
    let width = kernels
        .iter()
        .map(|(name, _)| name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = escape::Writer::new(out);
    for (name, kernel) in &kernels {
        let strictness = if kernel.non_strict {
            "  (non-strict)"
        } else {
            ""
        };
        writeln!(out, "{name:<width$}  {}{strictness}", kernel.signature())?;
    }
    out.flush()?;
    Ok(())
}
