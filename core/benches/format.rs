//! BEF format benchmarks, each beside a baseline measured in the same run:
//! - opening a 100 MB file versus a 1 MB file with the same number of
//!   functions (lazy decoding: opening must not depend on body size);
//! - decoding every function of the 100 MB file, versus reading every byte;
//! - encoding a module, versus copying the bytes it produces.

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::hint::black_box;

use bef::format::{
    Attribute, BefBuffer, BefFile, Body, Function, FunctionKind, Kernel, KernelLocation, Location,
    Module, encode,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

/// `functions` functions, each a chain of `kernels` `tfrt.add.i32` with a
/// constant attribute and a source location (about 52 bytes per kernel).
fn synthetic_module(functions: usize, kernels: u32) -> Module {
    let function = |f: usize| {
        let mut all = vec![Kernel::pseudo(2, 2 + kernels, vec![Vec::new(); 3], 0)];
        for k in 0..kernels {
            let previous = if k == 0 { 1 } else { 1 + k };
            all.push(Kernel {
                code: 0,
                location: KernelLocation::At(Location::FileLineCol {
                    file: "bench.mlir".into(),
                    line: u64::from(k) + 2,
                    column: 5,
                }),
                args: vec![0, previous],
                attributes: vec![k % 4],
                attribute_names: vec!["value".into()],
                functions: vec![],
                results: vec![2 + k],
                used_by: vec![Vec::new()],
                stream_id: 0,
            });
        }
        let mut body = Body {
            location: Some(Location::FileLineCol {
                file: "bench.mlir".into(),
                line: 1,
                column: 1,
            }),
            num_registers: 2 + kernels,
            register_types: vec![0; 2 + kernels as usize],
            kernels: all,
            results: vec![1 + kernels],
        };
        body.compute_used_by();
        Function {
            kind: FunctionKind::Bef,
            name: format!("f{f}"),
            arg_types: vec![0, 0],
            result_types: vec![0],
            body: Some(body),
        }
    };
    Module {
        kernel_names: vec!["tfrt.add.i32".into()],
        types: vec!["i32".into()],
        attributes: (0..4).map(Attribute::I32).collect(),
        functions: (0..functions).map(function).collect(),
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    }
}

fn sum_bytes(bytes: &[u8]) -> u64 {
    bytes
        .chunks(8)
        .map(|c| {
            c.iter()
                .fold(0u64, |a, &b| a.wrapping_mul(31).wrapping_add(u64::from(b)))
        })
        .fold(0, u64::wrapping_add)
}

fn benches(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    const FUNCTIONS: usize = 10_000;
    let small = BefBuffer::copy_from(&encode(&synthetic_module(FUNCTIONS, 1)).unwrap());
    let large = BefBuffer::copy_from(&encode(&synthetic_module(FUNCTIONS, 190)).unwrap());
    eprintln!(
        "small file: {} bytes, large file: {} bytes, {FUNCTIONS} functions each",
        small.bytes().len(),
        large.bytes().len()
    );

    let mut open = c.benchmark_group("open");
    open.bench_function("small_10k_functions", |b| {
        b.iter(|| {
            BefFile::open(black_box(small.bytes()))
                .unwrap()
                .functions()
                .len()
        })
    });
    open.bench_function("large_10k_functions", |b| {
        b.iter(|| {
            BefFile::open(black_box(large.bytes()))
                .unwrap()
                .functions()
                .len()
        })
    });
    open.finish();

    let mut decode = c.benchmark_group("decode_all_functions");
    decode.sample_size(10);
    decode.throughput(Throughput::Bytes(large.bytes().len() as u64));
    decode.bench_function("bef", |b| {
        b.iter(|| {
            let file = BefFile::open(black_box(large.bytes())).unwrap();
            (0..file.functions().len())
                .map(|i| file.body(i).unwrap().kernels.len())
                .sum::<usize>()
        })
    });
    decode.bench_function("baseline_read_every_byte", |b| {
        b.iter(|| sum_bytes(black_box(large.bytes())))
    });
    decode.finish();

    let module = synthetic_module(1_000, 190);
    let encoded = encode(&module).unwrap();
    let mut enc = c.benchmark_group("encode");
    enc.sample_size(10);
    enc.throughput(Throughput::Bytes(encoded.len() as u64));
    enc.bench_function("bef", |b| {
        b.iter(|| encode(black_box(&module)).unwrap().len())
    });
    enc.bench_function("baseline_copy_output", |b| {
        b.iter(|| black_box(black_box(&encoded).to_vec()))
    });
    enc.finish();
}

criterion_group!(format, benches);
criterion_main!(format);
