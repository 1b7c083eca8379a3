//! Model kernels through the runtime, on the work queues `s` and `mstd:2`:
//!
//! * `matmul_512`: one `tfrt_test.matmul.f32.2` of 512×512 by 512×512 f32
//!   (c = a × b), throughput in flops (2·512³ per product).
//! * `mlp_forward`: the forward pass of TFRT's `bm_mnist` (batch 100,
//!   784 → 512 → 10: bias broadcasts, two products, ReLU, argmax, the
//!   accuracy), on weights of ones as `bm_mnist` fills them; `packed`
//!   reuses the packed weights (the default), `gemm` turns that off
//!   (`packed_gemm::reuse_packed_weights(false)`), in the same run.
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

use std::sync::Arc;
use std::time::Duration;

use bef::exec::{AllocatorKind, Function, Input, KernelRegistry, Runner};
use bef::format::DType;
use bef::kernels::tensor::packed_gemm::{self, PackedRhs};
use bef::kernels::tensor::{DenseHostTensor, HostTensor, TensorShape};
use bef::runtime::{AsyncValue, Chain, MallocAllocator};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

const QUEUES: [&str; 2] = ["s", "mstd:2"];
const SIDE: i64 = 512;
const BATCH: i64 = 100;
const INPUTS: i64 = 784;
const HIDDEN: i64 = 512;
const CLASSES: i64 = 10;

/// The two benchmarked functions. `@mlp_forward` is the computation of
/// `bm_mnist`, written for this benchmark.
const PROGRAM: &str = r#"
func.func @matmul(%a: !t.tensor, %b: !t.tensor, %c: !t.tensor, %ch0: !tfrt.chain) -> !tfrt.chain {
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %a, %b, %zero, %c, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch1 : !tfrt.chain
}

func.func @mlp_forward(%w1: !t.tensor, %b1: !t.tensor, %w2: !t.tensor, %b2: !t.tensor,
                       %x: !t.tensor, %labels: !t.tensor, %ch0: !tfrt.chain) -> !t.tensor {
  %one = tfrt.constant.f32 1.0
  %hidden_shape = ts.build_shape [100 : i64, 512 : i64]
  %hidden = "tfrt_test.broadcast.f32.2"(%b1, %hidden_shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %x, %w1, %one, %hidden, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.relu_inplace.f32"(%hidden, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  %scores_shape = ts.build_shape [100 : i64, 10 : i64]
  %scores = "tfrt_test.broadcast.f32.2"(%b2, %scores_shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  %ch3 = "tfrt_test.matmul.f32.2"(%one, %hidden, %w2, %one, %scores, %ch2) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %predicted = "tfrt_test.argmax.f32.2"(%scores, %ch3) : (!t.tensor, !tfrt.chain) -> !t.tensor
  %ch4 = "tfrt_test.equal_inplace.i32"(%labels, %predicted, %ch3) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %correct = "tfrt_dht.create_uninitialized_tensor.f32.1"() { shape = [100 : i64] } : () -> !t.tensor
  %ch5 = "tfrt_test.cast.i32_to_f32"(%predicted, %correct, %ch4) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %accuracy = "tfrt_test.reduce_mean.f32.1"(%correct, %ch5) : (!t.tensor, !tfrt.chain) -> !t.tensor
  tfrt.return %accuracy : !t.tensor
}
"#;

fn runner(queue: &str) -> Runner {
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    Runner::builder(registry)
        .work_queue(queue)
        .allocator(AllocatorKind::Malloc)
        .build()
        .expect("valid work queue")
}

fn function(runner: &Runner, name: &str) -> Function {
    let input = Input::from_bytes(PROGRAM.as_bytes(), "models.mlir").expect("the program reads");
    let program = runner.load(input).expect("the program translates");
    runner
        .function(&program, name)
        .expect("the function exists")
}

/// A dense tensor of `dims` whose elements are all `value`.
fn filled<T: Copy>(dtype: DType, dims: &[i64], value: T, to_bytes: fn(T) -> [u8; 4]) -> AsyncValue {
    let count: i64 = dims.iter().product();
    let bytes: Vec<u8> = (0..count).flat_map(|_| to_bytes(value)).collect();
    let tensor = DenseHostTensor::from_bytes(
        dtype,
        TensorShape(dims.to_vec()),
        &bytes,
        Arc::new(MallocAllocator),
    )
    .expect("the tensor is made");
    AsyncValue::available(HostTensor::Dense(tensor))
}

fn f32s(dims: &[i64], value: f32) -> AsyncValue {
    filled(DType::F32, dims, value, f32::to_le_bytes)
}

fn call(runner: &Runner, function: &Function, args: &[AsyncValue]) {
    let call = runner.call(function, args, None).expect("the call starts");
    assert!(call.results()[0].is_concrete(), "the call succeeds");
    call.finish();
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
    global_alloc::keep_freed_memory();
    let mut group = c.benchmark_group("mlp_forward");
    let flops = 2 * BATCH * (INPUTS * HIDDEN + HIDDEN * CLASSES);
    group.throughput(Throughput::Elements(flops as u64));
    group.measurement_time(Duration::from_secs(5));
    for (queue, packing) in QUEUES
        .into_iter()
        .flat_map(|queue| [(queue, "gemm"), (queue, "packed")])
    {
        let runner = runner(queue);
        let forward = function(&runner, "mlp_forward");
        let args = [
            f32s(&[INPUTS, HIDDEN], 1.0),
            f32s(&[HIDDEN], 1.0),
            f32s(&[HIDDEN, CLASSES], 1.0),
            f32s(&[CLASSES], 1.0),
            f32s(&[BATCH, INPUTS], 1.0),
            filled(DType::I32, &[BATCH], 7i32, i32::to_le_bytes),
            AsyncValue::available(Chain),
        ];
        packed_gemm::reuse_packed_weights(packing == "packed");
        group.bench_function(BenchmarkId::new(packing, queue), |b| {
            b.iter(|| call(&runner, &forward, &args))
        });
    }
    packed_gemm::reuse_packed_weights(true);
    group.finish();
}

/// `c = a b` through `gemm` as `tfrt_test.matmul` calls it (row-major,
/// `beta == 0`): gemm computes the transposed product.
fn gemm_product(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    assert_eq!((a.len(), b.len(), c.len()), (m * k, k * n, m * n));
    // SAFETY: the slices have the sizes checked above; c is borrowed
    // exclusively and a, b shared for the call.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            1,
            n as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        )
    }
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
        bench.iter(|| gemm_product(m, k, n, &a, &b, &mut c))
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

criterion_group!(benches, product_100x784x512, matmul_512, mlp_forward);
criterion_main!(benches);
