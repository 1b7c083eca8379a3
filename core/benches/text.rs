//! Parsing and printing a generated ~50 MB host program (many functions
//! with chains of constants, adds, prints and calls). Reports MB/s of text.

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::fmt::Write;

use bef::text::{PrintOptions, parse_module, print_module};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

/// A host program of about `target` bytes.
pub fn generate_program(target: usize) -> String {
    let mut out = String::with_capacity(target + 4096);
    out.push_str("func.func @leaf(%x: i32, %ch: !tfrt.chain) -> (i32, !tfrt.chain) {\n  tfrt.return %x, %ch : i32, !tfrt.chain\n}\n");
    let mut f = 0;
    while out.len() < target {
        let _ = writeln!(
            out,
            "func.func @f{f}(%a: i32, %ch0: !tfrt.chain) -> (i32, !tfrt.chain) {{"
        );
        out.push_str("  %c0 = tfrt.constant.i32 1\n  %v0 = tfrt.add.i32 %a, %c0\n");
        for i in 1..40 {
            let _ = writeln!(out, "  %c{i} = tfrt.constant.i32 {i}");
            let _ = writeln!(out, "  %v{i} = tfrt.add.i32 %v{}, %c{i}", i - 1);
            if i % 8 == 0 {
                let _ = writeln!(out, "  %ch{i} = tfrt.print.i32 %v{i}, %ch0");
            }
        }
        out.push_str(
            "  %r, %ch1 = tfrt.call @leaf(%v39, %ch0) : (i32, !tfrt.chain) -> (i32, !tfrt.chain)\n",
        );
        out.push_str("  %g = \"tfrt_test.identity\"(%r) {note = \"generic\"} : (i32) -> i32\n");
        out.push_str("  tfrt.return %g, %ch1 : i32, !tfrt.chain\n}\n");
        f += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    let size: usize = std::env::var("TEXT_BENCH_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50)
        << 20;
    let program = generate_program(size);
    let module = parse_module(&program, "bench.mlir").expect("generated program parses");
    let printed = print_module(&module, PrintOptions::default());

    let mut group = c.benchmark_group("text");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(program.len() as u64));
    group.bench_function("parse", |b| {
        b.iter_with_large_drop(|| parse_module(&program, "bench.mlir").unwrap())
    });
    group.throughput(Throughput::Bytes(printed.len() as u64));
    group.bench_function("print", |b| {
        b.iter(|| print_module(&module, PrintOptions::default()))
    });
    group.bench_function("print_debuginfo", |b| {
        b.iter(|| {
            print_module(
                &module,
                PrintOptions {
                    generic: false,
                    debug_info: true,
                },
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
