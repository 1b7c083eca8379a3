//! Profiling driver for the executor: builds the serial chain of
//! `benches/exec.rs` (10,000 `tfrt.add.i32`) and executes it N times
//! (first argument, default 20) on the single-threaded queue, or with
//! `loop` as second argument runs the bench's baseline loop N times instead.
//! Meant for `valgrind --tool=callgrind`; compare runs with N and 2N to
//! subtract set-up.
//!
//! `cargo run --release --example exec_profile -- N [loop]`

use std::sync::Arc;

use bef::exec::{ExecutionContext, Function, KernelRegistry, Program};
use bef::format::BefBuffer;
use bef::runtime::{AsyncValue, HostContext};
use bef::translate::{TranslateOptions, mlir_to_bef};

#[path = "../src/bin/bef/global_alloc.rs"]
mod global_alloc;

#[global_allocator]
static GLOBAL: global_alloc::MiMalloc = global_alloc::MiMalloc;

const CHAIN_LENGTH: usize = 10_000;

fn main() {
    global_alloc::keep_freed_memory();
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    if std::env::args().nth(2).as_deref() == Some("loop") {
        let mut last = 0;
        for _ in 0..runs {
            let mut v = AsyncValue::available(std::hint::black_box(0i32));
            for _ in 0..CHAIN_LENGTH {
                let next = v
                    .get::<i32>()
                    .unwrap()
                    .wrapping_add(std::hint::black_box(1));
                v = AsyncValue::available(next);
            }
            last = *v.get::<i32>().unwrap();
        }
        println!("{runs} loops, result {last}");
        return;
    }
    let mut source =
        String::from("func.func @chain(%v0: i32) -> i32 {\n  %one = tfrt.constant.i32 1\n");
    for i in 1..=CHAIN_LENGTH {
        source.push_str(&format!("  %v{i} = tfrt.add.i32 %v{}, %one\n", i - 1));
    }
    source.push_str(&format!("  tfrt.return %v{CHAIN_LENGTH} : i32\n}}\n"));
    let module = bef::text::parse_module(&source, "chain.mlir").unwrap();
    let bytes = mlir_to_bef(&module, TranslateOptions::default()).unwrap();
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    let program = Program::load(BefBuffer::copy_from(&bytes), "chain.bef", &registry).unwrap();
    let f = Function::new(program.clone(), program.function_named("chain").unwrap());
    let ctx = ExecutionContext::new(Arc::new(HostContext::with_work_queue_name("s").unwrap()));
    let arg = AsyncValue::available(0i32);
    let mut last = 0;
    for _ in 0..runs {
        let results = f.execute(&ctx, std::slice::from_ref(&arg));
        ctx.host().await_values(&results);
        last = *results[0].get::<i32>().unwrap();
    }
    println!("{runs} runs, result {last}");
}
