//! Text → IR → BEF on a generated ~50 MB host program, reported in MB/s of
//! text, against a baseline in the same run: one pass over the same bytes
//! counting lines (the least any parser must do).
//!
//! `cargo bench --bench translate`

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use bef::text::parse_module;
use bef::translate::{TranslateOptions, mlir_to_bef};

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Functions shaped like real test programs: constants, chains of
/// arithmetic, prints threaded on a chain, a call, a conditional region.
fn generate(target_bytes: usize) -> String {
    let mut text = String::with_capacity(target_bytes + 4096);
    text.push_str("func.func @leaf(%a: i32, %b: i32) -> i32 {\n  %c = tfrt.add.i32 %a, %b\n  tfrt.return %c : i32\n}\n");
    let mut n = 0;
    while text.len() < target_bytes {
        writeln!(
            text,
            "func.func @f{n}(%x: i32, %ch0: !tfrt.chain) -> (i32, !tfrt.chain) {{"
        )
        .unwrap();
        writeln!(text, "  %one = tfrt.constant.i32 1").unwrap();
        let mut prev = "%x".to_string();
        for i in 0..40 {
            writeln!(text, "  %v{i} = tfrt.add.i32 {prev}, %one").unwrap();
            prev = format!("%v{i}");
        }
        writeln!(text, "  %ch1 = tfrt.print.i32 {prev}, %ch0").unwrap();
        writeln!(
            text,
            "  %s = tfrt.call @leaf({prev}, %one) : (i32, i32) -> i32"
        )
        .unwrap();
        writeln!(text, "  %cond = tfrt.constant.i1 1").unwrap();
        writeln!(text, "  %r = tfrt.if %cond, %s : (i32) -> (i32) {{").unwrap();
        writeln!(text, "    tfrt.return %s : i32").unwrap();
        writeln!(text, "  }} else {{").unwrap();
        writeln!(text, "    %t = tfrt.constant.i32 {n}").unwrap();
        writeln!(text, "    tfrt.return %t : i32").unwrap();
        writeln!(text, "  }}").unwrap();
        writeln!(text, "  %w = \"tfrt_test.identity\"(%r) {{note = \"generated\", weights = [1 : i32, 2 : i32]}} : (i32) -> i32").unwrap();
        writeln!(text, "  tfrt.return %w, %ch1 : i32, !tfrt.chain").unwrap();
        writeln!(text, "}}").unwrap();
        n += 1;
    }
    text
}

fn text_to_bef(c: &mut Criterion) {
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
