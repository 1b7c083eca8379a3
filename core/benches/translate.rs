//! Text → IR → BEF on a generated ~50 MB host program, reported in MB/s of
//! text, against a baseline in the same run: one pass over the same bytes
//! counting lines (the least any parser must do).
//!
//! `cargo bench --bench translate`

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bef::text::parse_module;
use bef::translate::{TranslateOptions, mlir_to_bef};

#[path = "support/program.rs"]
mod program;
use program::generate;

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

fn text_to_bef(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    let text = generate(50 << 20);
    let mut g = c.benchmark_group("translate_50MB");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("baseline_count_lines", |b| {
        b.iter(|| {
            black_box(text.as_bytes())
                .iter()
                .filter(|&&c| c == b'\n')
                .count()
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| parse_module(black_box(&text), "generated.mlir").unwrap())
    });
    let module = parse_module(&text, "generated.mlir").unwrap();
    g.bench_function("translate", |b| {
        b.iter(|| mlir_to_bef(black_box(&module), TranslateOptions::default()).unwrap())
    });
    g.bench_function("parse_and_translate", |b| {
        b.iter(|| {
            let module = parse_module(black_box(&text), "generated.mlir").unwrap();
            mlir_to_bef(&module, TranslateOptions::default()).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, text_to_bef);
criterion_main!(benches);
