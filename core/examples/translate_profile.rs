//! Profiling driver for the text → BEF path: generates a program with the
//! generator of `benches/translate.rs` (size in MB from the first argument,
//! default 5) and runs `parse_module` + `mlir_to_bef` once. Meant for
//! `valgrind --tool=callgrind`. A second argument names a file to write the
//! BEF bytes to, to compare the output of two builds.

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
    let module = parse_module(&text, "generated.mlir").unwrap();
    let bytes = mlir_to_bef(&module, TranslateOptions::default()).unwrap();
    println!("{} bytes of text, {} bytes of BEF", text.len(), bytes.len());
    if let Some(path) = std::env::args().nth(2) {
        std::fs::write(path, &bytes).unwrap();
    }
}
