//! Executor benchmarks, each against a baseline measured in the same run:
//!
//! * `serial_chain`: one call of a function that is a chain of 10,000
//!   `tfrt.add.i32` kernels, each using the previous result, on the
//!   single-threaded queue; versus a plain Rust loop making the same
//!   heap-allocated values (an available AsyncValue per step, read by the
//!   next). Targets: at most 40 ns per kernel and a ratio of at most 3.
//! * `independent_compute`: 10,000 independent compute kernels (each a
//!   fixed amount of arithmetic) in separate streams, on `mstd:2` versus
//!   `s`. Target: a speed-up of at least 1.7.
//! * `tokio_chain`: the same chain as one tokio task per kernel joined by
//!   oneshot channels (current-thread runtime). Target: at least 5x slower
//!   than the executor.
//!
//! `cargo bench -p bef --bench exec`

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::hint::black_box;

use std::sync::Arc;
use std::time::Duration;

use bef::exec::{Argument, Attribute, ExecutionContext, Function, KernelRegistry, Program};
use bef::format::BefBuffer;
use bef::runtime::{AsyncValue, HostContext};
use bef::translate::{TranslateOptions, mlir_to_bef};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

/// The allocator of the `bef` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

const CHAIN_LENGTH: usize = 10_000;
const INDEPENDENT_KERNELS: usize = 10_000;
/// Arithmetic steps of one compute kernel (a few microseconds).
const COMPUTE_STEPS: u32 = 2_000;

bef::kernel! {
    /// A compute kernel: `steps` rounds of an integer hash, so the work
    /// cannot be folded away.
    fn spin(seed: Argument<i32>, steps: Attribute<i32>) -> i32 {
        let mut x = *seed as u32;
        for _ in 0..*steps {
            x = x.wrapping_mul(0x9E37_79B9).rotate_left(5) ^ 0x7F4A_7C15;
        }
        x as i32
    }
}

fn registry() -> KernelRegistry {
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    registry.add_kernel("bench.spin", spin);
    registry
}

fn load(source: &str, registry: &KernelRegistry) -> Arc<Program> {
    let module = bef::text::parse_module(source, "bench.mlir").expect("generated program parses");
    let bytes = mlir_to_bef(
        &module,
        TranslateOptions {
            optional_sections: false,
        },
    )
    .expect("generated program translates");
    Program::load(BefBuffer::copy_from(&bytes), "bench.bef", registry).expect("loads")
}

fn chain_source() -> String {
    let mut s = String::from("func.func @chain(%v0: i32) -> i32 {\n  %one = tfrt.constant.i32 1\n");
    for i in 1..=CHAIN_LENGTH {
        s.push_str(&format!("  %v{i} = tfrt.add.i32 %v{}, %one\n", i - 1));
    }
    s.push_str(&format!("  tfrt.return %v{CHAIN_LENGTH} : i32\n}}\n"));
    s
}

/// Independent kernels, each expensive enough for its own stream.
fn independent_source() -> String {
    let mut s = String::from(
        "module attributes {tfrt.cost_threshold = 10 : i64} {\nfunc.func @fan(%seed: i32) -> i32 {\n",
    );
    for i in 0..INDEPENDENT_KERNELS {
        s.push_str(&format!(
            "  %r{i} = \"bench.spin\"(%seed) {{steps = {COMPUTE_STEPS} : i32, _tfrt_cost = 100 : i64}} : (i32) -> i32\n"
        ));
    }
    s.push_str("  tfrt.return %seed : i32\n}\n}\n");
    s
}

fn context(queue: &str) -> ExecutionContext {
    ExecutionContext::new(Arc::new(HostContext::with_work_queue_name(queue).unwrap()))
}

fn run_once(f: &Function, ctx: &ExecutionContext, arg: &AsyncValue) -> AsyncValue {
    let mut results = f.execute(ctx, std::slice::from_ref(arg));
    ctx.host().await_values(&results);
    ctx.host().quiesce();
    results.pop().expect("one result")
}

fn serial_chain(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    let registry = registry();
    let program = load(&chain_source(), &registry);
    let f = Function::new(program.clone(), program.function_named("chain").unwrap());
    let ctx = context("s");
    let arg = AsyncValue::available(0i32);
    assert_eq!(
        run_once(&f, &ctx, &arg).get::<i32>().copied(),
        Ok(CHAIN_LENGTH as i32)
    );

    let mut g = c.benchmark_group("serial_chain");
    g.throughput(Throughput::Elements(CHAIN_LENGTH as u64));
    g.bench_function("executor", |b| {
        b.iter(|| run_once(&f, &ctx, black_box(&arg)))
    });
    g.bench_function("rust_loop", |b| {
        b.iter(|| {
            let mut v = AsyncValue::available(black_box(0i32));
            for _ in 0..CHAIN_LENGTH {
                let next = v.get::<i32>().unwrap().wrapping_add(black_box(1));
                v = AsyncValue::available(next);
            }
            v
        })
    });
    g.bench_function("tokio_oneshot_tasks", |b| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        b.iter(|| runtime.block_on(tokio_chain(black_box(0))))
    });
    g.finish();
}

/// One spawned task per kernel, each awaiting its predecessor's oneshot.
async fn tokio_chain(start: i32) -> i32 {
    let (first_tx, mut rx) = tokio::sync::oneshot::channel::<Box<i32>>();
    for _ in 0..CHAIN_LENGTH {
        let (tx, next_rx) = tokio::sync::oneshot::channel::<Box<i32>>();
        let previous = rx;
        tokio::spawn(async move {
            let value = previous.await.expect("predecessor sends");
            let _ = tx.send(Box::new(value.wrapping_add(1)));
        });
        rx = next_rx;
    }
    first_tx.send(Box::new(start)).expect("chain alive");
    *rx.await.expect("chain completes")
}

fn independent_compute(c: &mut Criterion) {
    global_alloc::keep_freed_memory();
    let registry = registry();
    let program = load(&independent_source(), &registry);
    let f = Function::new(program.clone(), program.function_named("fan").unwrap());
    let arg = AsyncValue::available(7i32);
    let mut g = c.benchmark_group("independent_compute");
    g.throughput(Throughput::Elements(INDEPENDENT_KERNELS as u64));
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(8));
    for queue in ["s", "mstd:2"] {
        let ctx = context(queue);
        g.bench_with_input(BenchmarkId::from_parameter(queue), &ctx, |b, ctx| {
            b.iter(|| run_once(&f, ctx, &arg))
        });
    }
    g.finish();
}

criterion_group!(benches, serial_chain, independent_compute);
criterion_main!(benches);
