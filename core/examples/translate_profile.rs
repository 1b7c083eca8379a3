//! Profiling driver for the text → BEF path: generates a program with the
//! generator of `benches/translate.rs` (size in MB from the first argument,
//! default 5) and runs `parse_module` + `mlir_to_bef` once, printing the
//! wall time of each phase. Meant for `valgrind --tool=callgrind` as well.
//! A second argument names a file to write the BEF bytes to, to compare
//! the output of two builds.

use std::time::Instant;

use bef::text::parse_module;
use bef::translate::{TranslateOptions, mlir_to_bef};

#[path = "../benches/support/program.rs"]
mod program;
use program::generate;

/// The allocator of the `bef` binary, so the counts are the product's.
#[global_allocator]
static GLOBAL: bef::global_alloc::MiMalloc = bef::global_alloc::MiMalloc;

fn main() {
    let mb: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let text = generate(mb << 20);
    let mib = text.len() as f64 / f64::from(1 << 20);
    let rate = |start: Instant| {
        let seconds = start.elapsed().as_secs_f64();
        format!("{:7.1} ms {:6.1} MiB/s", seconds * 1e3, mib / seconds)
    };
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
    println!("{} bytes of text, {} bytes of BEF", text.len(), bytes.len());
    println!("parse     {parsed}\ntranslate {translated}\ndrop      {dropped}\ntotal     {total}");
    if let Some(path) = std::env::args().nth(2) {
        std::fs::write(path, &bytes).unwrap();
    }
}
