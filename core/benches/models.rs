//! Model kernels through the runtime, on the work queues `s` and `mstd:2`:
//!
//! * `matmul_512`: one `tfrt_test.matmul.f32.2` of 512×512 by 512×512 f32
//!   (c = a × b), throughput in flops (2·512³ per product).
//! * `mlp_forward`: the forward pass of TFRT's `bm_mnist` (batch 100,
//!   784 → 512 → 10: bias broadcasts, two products, ReLU, argmax, the
//!   accuracy), on weights of ones as `bm_mnist` fills them, the packed
//!   weights reused as by default.
//! * `mlp_forward_gemm`: the same with the reuse turned off
//!   (`packed_gemm::reuse_packed_weights(false)`): every product through
//!   the `gemm` crate, packing the weights each call.
//! * In both, `fused/QUEUE`: the same pass after `bef opt
//!   --fuse-matmul-epilogue` (each layer's broadcast, product and ReLU in
//!   one kernel).
//! * `mlp_forward_cpu`: the forward pass as written and fused, timed by
//!   the CPU time of the whole process (`CLOCK_PROCESS_CPUTIME_ID`, every
//!   thread) rather than the wall clock: on a machine loaded by other
//!   processes, time spent waiting for a core counts in wall time but not
//!   here, so the two compare more steadily.
//! * `product_100x784x512`: the pass's first product alone, on one thread,
//!   without the runtime: the `gemm` crate as the kernel calls it, the
//!   packed driver packing B on every call, and reusing one packed B.
//!
//! Each iteration is one call of a BEF function through `exec::Runner`,
//! arguments already made, so the figures include the executor's work.
//! The baselines, numpy (OpenBLAS) and onnxruntime on the same shapes and
//! weights, are measured by `scripts/compare_models.py`, which runs this
//! benchmark in the same run and prints the ratios.
//!
//! `cargo bench -p bef --bench models`

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::time::Duration;

use bef::exec::{Function, Input, Runner};
use bef::kernels::tensor::packed_gemm::{self, PackedRhs};
use bef::runtime::{AsyncValue, Chain};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;
#[path = "support/models.rs"]
mod models;

use models::{BATCH, CLASSES, HIDDEN, INPUTS, QUEUES, call, f32s, function, runner};

/// The side of `matmul_512`'s square matrices.
const SIDE: i64 = 512;

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

/// `@mlp_forward` after the fusion pass, as `bef opt
/// --fuse-matmul-epilogue` prints it, loaded in `runner`.
fn fused_forward(runner: &Runner) -> Function {
    let mut module =
        bef::text::parse_module(models::PROGRAM, "models.mlir").expect("the program parses");
    let fused = bef::passes::fuse_matmul::fuse_matmul_epilogue(&mut module);
    assert_eq!(fused, 2, "both layers of @mlp_forward fuse");
    let text = bef::text::print_module(&module, bef::text::PrintOptions::default());
    let input = Input::from_bytes(text.as_bytes(), "fused.mlir").expect("the program reads");
    let program = runner.load(input).expect("the program translates");
    runner
        .function(&program, "mlp_forward")
        .expect("the function exists")
}

fn matmul_512(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    let mut group = c.benchmark_group("matmul_512");
    group.throughput(Throughput::Elements(2 * (SIDE * SIDE * SIDE) as u64));
    group.measurement_time(Duration::from_secs(5));
    for queue in QUEUES {
        let runner = runner(queue);
        let matmul = function(&runner, "matmul");
        let side = [SIDE, SIDE];
        let args = [
            f32s(&side, 0.5),
            f32s(&side, 2.0),
            f32s(&side, 0.0),
            AsyncValue::available(Chain),
        ];
        group.bench_function(BenchmarkId::from_parameter(queue), |b| {
            b.iter(|| call(&runner, &matmul, &args))
        });
    }
    group.finish();
}

fn mlp_forward(c: &mut Criterion) {
    mlp_forward_group(c, "mlp_forward", true);
}

