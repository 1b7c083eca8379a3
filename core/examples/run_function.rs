//! Opens a corpus program with `Runner` (MLIR text, translated on the fly),
//! runs one function and prints its results.
//!
//! `cargo run -p bef --example run_function [FILE [FUNCTION]]`

use bef::exec::{KernelRegistry, Runner, RunnerError};

fn main() -> Result<(), RunnerError> {
    let mut args = std::env::args().skip(1);
    let file = args.next().unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/conformance/call_nested.mlir"
        )
        .into()
    });
    let name = args.next().unwrap_or_else(|| "nested".into());

    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    let runner = Runner::builder(registry).work_queue("mstd:2").build()?;
    let program = runner.open(&file)?;
    let function = runner.function(&program, &name)?;
    let finished = runner.run(&function, &[], None)?;
    let results: Vec<String> = finished
        .results
        .iter()
        .map(|v| v.display(false).to_string())
        .collect();
    println!("'{name}' returned {}", results.join(","));
    if !finished.leaks.is_clean() {
        eprintln!("leaked: {:?}", finished.leaks);
    }
    Ok(())
}
