//! What recording costs, each case against its baseline measured in the
//! same run (the same function executed with no observer):
//!
//! * `serial_chain`: one call of a chain of 10,000 `tfrt.add.i32` kernels,
//!   each using the previous result, on the single-threaded queue; with a
//!   fresh [`Recorder`] per call, without and with `--values`. Target: a
//!   ratio of at most 1.5 without values.
//! * `spin_chain`: a chain of 200 compute kernels of about 10 µs each.
//!   Target: at most 5% slower recorded.
//!
//! * `clock`: one reading of `std::time::Instant::now` against one of
//!   `bef::exec::Timestamp::now` (the calibrated time-stamp counter) and
//!   its conversion to nanoseconds: what chose the observer's clock.
//!
//! `cargo bench -p bef-trace --bench overhead`; the ratios are the
//! `recorded` times over the `baseline` times of each group.

// `criterion_main!` defines a `main` without documentation.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bef::exec::{
    Argument, Attribute, ExecEvent, ExecutionContext, Function, KernelRegistry, Observer, Program,
    Timestamp,
};
use bef::format::BefBuffer;
use bef::runtime::{AsyncValue, HostContext};
use bef::translate::{TranslateOptions, mlir_to_bef};
use bef_trace::{Recorder, RecorderOptions};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const CHAIN_LENGTH: usize = 10_000;
const SPIN_KERNELS: usize = 200;
/// Aimed-for duration of one compute kernel.
const SPIN_TARGET: Duration = Duration::from_micros(10);

bef::kernel! {
    /// A compute kernel: `steps` rounds of an integer hash, so the work
    /// cannot be folded away.
    fn spin(seed: Argument<i32>, steps: Attribute<i32>) -> i32 {
        spin_steps(*seed, *steps)
    }
}

fn spin_steps(seed: i32, steps: i32) -> i32 {
    let mut x = seed as u32;
    for _ in 0..steps {
        x = x.wrapping_mul(0x9E37_79B9).rotate_left(5) ^ 0x7F4A_7C15;
    }
    x as i32
}

/// Steps that take about [`SPIN_TARGET`] on this machine.
fn calibrate() -> i32 {
    let probe = 100_000;
    let start = Instant::now();
    black_box(spin_steps(black_box(1), probe));
    let per_step = start.elapsed().as_secs_f64() / f64::from(probe);
    (SPIN_TARGET.as_secs_f64() / per_step).max(1.0) as i32
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

fn spin_source(steps: i32) -> String {
    let mut s = String::from("func.func @chain(%v0: i32) -> i32 {\n");
    for i in 1..=SPIN_KERNELS {
        s.push_str(&format!(
            "  %v{i} = \"bench.spin\"(%v{}) {{steps = {steps} : i32}} : (i32) -> i32\n",
            i - 1
        ));
    }
    s.push_str(&format!("  tfrt.return %v{SPIN_KERNELS} : i32\n}}\n"));
    s
}

/// An observer that ignores every event.
struct Null;

impl Observer for Null {
    fn on_event(&self, event: &ExecEvent<'_>) {
        black_box(event);
    }
}

fn run_once(f: &Function, ctx: &ExecutionContext, arg: &AsyncValue) -> AsyncValue {
    let mut results = f.execute(ctx, std::slice::from_ref(arg));
    ctx.host().await_values(&results);
    ctx.host().quiesce();
    results.pop().expect("one result")
}

/// Baseline and recorded runs of `source`'s `chain` in one group.
fn compare(c: &mut Criterion, group: &str, source: &str, kernels: usize, values: bool) {
    let registry = registry();
    let program = load(source, &registry);
    let f = Function::new(program.clone(), program.function_named("chain").unwrap());
    let host = Arc::new(HostContext::with_work_queue_name("s").unwrap());
    let plain = ExecutionContext::new(host.clone());
    let arg = AsyncValue::available(0i32);
    // First call decodes the tables: keep it out of the figures.
    run_once(&f, &plain, &arg);

    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(kernels as u64));
    g.bench_function("baseline", |b| {
        b.iter(|| run_once(&f, &plain, black_box(&arg)))
    });
    // What the executor's observed path costs by itself (timestamps and
    // thread ids for every event), with an observer that keeps nothing.
    g.bench_function("null_observer", |b| {
        let ctx = ExecutionContext::new(host.clone()).with_observer(Arc::new(Null));
        b.iter(|| run_once(&f, &ctx, black_box(&arg)))
    });
    g.bench_function("recorded", |b| {
        b.iter(|| {
            let recorder = Recorder::new(RecorderOptions::default());
            let ctx = ExecutionContext::new(host.clone()).with_observer(recorder.clone());
            run_once(&f, &ctx, black_box(&arg))
        })
    });
    if values {
        g.bench_function("recorded_values", |b| {
            b.iter(|| {
                let recorder = Recorder::new(RecorderOptions {
                    values: true,
                    ..RecorderOptions::default()
                });
                let ctx = ExecutionContext::new(host.clone()).with_observer(recorder.clone());
                run_once(&f, &ctx, black_box(&arg))
            })
        });
    }
    g.finish();
}

fn serial_chain(c: &mut Criterion) {
    compare(c, "serial_chain", &chain_source(), CHAIN_LENGTH, true);
}

fn spin_chain(c: &mut Criterion) {
    compare(
        c,
        "spin_chain",
        &spin_source(calibrate()),
        SPIN_KERNELS,
        false,
    );
}

fn clock(c: &mut Criterion) {
    let mut g = c.benchmark_group("clock");
    g.bench_function("instant_now", |b| b.iter(|| black_box(Instant::now())));
    g.bench_function("timestamp_now", |b| b.iter(|| black_box(Timestamp::now())));
    let epoch = Timestamp::now();
    g.bench_function("timestamp_nanos", |b| {
        b.iter(|| black_box(black_box(Timestamp::now()).nanos_since(epoch)))
    });
    g.finish();
}

criterion_group!(benches, clock, serial_chain, spin_chain);
criterion_main!(benches);
