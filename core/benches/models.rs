//! Model kernels through the runtime, on the work queues `s` and `mstd:2`:
//!
//! * `matmul_512`: one `tfrt_test.matmul.f32.2` of 512×512 by 512×512 f32
//!   (c = a × b), throughput in flops (2·512³ per product).
//! * `mlp_forward`: the forward pass of TFRT's `bm_mnist` (batch 100,
//!   784 → 512 → 10: bias broadcasts, two products, ReLU, argmax, the
//!   accuracy), on weights of ones as `bm_mnist` fills them; as written
//!   (`mlp_forward/s`) and after `bef opt --fuse-matmul-epilogue`
//!   (`mlp_forward/fused/s`: each layer's broadcast, product and ReLU in
//!   one kernel).
//! * `mlp_forward_cpu`: the same two forward passes, timed by the CPU time
//!   of the whole process (`CLOCK_PROCESS_CPUTIME_ID`, every thread)
//!   rather than the wall clock: on a machine loaded by other processes,
//!   time spent waiting for a core counts in wall time but not here, so
//!   fused and unfused compare more steadily.
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

/// `PROGRAM` after the fusion pass, as `bef opt --fuse-matmul-epilogue`
/// prints it.
fn fused_program() -> String {
    let mut module = bef::text::parse_module(PROGRAM, "models.mlir").expect("the program parses");
    let fused = bef::passes::fuse_matmul::fuse_matmul_epilogue(&mut module);
    assert_eq!(fused, 2, "both layers of @mlp_forward fuse");
    bef::text::print_module(&module, bef::text::PrintOptions::default())
}

fn function(runner: &Runner, name: &str) -> Function {
    function_of(runner, PROGRAM, name)
}

fn function_of(runner: &Runner, source: &str, name: &str) -> Function {
    let input = Input::from_bytes(source.as_bytes(), "models.mlir").expect("the program reads");
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
    let fused = fused_program();
    for queue in QUEUES {
        let runner = runner(queue);
        let forward = function(&runner, "mlp_forward");
        let forward_fused = function_of(&runner, &fused, "mlp_forward");
        let args = [
            f32s(&[INPUTS, HIDDEN], 1.0),
            f32s(&[HIDDEN], 1.0),
            f32s(&[HIDDEN, CLASSES], 1.0),
            f32s(&[CLASSES], 1.0),
            f32s(&[BATCH, INPUTS], 1.0),
            filled(DType::I32, &[BATCH], 7i32, i32::to_le_bytes),
            AsyncValue::available(Chain),
        ];
        group.bench_function(BenchmarkId::from_parameter(queue), |b| {
            b.iter(|| call(&runner, &forward, &args))
        });
        group.bench_function(BenchmarkId::new("fused", queue), |b| {
            b.iter(|| call(&runner, &forward_fused, &args))
        });
    }
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
    let fused = fused_program();
    for queue in QUEUES {
        let runner = runner(queue);
        let forward = function(&runner, "mlp_forward");
        let forward_fused = function_of(&runner, &fused, "mlp_forward");
        let args = [
            f32s(&[INPUTS, HIDDEN], 1.0),
            f32s(&[HIDDEN], 1.0),
            f32s(&[HIDDEN, CLASSES], 1.0),
            f32s(&[CLASSES], 1.0),
            f32s(&[BATCH, INPUTS], 1.0),
            filled(DType::I32, &[BATCH], 7i32, i32::to_le_bytes),
            AsyncValue::available(Chain),
        ];
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

criterion_group!(benches, matmul_512, mlp_forward, mlp_forward_cpu);
criterion_main!(benches);
