//! MLIR bytecode read and write on the upstream vector `large.v6.mlirbc` (67,600
//! ops, 1.25 MB) and its location-free twin, to compare with upstream
//! MLIR's figures in the spec (read 72-84 ms, write 54-60 ms; without
//! locations 52 ms and 31 ms).
//!
//! `cargo bench -p bef --bench bytecode`

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::hint::black_box;

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bef::bytecode::{WriteOptions, read_aligned, write};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

fn vector(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/vectors/mlir-bytecode")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn bench(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    for name in ["large.v6.mlirbc", "large_noloc.v6.mlirbc"] {
        let bytes = vector(name);
        let module = read_aligned(&bytes).expect("vector reads");
        let origin = module.origin.clone().expect("origin");
        let options = WriteOptions {
            version: origin.version,
            producer: origin.producer.clone(),
        };
        // What is timed must also be right: the rewrite is byte-identical.
        assert!(write(&module, &options).unwrap().bytes == bytes, "{name}");

        let mut group = c.benchmark_group(name);
        group.sample_size(20);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        // The module is freed outside the timing, as upstream's parser
        // timing does not include destroying the IR.
        group.bench_function("read", |b| {
            b.iter_with_large_drop(|| read_aligned(black_box(&bytes)).unwrap())
        });
        group.bench_function("write", |b| {
            b.iter(|| write(black_box(&module), &options).unwrap())
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