fn mlp_forward_gemm(c: &mut Criterion) {
    mlp_forward_group(c, "mlp_forward_gemm", false);
}

/// `@mlp_forward` on both queues, reusing packed weights or not.
fn mlp_forward_group(c: &mut Criterion, name: &str, reuse: bool) {
    global_alloc::keep_freed_memory();
    let mut group = c.benchmark_group(name);
    let flops = 2 * BATCH * (INPUTS * HIDDEN + HIDDEN * CLASSES);
    group.throughput(Throughput::Elements(flops as u64));
    group.measurement_time(Duration::from_secs(5));
    packed_gemm::reuse_packed_weights(reuse);
    for queue in QUEUES {
        let runner = runner(queue);
        let forward = function(&runner, "mlp_forward");
        let forward_fused = fused_forward(&runner);
        let args = models::mlp_args();
        group.bench_function(BenchmarkId::from_parameter(queue), |b| {
            b.iter(|| call(&runner, &forward, &args))
        });
        group.bench_function(BenchmarkId::new("fused", queue), |b| {
            b.iter(|| call(&runner, &forward_fused, &args))
        });
    }
    packed_gemm::reuse_packed_weights(true);
    group.finish();
}

/// The CPU time of the whole process so far (all its threads).
fn process_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to write, and
    // CLOCK_PROCESS_CPUTIME_ID is a clock every Linux kernel has.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the process CPU clock reads");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

fn mlp_forward_cpu(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    let mut group = c.benchmark_group("mlp_forward_cpu");
    let flops = 2 * BATCH * (INPUTS * HIDDEN + HIDDEN * CLASSES);
    group.throughput(Throughput::Elements(flops as u64));
    group.measurement_time(Duration::from_secs(5));
    for queue in QUEUES {
        let runner = runner(queue);
        let forward = function(&runner, "mlp_forward");
        let forward_fused = fused_forward(&runner);
        let args = models::mlp_args();
        let ids = [
            (BenchmarkId::from_parameter(queue), &forward),
            (BenchmarkId::new("fused", queue), &forward_fused),
        ];
        for (id, function) in ids {
            group.bench_function(id, |b| {
                b.iter_custom(|iterations| {
                    let start = process_cpu_time();
                    for _ in 0..iterations {
                        call(&runner, function, &args);
                    }
                    process_cpu_time() - start
                })
            });
        }
    }
    group.finish();
}

fn product_100x784x512(c: &mut Criterion) {
    let (m, k, n) = (BATCH as usize, INPUTS as usize, HIDDEN as usize);
    let mut group = c.benchmark_group("product_100x784x512");
    group.throughput(Throughput::Elements(2 * (m * k * n) as u64));
    group.measurement_time(Duration::from_secs(5));
    // Values that vary, so no shortcut on ones or zeros is measured.
    let a: Vec<f32> = (0..m * k).map(|i| (i % 13) as f32 * 0.25 - 1.5).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 7) as f32 * 0.5 - 1.5).collect();
    let mut c = vec![0.0f32; m * n];
    group.bench_function("gemm", |bench| {
        bench.iter(|| models::gemm_product(m, k, n, &a, &b, &mut c))
    });
    if packed_gemm::supported() {
        group.bench_function("packed_each_call", |bench| {
            bench.iter(|| {
                let packed = PackedRhs::new(&b, k, n).expect("AVX-512F");
                packed_gemm::multiply_all(&packed, 1.0, &a, m, 0.0, &mut c)
            })
        });
        let packed = PackedRhs::new(&b, k, n).expect("AVX-512F");
        group.bench_function("packed_reused", |bench| {
            bench.iter(|| packed_gemm::multiply_all(&packed, 1.0, &a, m, 0.0, &mut c))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    product_100x784x512,
    matmul_512,
    mlp_forward_gemm,
    mlp_forward,
    mlp_forward_cpu
);
criterion_main!(benches);
