//! Profiling driver for the text → BEF path:
//! `translate_profile [MB] [OUT] [RUNS]` generates a program of MB
//! megabytes (default 5) with the generator of `benches/translate.rs`, runs
//! `parse_module` + `mlir_to_bef` RUNS times (default 1) and prints the
//! wall time of each phase of each run. Meant for `valgrind
//! --tool=callgrind` as well (one run). OUT, unless `-`, receives the BEF
//! bytes, to compare the output of two builds.

use std::time::Instant;

use bef::text::parse_module;
use bef::translate::{TranslateOptions, mlir_to_bef};

#[path = "../benches/support/program.rs"]
mod program;
use program::generate;

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the counts are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

fn main() {
    global_alloc::keep_freed_memory();
    let arg = |n: usize| std::env::args().nth(n);
    let mb: usize = arg(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let runs: usize = arg(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let text = generate(mb << 20);
    let mib = text.len() as f64 / f64::from(1 << 20);
    let rate = |start: Instant| {
        let seconds = start.elapsed().as_secs_f64();
        format!("{:7.1} ms {:6.1} MiB/s", seconds * 1e3, mib / seconds)
    };
    for run in 1..=runs {
        let start = Instant::now();
        let module = parse_module(&text, "generated.mlir").unwrap();
        let parsed = rate(start);
        let translating = Instant::now();
        let bytes = mlir_to_bef(&module, TranslateOptions::default()).unwrap();
        let translated = rate(translating);
        let dropping = Instant::now();
        drop(module);
        let dropped = rate(dropping);
        let total = rate(start);
        println!(
            "run {run}: {} bytes of text, {} bytes of BEF",
            text.len(),
            bytes.len()
        );
        println!(
            "  parse     {parsed}\n  translate {translated}\n  drop      {dropped}\n  total     {total}"
        );
        if let Some(path) = arg(2).filter(|path| run == runs && path != "-") {
            std::fs::write(path, &bytes).unwrap();
        }
    }
}
